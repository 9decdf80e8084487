import { type Kysely, sql } from 'kysely';
import { createTableWithId } from './helpers.js';

// Teams, workspaces, their memberships and the request workflow (docs/api-contract.md,
// "Teams, workspaces and requests"). Additive only; portable types as in 0001.

export async function up(db: Kysely<any>): Promise<void> {
  await createTableWithId(db, 'teams')
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('fullname', 'text', (column) => column.notNull())
    .addColumn('shortname', 'text', (column) => column.notNull())
    .addColumn('affiliation', 'text')
    .addColumn('city', 'text')
    .addColumn('country', 'text')
    .addColumn('url', 'text')
    .addColumn('joining_reason', 'text')
    .addColumn('joining_category', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .addUniqueConstraint('teams_name_unique', ['name'])
    .execute();
  await db.schema.createIndex('teams_created_at_index').on('teams').column('created_at').execute();

  await createTableWithId(db, 'team_members')
    .addColumn('team_id', 'integer', (column) => column.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (column) => column.notNull())
    .addColumn('enabled', 'integer', (column) => column.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addUniqueConstraint('team_members_team_user_unique', ['team_id', 'user_id'])
    .execute();
  await db.schema.createIndex('team_members_user_index').on('team_members').columns(['user_id', 'team_id']).execute();

  await createTableWithId(db, 'workspaces')
    .addColumn('team_id', 'integer', (column) => column.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('label', 'text', (column) => column.notNull())
    .addColumn('description', 'text')
    .addColumn('namespace', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .addUniqueConstraint('workspaces_team_name_unique', ['team_id', 'name'])
    .addUniqueConstraint('workspaces_namespace_unique', ['namespace'])
    .execute();
  await db.schema.createIndex('workspaces_name_index').on('workspaces').column('name').execute();

  await createTableWithId(db, 'workspace_members')
    .addColumn('workspace_id', 'integer', (column) => column.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addUniqueConstraint('workspace_members_workspace_user_unique', ['workspace_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('workspace_members_user_index')
    .on('workspace_members')
    .columns(['user_id', 'workspace_id'])
    .execute();

  await createTableWithId(db, 'requests')
    .addColumn('type', 'text', (column) => column.notNull())
    .addColumn('status', 'text', (column) => column.notNull())
    .addColumn('user_id', 'integer', (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('team_id', 'integer', (column) => column.references('teams.id').onDelete('set null'))
    .addColumn('workspace_id', 'integer', (column) => column.references('workspaces.id').onDelete('set null'))
    .addColumn('object_name', 'text', (column) => column.notNull())
    // What makes two pending requests duplicates (see requests/requests.ts `dedupeKey`).
    .addColumn('dedupe_key', 'text', (column) => column.notNull())
    .addColumn('data', 'text', (column) => column.notNull())
    .addColumn('message', 'text')
    .addColumn('decision_message', 'text')
    .addColumn('decided_by', 'integer', (column) => column.references('users.id').onDelete('set null'))
    .addColumn('decided_at', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute();
  // Settles races between two identical requests: one pending request per object.
  await db.schema
    .createIndex('requests_pending_unique')
    .on('requests')
    .column('dedupe_key')
    .unique()
    .where(sql.ref('status'), '=', 'Pending')
    .execute();
  await db.schema.createIndex('requests_status_type_index').on('requests').columns(['status', 'type', 'created_at']).execute();
  await db.schema.createIndex('requests_team_index').on('requests').columns(['team_id', 'status']).execute();
  await db.schema.createIndex('requests_workspace_index').on('requests').columns(['workspace_id', 'status']).execute();
  await db.schema.createIndex('requests_user_index').on('requests').columns(['user_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['requests', 'workspace_members', 'workspaces', 'team_members', 'teams']) {
    await db.schema.dropTable(table).execute();
  }
}
