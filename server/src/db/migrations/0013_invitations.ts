import type { Kysely } from 'kysely';
import { createTableWithId } from './helpers.js';

// Invitations to a team (and some of its workspaces) by email. Additive only.
//
// A row per invitation; the mailed link carries a random token stored only as its SHA-256
// (as password reset links are). `status`: pending → accepted (by `accepted_by`) or revoked;
// an expired invitation stays pending past `expires_at` and is refused. A resend replaces the
// token (the old link stops working) and restarts the 7 days. `workspace_ids` is a JSON array.

export async function up(db: Kysely<any>): Promise<void> {
  await createTableWithId(db, 'invitations')
    .addColumn('team_id', 'integer', (column) => column.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('email', 'text', (column) => column.notNull())
    .addColumn('role', 'text', (column) => column.notNull())
    .addColumn('workspace_ids', 'text', (column) => column.notNull().defaultTo('[]'))
    .addColumn('invited_by', 'integer', (column) => column.references('users.id').onDelete('set null'))
    .addColumn('token_hash', 'text', (column) => column.notNull())
    .addColumn('status', 'text', (column) => column.notNull().defaultTo('pending'))
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .addColumn('sent_at', 'text', (column) => column.notNull())
    .addColumn('accepted_by', 'integer', (column) => column.references('users.id').onDelete('set null'))
    .addColumn('accepted_at', 'text')
    .addColumn('revoked_at', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('invitations_team_status_index').on('invitations').columns(['team_id', 'status']).execute();
  await db.schema.createIndex('invitations_token_hash_index').on('invitations').column('token_hash').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('invitations').execute();
}
