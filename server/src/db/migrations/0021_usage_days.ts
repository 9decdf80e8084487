import { type Kysely, sql } from 'kysely';

// Usage summed per day (docs/usage.md, "Days summed ahead"). Additive only.
// Reading usage per day or month from `usage_hours` sums 24 rows per workspace and day: a month of
// the whole platform is every workspace's 720 hours. The accounting pass now adds the same
// amounts, in the same transaction, to two tables of days, so those reads sum days instead:
// - `usage_days`: per workspace and UTC day ("2026-11-27"), `team_id` copied in as in
//   `usage_hours` (and like it, no foreign key: the history outlives a deleted workspace);
// - `usage_team_days`: per team and UTC day, what the platform's reads by team and the monthly
//   allocation sum, so they do not go through every workspace's rows.
// Both are filled here from the hours already accounted.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('usage_days')
    .addColumn('workspace_id', 'integer', (column) => column.notNull())
    .addColumn('team_id', 'integer', (column) => column.notNull())
    .addColumn('day', 'text', (column) => column.notNull())
    .addColumn('cpu_core_hours', 'double precision', (column) => column.notNull())
    .addColumn('memory_gib_hours', 'double precision', (column) => column.notNull())
    .addPrimaryKeyConstraint('usage_days_primary_key', ['workspace_id', 'day'])
    .execute();
  await db.schema.createIndex('usage_days_team_index').on('usage_days').columns(['team_id', 'day']).execute();
  // Covering: the platform's reads by workspace scan a range of days from the index alone.
  await db.schema
    .createIndex('usage_days_day_index')
    .on('usage_days')
    .columns(['day', 'workspace_id', 'cpu_core_hours', 'memory_gib_hours'])
    .execute();

  await db.schema
    .createTable('usage_team_days')
    .addColumn('team_id', 'integer', (column) => column.notNull())
    .addColumn('day', 'text', (column) => column.notNull())
    .addColumn('cpu_core_hours', 'double precision', (column) => column.notNull())
    .addColumn('memory_gib_hours', 'double precision', (column) => column.notNull())
    .addPrimaryKeyConstraint('usage_team_days_primary_key', ['team_id', 'day'])
    .execute();
  await db.schema
    .createIndex('usage_team_days_day_index')
    .on('usage_team_days')
    .columns(['day', 'team_id', 'cpu_core_hours', 'memory_gib_hours'])
    .execute();

  const day = sql`substr(hour_start, 1, 10)`;
  await sql`insert into usage_days (workspace_id, team_id, day, cpu_core_hours, memory_gib_hours)
    select workspace_id, min(team_id), ${day}, sum(cpu_core_hours), sum(memory_gib_hours)
    from usage_hours group by workspace_id, ${day}`.execute(db);
  await sql`insert into usage_team_days (team_id, day, cpu_core_hours, memory_gib_hours)
    select team_id, ${day}, sum(cpu_core_hours), sum(memory_gib_hours)
    from usage_hours group by team_id, ${day}`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('usage_team_days').execute();
  await db.schema.dropTable('usage_days').execute();
}
