import type { Kysely } from 'kysely';

// A platform admin may give one workspace a quota other than the default: each
// column null means "the default of cluster/gateway.ts WORKSPACE_DEFAULTS", so changing the
// defaults still reaches every workspace nobody set by hand. Additive only.

const COLUMNS = ['quota_cpu', 'quota_memory', 'quota_storage'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  for (const column of COLUMNS) await db.schema.alterTable('workspaces').addColumn(column, 'text').execute();
  await db.schema.alterTable('workspaces').addColumn('quota_pods', 'integer').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of [...COLUMNS, 'quota_pods']) await db.schema.alterTable('workspaces').dropColumn(column).execute();
}
