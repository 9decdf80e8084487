import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { dialectOf } from '../src/db/database.js';
import { migrations } from '../src/db/migrations/index.js';
import { createTestDatabase, type TestDatabase } from './helpers.js';

// The days summed ahead (migration 0021) start from the hours already accounted: a database
// that had usage before the migration answers its reads per day with the same amounts.

let workDir: string;
let database: TestDatabase;
beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'testbed-console-usage-days-'));
  database = await createTestDatabase(workDir);
});
afterAll(async () => {
  await database.drop();
  rmSync(workDir, { recursive: true, force: true });
});

it('fills usage_days and usage_team_days from the hours already in usage_hours', async () => {
  const { db } = database;
  const schema = dialectOf(db) === 'postgres' ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]!.schema : undefined;
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations }, migrationTableSchema: schema });
  const down = await migrator.migrateDown();
  expect(down.error).toBeUndefined();
  expect(down.results?.[0]?.migrationName).toBe('0021_usage_days');

  const hour = (workspace_id: number, team_id: number, hour_start: string, cpu_core_hours: number, memory_gib_hours: number) => ({ workspace_id, team_id, hour_start, cpu_core_hours, memory_gib_hours });
  await db
    .insertInto('usage_hours')
    .values([
      hour(1, 10, '2030-03-01T00:00:00.000Z', 1, 2),
      hour(1, 10, '2030-03-01T23:00:00.000Z', 0.5, 1),
      hour(1, 10, '2030-03-02T00:00:00.000Z', 4, 0),
      hour(2, 10, '2030-03-01T12:00:00.000Z', 2, 8),
      hour(3, 11, '2030-03-01T12:00:00.000Z', 3, 3),
    ])
    .execute();

  const up = await migrator.migrateToLatest();
  expect(up.error).toBeUndefined();
  const days = await db.selectFrom('usage_days').select(['workspace_id', 'team_id', 'day', 'cpu_core_hours', 'memory_gib_hours']).orderBy('workspace_id').orderBy('day').execute();
  expect(days).toEqual([
    { workspace_id: 1, team_id: 10, day: '2030-03-01', cpu_core_hours: 1.5, memory_gib_hours: 3 },
    { workspace_id: 1, team_id: 10, day: '2030-03-02', cpu_core_hours: 4, memory_gib_hours: 0 },
    { workspace_id: 2, team_id: 10, day: '2030-03-01', cpu_core_hours: 2, memory_gib_hours: 8 },
    { workspace_id: 3, team_id: 11, day: '2030-03-01', cpu_core_hours: 3, memory_gib_hours: 3 },
  ]);
  const teamDays = await db.selectFrom('usage_team_days').selectAll().orderBy('team_id').orderBy('day').execute();
  expect(teamDays).toEqual([
    { team_id: 10, day: '2030-03-01', cpu_core_hours: 3.5, memory_gib_hours: 11 },
    { team_id: 10, day: '2030-03-02', cpu_core_hours: 4, memory_gib_hours: 0 },
    { team_id: 11, day: '2030-03-01', cpu_core_hours: 3, memory_gib_hours: 3 },
  ]);
});
