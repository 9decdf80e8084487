import type { Kysely } from 'kysely';

// Usage you can see (docs/usage.md). Additive only.
// - `usage_hours`: what each workspace used, per hour: CPU core-hours and memory GiB-hours from
//   its running pods' requests. One row per (workspace, hour), written by the leader's
//   accounting pass only. `team_id` is copied in so a team's usage is one indexed read, and no
//   foreign key ties the rows to the workspace: the history outlives a deleted workspace.
// - `usage_accounting`: one row, how far the pass has accounted (`accounted_until`). The pass
//   moves it forward in the same transaction as the hours it adds, and only from the value it
//   read, so no stretch of time is counted twice by a restart or a second replica, and none is
//   lost while no server ran (the next pass covers it from the pods' start times).
// - Team quotas (`teams.quota_*`, null: no team quota): the workspaces' quotas in a team never
//   add up to more. `teams.allocation_core_hours`: CPU core-hours the team may use per calendar
//   month; null: no allocation. `teams.allocation_used_up_at`: set while the team has used all
//   of this month's allocation (its workspaces' quotas then allow no new pod); cleared by a new
//   month or a larger allocation.
// - `workspaces.quota_until` and `quota_previous` (JSON of the four quota columns): a quota
//   granted until a date returns to the former one then.
// - `nodes.team_id`: the team a contributed node counts for (contributor credit); null: none.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('usage_hours')
    .addColumn('workspace_id', 'integer', (column) => column.notNull())
    .addColumn('team_id', 'integer', (column) => column.notNull())
    /** The hour's start, ISO 8601 in UTC ("2026-11-27T13:00:00.000Z"). */
    .addColumn('hour_start', 'text', (column) => column.notNull())
    .addColumn('cpu_core_hours', 'double precision', (column) => column.notNull())
    .addColumn('memory_gib_hours', 'double precision', (column) => column.notNull())
    .addPrimaryKeyConstraint('usage_hours_primary_key', ['workspace_id', 'hour_start'])
    .execute();
  await db.schema.createIndex('usage_hours_team_index').on('usage_hours').columns(['team_id', 'hour_start']).execute();
  await db.schema.createIndex('usage_hours_hour_index').on('usage_hours').column('hour_start').execute();

  await db.schema
    .createTable('usage_accounting')
    .addColumn('id', 'integer', (column) => column.primaryKey())
    .addColumn('accounted_until', 'text', (column) => column.notNull())
    .execute();

  await db.schema.alterTable('teams').addColumn('quota_cpu', 'text').execute();
  await db.schema.alterTable('teams').addColumn('quota_memory', 'text').execute();
  await db.schema.alterTable('teams').addColumn('quota_storage', 'text').execute();
  await db.schema.alterTable('teams').addColumn('quota_pods', 'integer').execute();
  await db.schema.alterTable('teams').addColumn('allocation_core_hours', 'double precision').execute();
  await db.schema.alterTable('teams').addColumn('allocation_used_up_at', 'text').execute();

  await db.schema.alterTable('workspaces').addColumn('quota_until', 'text').execute();
  await db.schema.alterTable('workspaces').addColumn('quota_previous', 'text').execute();
  await db.schema.createIndex('workspaces_quota_until_index').on('workspaces').column('quota_until').execute();

  await db.schema.alterTable('nodes').addColumn('team_id', 'integer', (column) => column.references('teams.id').onDelete('set null')).execute();
  await db.schema.createIndex('nodes_team_index').on('nodes').column('team_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('nodes_team_index').execute();
  await db.schema.alterTable('nodes').dropColumn('team_id').execute();
  await db.schema.dropIndex('workspaces_quota_until_index').execute();
  await db.schema.alterTable('workspaces').dropColumn('quota_previous').execute();
  await db.schema.alterTable('workspaces').dropColumn('quota_until').execute();
  for (const column of ['allocation_used_up_at', 'allocation_core_hours', 'quota_pods', 'quota_storage', 'quota_memory', 'quota_cpu']) {
    await db.schema.alterTable('teams').dropColumn(column).execute();
  }
  await db.schema.dropTable('usage_accounting').execute();
  await db.schema.dropTable('usage_hours').execute();
}
