// `npm run bench -- lifecycle` (and the end of `npm run bench`): the leader's lifecycle pass when
// nothing is due, over 10,000 workspaces and 100,000 team memberships (docs/lifecycle.md; goal:
// under a second of server CPU per pass).
//
// - A fresh database (SQLite in the temp directory, or a new PostgreSQL database beside
//   DATABASE_URL's, dropped at the end), migrated, seeded with multi-row inserts as the seed
//   command does: BENCH_LIFECYCLE_WORKSPACES (10,000) workspaces in teams of 10, with two
//   members each; BENCH_LIFECYCLE_MEMBERSHIPS (100,000) team memberships, 100 per team, every
//   person in 10 teams.
// - "Nothing is due" as it looks on a testbed in its steady state, not an empty one: the end
//   dates spread over the time ahead (teams over a year, workspaces over 180 days, a third of
//   the memberships over 120 days), so about a sixth of the workspaces and a twelfth of the teams
//   are within the warning time; their warnings (and the last ones, within 72 hours) are
//   already recorded, as are the memberships' within 7 days, and earlier years' warnings (two
//   per workspace and team and year, BENCH_LIFECYCLE_HISTORY_YEARS: 1) are in
//   `lifecycle_notices` too. No end has passed.
// - The pass is the server's own (createLifecycleRunner with lifecycleSteps), run in this
//   process: a first pass, then BENCH_LIFECYCLE_PASSES (5) more. Measured per pass: this
//   process's CPU time (process.cpuUsage; SQLite runs in-process, so its work is included) and,
//   on PostgreSQL, the CPU time of the database's backends (from /proc). Each pass must change
//   nothing (no notice, no mail, no suspension, no removal), else the bench fails.
import { type Insertable, type Kysely, sql } from 'kysely';
import pg from 'pg';
import { loadConfig } from '../server/src/config/config.js';
import { createDatabase, timestamp } from '../server/src/db/database.js';
import { migrate } from '../server/src/db/migrate.js';
import type { Database } from '../server/src/db/schema.js';
import { createLifecycleRunner } from '../server/src/lifecycle/runner.js';
import { lifecycleSteps } from '../server/src/lifecycle/steps.js';
import { createFreshDatabase } from './database.js';
import { type Goal, goalLine, median, table } from './report.js';
import { cpuSeconds } from './server.js';

const setting = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number above 0`);
  return value;
};

/** Less than a second of server CPU per pass when nothing is due. */
export const LIFECYCLE_PASS_GOAL_MS = 1000;

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const ROWS_PER_INSERT = 1000;
const INSERTS_PER_TRANSACTION = 5;
const WORKSPACES_PER_TEAM = 10;
const TEAMS_PER_PERSON = 10;

/** `count` rows made by `make`, as multi-row inserts, a few to a transaction (db/seed.ts does the same). */
async function bulkInsert<T extends keyof Database & string>(
  db: Kysely<Database>,
  table: T,
  count: number,
  make: (index: number) => Insertable<Database[T]>,
): Promise<void> {
  const perTransaction = ROWS_PER_INSERT * INSERTS_PER_TRANSACTION;
  for (let start = 0; start < count; start += perTransaction) {
    await db.transaction().execute(async (trx) => {
      for (let batch = start; batch < Math.min(count, start + perTransaction); batch += ROWS_PER_INSERT) {
        const rows = Array.from({ length: Math.min(ROWS_PER_INSERT, count - batch) }, (_, offset) => make(batch + offset));
        // The generic table type is too wide for Kysely's inference; make's type checks the rows.
        await trx.insertInto(table as keyof Database).values(rows as never).execute();
      }
    });
  }
}

/** Ids of a table in insertion order (the seed inserts into empty tables). */
const idsOf = async (db: Kysely<Database>, table: 'users' | 'teams' | 'workspaces') =>
  (await db.selectFrom(table).select('id').orderBy('id').execute()).map((row) => row.id);

/** A spread of `index` over `days` days from `now` (a day at least), the same for a given index. */
const spreadOver = (now: number, index: number, days: number) => now + DAY_MS + ((index * 7919) % (days * 24)) * HOUR_MS;

export interface LifecycleSeed {
  teams: number;
  workspaces: number;
  memberships: number;
  workspaceMemberships: number;
  notices: number;
  seconds: number;
}

/** The steady state described above, at `now`. */
export async function seedLifecycle(
  db: Kysely<Database>,
  options: { workspaces: number; memberships: number; historyYears: number; now: number },
): Promise<LifecycleSeed> {
  const started = Date.now();
  const { now } = options;
  const created = timestamp(new Date(now - 200 * DAY_MS));
  const teams = Math.max(1, Math.ceil(options.workspaces / WORKSPACES_PER_TEAM));
  const perTeam = Math.max(1, Math.ceil(options.memberships / teams));
  const people = Math.max(perTeam, Math.ceil(options.memberships / TEAMS_PER_PERSON));
  const tag = now.toString(36);

  await bulkInsert(db, 'users', people, (n) => ({
    firstname: 'Person',
    lastname: String(n),
    email: `person.${n}.${tag}@lifecycle.example.org`,
    password_hash: 'seeded: no password',
    email_verified_at: created,
    aup_accepted_at: created,
    admin: 0,
    enabled: 1,
    authority: null,
    created_at: created,
    updated_at: created,
  }));
  const userIds = await idsOf(db, 'users');

  await bulkInsert(db, 'teams', teams, (n) => ({
    name: `team${n}${tag}`,
    shortname: `team${n}${tag}`,
    fullname: `Team ${n}`,
    affiliation: 'University of Lifecycle',
    city: null,
    country: 'FR',
    url: null,
    joining_reason: null,
    joining_category: null,
    created_at: created,
    updated_at: created,
    expires_at: timestamp(new Date(spreadOver(now, n, 365))),
  }));
  const teamIds = await idsOf(db, 'teams');

  // Every team its block of people (the first its owner, two managers); a third of the memberships end within 120 days.
  const memberships = Math.min(options.memberships, teams * perTeam);
  await bulkInsert(db, 'team_members', memberships, (n) => {
    const team = Math.floor(n / perTeam);
    const position = n % perTeam;
    return {
      team_id: teamIds[team]!,
      user_id: userIds[(team * perTeam + position) % userIds.length]!,
      role: position === 0 ? ('owner' as const) : position < 3 ? ('manager' as const) : ('member' as const),
      enabled: 1,
      created_at: created,
      expires_at: position >= 3 && n % 3 === 0 ? timestamp(new Date(spreadOver(now, n, 120))) : null,
    };
  });

  await bulkInsert(db, 'workspaces', options.workspaces, (n) => {
    const team = Math.floor(n / WORKSPACES_PER_TEAM);
    return {
      team_id: teamIds[team % teamIds.length]!,
      name: `ws${n % WORKSPACES_PER_TEAM}`,
      label: `Workspace ${n}`,
      description: null,
      namespace: `team${team}${tag}-ws${n % WORKSPACES_PER_TEAM}`,
      created_at: created,
      updated_at: created,
      cluster_state: 'ready' as const,
      cluster_synced_at: created,
      expires_at: timestamp(new Date(spreadOver(now, n, 180))),
    };
  });
  const workspaceIds = await idsOf(db, 'workspaces');
  // Each workspace its team's owner (manager) and a member.
  await bulkInsert(db, 'workspace_members', workspaceIds.length * 2, (n) => {
    const workspace = Math.floor(n / 2);
    const team = Math.floor(workspace / WORKSPACES_PER_TEAM) % teamIds.length;
    return {
      workspace_id: workspaceIds[workspace]!,
      user_id: userIds[(team * perTeam + (n % 2 === 0 ? 0 : 3)) % userIds.length]!,
      role: n % 2 === 0 ? ('manager' as const) : ('member' as const),
      created_at: created,
      cluster_state: 'ready' as const,
      cluster_synced_at: created,
    };
  });

  // What earlier passes recorded: the warnings already sent for the ends now near, and last year's.
  const sent = timestamp(new Date(now - HOUR_MS));
  const within = (days: number) => timestamp(new Date(now + days * DAY_MS));
  const lastHorizon = timestamp(new Date(now + 72 * HOUR_MS));
  const record = (kind: string, subjectType: string, table: 'workspaces' | 'teams' | 'team_members', until: string) =>
    db
      .insertInto('lifecycle_notices')
      .columns(['kind', 'subject_type', 'subject_id', 'due_at', 'sent_at'])
      .expression(
        db
          .selectFrom(table)
          .select([sql.lit(kind).as('kind'), sql.lit(subjectType).as('subject_type'), 'id as subject_id', sql<string>`expires_at`.as('due_at'), sql.lit(sent).as('sent_at')])
          .where('expires_at', 'is not', null)
          .where('expires_at', '<=', until),
      )
      .execute();
  await record('workspace_warning', 'workspace', 'workspaces', within(30));
  await record('workspace_last_warning', 'workspace', 'workspaces', lastHorizon);
  await record('team_warning', 'team', 'teams', within(30));
  await record('team_last_warning', 'team', 'teams', lastHorizon);
  await record('membership_ending', 'team_member', 'team_members', within(7));
  for (let year = 1; year <= options.historyYears; year += 1) {
    const earlier = timestamp(new Date(now - (year * 365 - 65) * DAY_MS));
    for (const [kinds, subjectType, ids] of [
      [['workspace_warning', 'workspace_last_warning'], 'workspace', workspaceIds],
      [['team_warning', 'team_last_warning'], 'team', teamIds],
    ] as const) {
      for (const kind of kinds) {
        await bulkInsert(db, 'lifecycle_notices', ids.length, (n) => ({ kind, subject_type: subjectType, subject_id: ids[n]!, due_at: earlier, sent_at: earlier }));
      }
    }
  }
  const count = async (table: 'lifecycle_notices' | 'team_members' | 'workspace_members') =>
    Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  return {
    teams: teamIds.length,
    workspaces: workspaceIds.length,
    memberships: await count('team_members'),
    workspaceMemberships: await count('workspace_members'),
    notices: await count('lifecycle_notices'),
    seconds: (Date.now() - started) / 1000,
  };
}

/** What a pass may not change when nothing is due. */
async function snapshot(db: Kysely<Database>) {
  const count = async (table: 'lifecycle_notices' | 'mail_outbox' | 'team_members' | 'workspaces') =>
    Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const suspended = await db.selectFrom('workspaces').select((eb) => eb.fn.countAll<number>().as('n')).where('suspended_at', 'is not', null).executeTakeFirstOrThrow();
  return `${await count('lifecycle_notices')} notices, ${await count('mail_outbox')} mails, ${await count('team_members')} memberships, ${await count('workspaces')} workspaces, ${Number(suspended.n)} suspended`;
}

/** The PostgreSQL backends serving the bench's database (not the one asking), for their CPU time. */
async function backendCpu(monitor: pg.Client | null): Promise<number> {
  if (!monitor) return 0;
  const { rows } = await monitor.query<{ pid: number }>('select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
  return rows.reduce((total, row) => total + (Number.isFinite(cpuSeconds(row.pid)) ? cpuSeconds(row.pid) : 0), 0);
}

export interface LifecycleBenchResult {
  goal: Goal;
  lines: string[];
}

export async function runLifecycleBench(): Promise<LifecycleBenchResult> {
  const workspaces = setting('BENCH_LIFECYCLE_WORKSPACES', 10_000);
  const memberships = setting('BENCH_LIFECYCLE_MEMBERSHIPS', 100_000);
  const passes = setting('BENCH_LIFECYCLE_PASSES', 5);
  const historyYears = setting('BENCH_LIFECYCLE_HISTORY_YEARS', 1);
  const fresh = await createFreshDatabase();
  const db = createDatabase(fresh.url);
  let monitor: pg.Client | null = null;
  try {
    await migrate(db);
    const now = Date.now();
    console.log(`\nLifecycle pass: seeding ${fresh.dialect} with ${workspaces} workspaces and ${memberships} team memberships…`);
    const seeded = await seedLifecycle(db, { workspaces, memberships, historyYears, now });
    if (fresh.dialect === 'postgres') {
      // As the API bench does after its seed: what autovacuum does soon after a bulk load.
      await sql`vacuum analyze`.execute(db);
      monitor = new pg.Client({ connectionString: fresh.url });
      await monitor.connect();
    }
    console.log(
      `seeded in ${seeded.seconds.toFixed(0)} s: ${seeded.teams} teams, ${seeded.workspaces} workspaces, ${seeded.memberships} team memberships, ` +
        `${seeded.workspaceMemberships} workspace memberships, ${seeded.notices} lifecycle notices already recorded`,
    );

    const config = loadConfig({ DATABASE_URL: fresh.url, LOG_LEVEL: 'silent' }, { envFile: null });
    const quiet = { broadcaster: { toUser() {}, toWorkspace() {}, rightsChanged() {} } };
    const runner = createLifecycleRunner({ db, config, clock: { now: () => new Date() }, steps: lifecycleSteps, services: quiet });
    const before = await snapshot(db);
    const rows: string[][] = [];
    const warm: number[] = [];
    for (let pass = 0; pass <= passes; pass += 1) {
      const backendBefore = await backendCpu(monitor);
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      const result = await runner.runOnce();
      const wall = performance.now() - started;
      const cpu = process.cpuUsage(cpuBefore);
      const cpuMs = (cpu.user + cpu.system) / 1000;
      const backendMs = (await backendCpu(monitor)) - backendBefore;
      const failed = result.steps.filter((step) => step.error);
      if (failed.length > 0) throw new Error(`lifecycle steps failed: ${failed.map((step) => `${step.name}: ${step.error}`).join('; ')}`);
      if (pass > 0) warm.push(cpuMs);
      rows.push([pass === 0 ? 'first' : String(pass), wall.toFixed(1), cpuMs.toFixed(1), ...(monitor ? [(backendMs * 1000).toFixed(0)] : [])]);
    }
    const after = await snapshot(db);
    if (after !== before) throw new Error(`a pass with nothing due changed something: before ${before}; after ${after}`);
    const lines = [
      table(['pass', 'wall ms', 'server CPU ms', ...(monitor ? ['PostgreSQL backends CPU ms (10 ms ticks)'] : [])], rows),
      `nothing changed: ${after}`,
    ];
    for (const line of lines) console.log(line);
    const worst = Math.max(...rows.map((row) => Number(row[2])));
    const goal: Goal = {
      label: `lifecycle pass when nothing is due (${seeded.workspaces} workspaces, ${seeded.memberships} memberships, ${fresh.dialect})`,
      target: `< ${LIFECYCLE_PASS_GOAL_MS} ms of server CPU per pass`,
      measured: `${median(warm).toFixed(1)} ms median, ${worst.toFixed(1)} ms at worst (the first pass included)`,
      pass: worst < LIFECYCLE_PASS_GOAL_MS,
    };
    console.log(goalLine(goal));
    return { goal, lines };
  } finally {
    await monitor?.end();
    await db.destroy();
    await fresh.cleanup();
  }
}
