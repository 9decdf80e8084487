import type { Kysely } from 'kysely';
import { createTableWithId } from './helpers.js';

// Cluster access still to take away: a membership deleted from the database leaves a row here
// (in the same transaction), and the reconciler revokes the access in the cluster and then
// deletes the row. Additive only.

export async function up(db: Kysely<any>): Promise<void> {
  await createTableWithId(db, 'cluster_revocations')
    .addColumn('workspace_id', 'integer', (column) => column.notNull())
    .addColumn('namespace', 'text', (column) => column.notNull())
    .addColumn('user_id', 'integer', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('last_error', 'text')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('cluster_revocations').execute();
}
