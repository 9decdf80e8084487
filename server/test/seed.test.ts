import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filteredActivity } from '../src/admin/lists/activity.js';
import { runCli } from '../src/cli.js';
import { createTestDatabase, type TestDatabase } from './helpers.js';

// `npm run cli -- seed` on a real database, at a small scale: what it says it made is there.

let workDir: string;
let database: TestDatabase;
beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'testbed-console-seed-'));
  database = await createTestDatabase(workDir);
});
afterAll(async () => {
  await database.drop();
  rmSync(workDir, { recursive: true, force: true });
});

async function cli(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, database.db, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const count = async (table: 'users' | 'teams' | 'team_members' | 'workspaces' | 'workspace_members' | 'activity_log') =>
  Number((await database.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

describe('seed', () => {
  it('adds the people, teams, memberships, workspaces and activity it reports', async () => {
    const { code, out } = await cli('seed', '--users', '500', '--teams', '40', '--activity', '3000');
    expect(code).toBe(0);
    const summary = /Seeded (\d+) users \((\d+) admins\), (\d+) teams with (\d+) memberships, (\d+) workspaces with (\d+) members, (\d+) activity entries in [\d.]+ s\./.exec(out);
    expect(summary, out).not.toBeNull();
    const [, users, admins, teams, memberships, workspaces, workspaceMembers, activity] = summary!.map(Number);
    expect([users, admins, teams, activity]).toEqual([500, 5, 40, 3000]);
    expect(await count('users')).toBe(500);
    expect(await count('teams')).toBe(40);
    expect(await count('team_members')).toBe(memberships);
    expect(memberships).toBeGreaterThanOrEqual(40 * 3);
    expect(await count('workspaces')).toBe(workspaces);
    expect(await count('workspace_members')).toBe(workspaceMembers);
    expect(await count('activity_log')).toBe(3000);

    // Every team has exactly one owner; admins are flagged; activity spans most of a year.
    const owners = await database.db.selectFrom('team_members').select('team_id').where('role', '=', 'owner').groupBy('team_id').having(sql`count(*)`, '=', 1).execute();
    expect(owners).toHaveLength(40);
    expect(Number((await database.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).where('admin', '=', 1).executeTakeFirstOrThrow()).n)).toBe(5);
    const span = await database.db.selectFrom('activity_log').select((eb) => [eb.fn.min('created_at').as('first'), eb.fn.max('created_at').as('last')]).executeTakeFirstOrThrow();
    expect(Date.parse(span.last as string) - Date.parse(span.first as string)).toBeGreaterThan(300 * 86_400_000);
    // Plausible, unique addresses: name, number, run tag, place.
    const { email } = await database.db.selectFrom('users').select('email').where('id', '=', 250).executeTakeFirstOrThrow();
    expect(email).toMatch(/^[a-z]+\.[a-z]+\.\d+\.[a-z0-9]+@[a-z]+\.example\.org$/);
  });

  it('leaves the seeded activity searchable, and the search index following new entries', async () => {
    const found = async (q: string) =>
      Number((await filteredActivity(database.db, { q }).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const scanned = Number(
      (await database.db.selectFrom('activity_log').select((eb) => eb.fn.countAll<number>().as('n')).where('description', 'like', '%reconciliation%').executeTakeFirstOrThrow()).n,
    );
    expect(scanned).toBeGreaterThan(0);
    expect(await found('reconciliation')).toBe(scanned);
    await database.db.insertInto('activity_log').values({ causer_id: null, description: 'a freshly written entry', subject_type: null, subject_id: null, properties: '{"severity":"info"}', created_at: new Date().toISOString() }).execute();
    expect(await found('freshly written')).toBe(1);
  });

  it('seeds again without colliding, and refuses bad numbers', async () => {
    expect((await cli('seed', '--users', '20', '--teams', '3', '--activity', '10')).code).toBe(0);
    expect(await count('users')).toBe(520);
    const bad = await cli('seed', '--users', 'lots');
    expect(bad.code).toBe(1);
    expect(bad.err).toBe('--users must be a number.');
    expect((await cli('seed', '--teams=-1')).err).toBe('--teams must be between 0 and 10000000.');
  });
});
