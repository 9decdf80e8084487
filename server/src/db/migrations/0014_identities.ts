import type { Kysely } from 'kysely';
import { createTableWithId } from './helpers.js';

// Institutional sign-in (OpenID Connect). Additive only.
//
// - `identities`: an OpenID provider's account linked to a user, matched by issuer + subject
//   (never by email). `email` is what the provider said at linking, for display.
// - `oidc_states`: a sign-in or linking in progress (one row per redirect to a provider): the
//   state (as SHA-256), nonce and PKCE verifier, the browser it was started from (SHA-256 of
//   a cookie), and for linking the user. Used once, kept 10 minutes at most.
// - `oidc_codes`: the one-time code (as SHA-256) the console exchanges for a session token
//   after a sign-in; valid one minute, used once.
// Users made by a sign-in have no password: `users.password_hash` is '' (matches nothing).

export async function up(db: Kysely<any>): Promise<void> {
  await createTableWithId(db, 'identities')
    .addColumn('user_id', 'integer', (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('provider', 'text', (column) => column.notNull())
    .addColumn('issuer', 'text', (column) => column.notNull())
    .addColumn('subject', 'text', (column) => column.notNull())
    .addColumn('email', 'text')
    .addColumn('linked_at', 'text', (column) => column.notNull())
    .addUniqueConstraint('identities_issuer_subject_unique', ['issuer', 'subject'])
    .execute();
  await db.schema.createIndex('identities_user_index').on('identities').column('user_id').execute();

  await createTableWithId(db, 'oidc_states')
    .addColumn('state_hash', 'text', (column) => column.notNull())
    .addColumn('provider', 'text', (column) => column.notNull())
    .addColumn('nonce', 'text', (column) => column.notNull())
    .addColumn('code_verifier', 'text', (column) => column.notNull())
    .addColumn('browser_hash', 'text', (column) => column.notNull())
    .addColumn('intent', 'text', (column) => column.notNull())
    .addColumn('user_id', 'integer', (column) => column.references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addUniqueConstraint('oidc_states_state_hash_unique', ['state_hash'])
    .execute();

  await createTableWithId(db, 'oidc_codes')
    .addColumn('code_hash', 'text', (column) => column.notNull())
    .addColumn('user_id', 'integer', (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('provider', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addUniqueConstraint('oidc_codes_code_hash_unique', ['code_hash'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('oidc_codes').execute();
  await db.schema.dropTable('oidc_states').execute();
  await db.schema.dropTable('identities').execute();
}
