import type { Kysely } from 'kysely';

// Cluster sync state of workspaces and their memberships (server/src/cluster/reconciler.ts):
// `pending` until the reconciler has applied them, then `ready`; `error` when the cluster
// refused them for good. Additive only.

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['workspaces', 'workspace_members']) {
    await db.schema
      .alterTable(table)
      .addColumn('cluster_state', 'text', (column) => column.notNull().defaultTo('pending'))
      .execute();
    await db.schema.alterTable(table).addColumn('cluster_error', 'text').execute();
    await db.schema.alterTable(table).addColumn('cluster_synced_at', 'text').execute();
    await db.schema.createIndex(`${table}_cluster_state_index`).on(table).column('cluster_state').execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['workspaces', 'workspace_members']) {
    await db.schema.dropIndex(`${table}_cluster_state_index`).execute();
    for (const column of ['cluster_synced_at', 'cluster_error', 'cluster_state']) {
      await db.schema.alterTable(table).dropColumn(column).execute();
    }
  }
}
