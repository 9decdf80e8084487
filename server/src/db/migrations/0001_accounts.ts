import { type Kysely, sql } from 'kysely';
import { createTableWithId } from './helpers.js';

// Accounts and onboarding: users, their access tokens (login sessions and personal tokens),
// password reset links and the activity log. Types are kept portable (docs/server.md):
// timestamps as ISO-8601 text, flags as integers, JSON as text.

export async function up(db: Kysely<any>): Promise<void> {
  await createTableWithId(db, 'users')
    .addColumn('firstname', 'text', (column) => column.notNull())
    .addColumn('lastname', 'text', (column) => column.notNull())
    .addColumn('email', 'text', (column) => column.notNull())
    .addColumn('password_hash', 'text', (column) => column.notNull())
    .addColumn('email_verified_at', 'text')
    .addColumn('aup_accepted_at', 'text')
    .addColumn('admin', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('enabled', 'integer', (column) => column.notNull().defaultTo(1))
    .addColumn('authority', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .addUniqueConstraint('users_email_unique', ['email'])
    .execute();

  await createTableWithId(db, 'access_tokens')
    .addColumn('user_id', 'integer', (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('token_hash', 'text', (column) => column.notNull())
    .addColumn('abilities', 'text', (column) => column.notNull())
    .addColumn('last_used_at', 'text')
    .addColumn('expires_at', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('access_tokens_user_id_index').on('access_tokens').column('user_id').execute();
  // Personal token names are unique per user; login sessions all share one name.
  await db.schema
    .createIndex('access_tokens_personal_name_unique')
    .on('access_tokens')
    .columns(['user_id', 'name'])
    .unique()
    .where(sql.ref('kind'), '=', 'personal')
    .execute();

  await createTableWithId(db, 'password_resets')
    .addColumn('user_id', 'integer', (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addUniqueConstraint('password_resets_token_hash_unique', ['token_hash'])
    .execute();
  await db.schema.createIndex('password_resets_user_id_index').on('password_resets').column('user_id').execute();

  await createTableWithId(db, 'activity_log')
    .addColumn('causer_id', 'integer', (column) => column.references('users.id').onDelete('set null'))
    .addColumn('description', 'text', (column) => column.notNull())
    .addColumn('subject_type', 'text')
    .addColumn('subject_id', 'integer')
    .addColumn('properties', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex('activity_log_causer_index')
    .on('activity_log')
    .columns(['causer_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('activity_log_subject_index')
    .on('activity_log')
    .columns(['subject_type', 'subject_id'])
    .execute();
  await db.schema.createIndex('activity_log_created_at_index').on('activity_log').column('created_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['activity_log', 'password_resets', 'access_tokens', 'users']) {
    await db.schema.dropTable(table).execute();
  }
}
