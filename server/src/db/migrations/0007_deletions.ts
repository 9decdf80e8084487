import type { Kysely } from 'kysely';
import { createTableWithId } from './helpers.js';

// Teams and their workspaces deleted or suspended by platform admins. Additive only.
//
// - `teams.enabled`: a suspended team (0) keeps its data, but its members have no rights in it
//   nor in its workspaces, and the reconciler revokes their cluster bindings until re-enabled.
// - `cluster_deletions`: namespaces of deleted workspaces still to delete in the cluster. The
//   workspace row is gone at once (in the deleting transaction, which writes this row); the
//   reconciler deletes the namespace and then the row, retrying while the cluster is down, as
//   `cluster_revocations` does for memberships.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('teams')
    .addColumn('enabled', 'integer', (column) => column.notNull().defaultTo(1))
    .execute();
  await createTableWithId(db, 'cluster_deletions')
    .addColumn('workspace_id', 'integer', (column) => column.notNull())
    .addColumn('namespace', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('last_error', 'text')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('cluster_deletions').execute();
  await db.schema.alterTable('teams').dropColumn('enabled').execute();
}
