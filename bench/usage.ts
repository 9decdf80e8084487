// `npm run bench -- usage`: usage accounting (docs/usage.md) at scale. On a fresh database (as
// bench/lifecycle.ts: SQLite in the temp directory, or a new PostgreSQL database beside
// DATABASE_URL's, dropped at the end):
// - BENCH_USAGE_WORKSPACES (1,000) workspaces in teams of 10, each with BENCH_USAGE_DAYS (30)
//   days of hour rows in `usage_hours` already, as the pass would have left them;
// - the leader's accounting pass (accountUsage, in this process) over BENCH_USAGE_PODS (50,000)
//   running pods spread over those workspaces, a minute after the last pass, BENCH_USAGE_PASSES
//   (5) times. The pods come from an in-process list: what is measured is the pass from the pod
//   list on (mapping, hours, one transaction), not the cluster's answer, which depends on the
//   cluster (docs/usage.md says how it is read, in pages of 500);
// - the three reads behind the endpoints (a workspace's and a team's last 30 days by day, the
//   platform's by team and by workspace), each BENCH_USAGE_READS (20) times.
// Measured: this process's CPU time per pass (SQLite runs in-process, so its work is included;
// on PostgreSQL the database's own CPU is not), and the wall time of each read.
import { type Kysely, sql } from 'kysely';
import { DAY_MS, HOUR_MS } from '../server/src/clock.js';
import type { AccountedPod } from '../server/src/cluster/gateway.js';
import { createDatabase } from '../server/src/db/database.js';
import { migrate } from '../server/src/db/migrate.js';
import type { Database } from '../server/src/db/schema.js';
import { accountUsage } from '../server/src/usage/accounting.js';
import { groupedUsage, resolveRange, teamWorkspaceTotals, usageSeries } from '../server/src/usage/report.js';
import { createFreshDatabase } from './database.js';
import { type Goal, goalLine, median, table } from './report.js';

const setting = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number above 0`);
  return value;
};

/** Server CPU per accounting pass over 50,000 pods. */
export const USAGE_PASS_GOAL_MS = 1000;
/** Wall time of a workspace's or a team's read (median). */
export const USAGE_READ_GOAL_MS = 250;
/** Wall time of a platform-wide read (median): every hour row of the range is summed. */
export const USAGE_ADMIN_READ_GOAL_MS = 2500;

const WORKSPACES_PER_TEAM = 10;
const ROWS_PER_INSERT = 1000;

async function seed(db: Kysely<Database>, options: { workspaces: number; days: number; now: number }) {
  const created = new Date(options.now - 400 * DAY_MS).toISOString();
  const tag = options.now.toString(36);
  const teams = Math.ceil(options.workspaces / WORKSPACES_PER_TEAM);
  for (let start = 0; start < teams; start += ROWS_PER_INSERT) {
    const rows = Array.from({ length: Math.min(ROWS_PER_INSERT, teams - start) }, (_, offset) => {
      const n = start + offset;
      return { name: `usage${n}${tag}`, shortname: `usage${n}${tag}`, fullname: `Usage ${n}`, affiliation: 'Bench', city: null, country: 'FR', url: null, joining_reason: null, joining_category: null, created_at: created, updated_at: created };
    });
    await db.insertInto('teams').values(rows).execute();
  }
  const teamIds = (await db.selectFrom('teams').select('id').orderBy('id').execute()).map((row) => row.id);
  for (let start = 0; start < options.workspaces; start += ROWS_PER_INSERT) {
    const rows = Array.from({ length: Math.min(ROWS_PER_INSERT, options.workspaces - start) }, (_, offset) => {
      const n = start + offset;
      const team = Math.floor(n / WORKSPACES_PER_TEAM);
      return { team_id: teamIds[team]!, name: `ws${n % WORKSPACES_PER_TEAM}`, label: `Workspace ${n}`, description: null, namespace: `usage${team}${tag}-ws${n % WORKSPACES_PER_TEAM}`, created_at: created, updated_at: created };
    });
    await db.insertInto('workspaces').values(rows).execute();
  }
  const workspaces = await db.selectFrom('workspaces').select(['id', 'team_id', 'namespace']).orderBy('id').execute();
  const firstHour = Math.floor((options.now - options.days * DAY_MS) / HOUR_MS) * HOUR_MS;
  const hours = options.days * 24;
  for (const workspace of workspaces) {
    await db.transaction().execute(async (trx) => {
      for (let start = 0; start < hours; start += ROWS_PER_INSERT) {
        const rows = Array.from({ length: Math.min(ROWS_PER_INSERT, hours - start) }, (_, offset) => ({
          workspace_id: workspace.id,
          team_id: workspace.team_id,
          hour_start: new Date(firstHour + (start + offset) * HOUR_MS).toISOString(),
          cpu_core_hours: ((workspace.id + start + offset) % 7) * 0.25,
          memory_gib_hours: ((workspace.id + start + offset) % 5) * 0.5,
        }));
        await trx.insertInto('usage_hours').values(rows).execute();
      }
    });
  }
  return workspaces;
}

export async function runUsageBench(): Promise<{ goals: Goal[] }> {
  const workspaceCount = setting('BENCH_USAGE_WORKSPACES', 1000);
  const days = setting('BENCH_USAGE_DAYS', 30);
  const podCount = setting('BENCH_USAGE_PODS', 50_000);
  const passes = setting('BENCH_USAGE_PASSES', 5);
  const reads = setting('BENCH_USAGE_READS', 20);
  const fresh = await createFreshDatabase();
  const db = createDatabase(fresh.url);
  try {
    await migrate(db);
    const now = Date.now();
    console.log(`\nUsage: seeding ${fresh.dialect} with ${workspaceCount} workspaces and ${days} days of hours each…`);
    const seedStarted = Date.now();
    const workspaces = await seed(db, { workspaces: workspaceCount, days, now });
    if (fresh.dialect === 'postgres') await sql`vacuum analyze`.execute(db);
    const rowCount = Number((await db.selectFrom('usage_hours').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    console.log(`seeded in ${((Date.now() - seedStarted) / 1000).toFixed(0)} s: ${workspaces.length} workspaces, ${rowCount} hour rows`);

    // The pods: spread over the workspaces, started over the last day, two containers each.
    const pods: AccountedPod[] = Array.from({ length: podCount }, (_, n) => ({
      namespace: workspaces[n % workspaces.length]!.namespace,
      name: `pod-${n}`,
      phase: 'Running',
      startTime: new Date(now - ((n * 7919) % DAY_MS)).toISOString(),
      containers: [
        { requests: { cpu: 0.25, memory: 2 ** 28 }, limits: { cpu: 0.5, memory: 2 ** 29 } },
        { requests: { cpu: null, memory: null }, limits: { cpu: 0.1, memory: 2 ** 27 } },
      ],
    }));
    const gateway = { listWorkspacePods: async () => pods };
    await db.insertInto('usage_accounting').values({ id: 1, accounted_until: new Date(now).toISOString() }).execute();

    const passRows: string[][] = [];
    const passCpu: number[] = [];
    for (let pass = 1; pass <= passes; pass += 1) {
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      const result = await accountUsage({ db, gateway, now: new Date(now + pass * 60_000) });
      const wall = performance.now() - started;
      const cpu = process.cpuUsage(cpuBefore);
      const cpuMs = (cpu.user + cpu.system) / 1000;
      if (result.outcome !== 'accounted') throw new Error(`the pass did not account: ${JSON.stringify(result)}`);
      passCpu.push(cpuMs);
      passRows.push([String(pass), String(result.pods), String(result.rows), wall.toFixed(1), cpuMs.toFixed(1)]);
    }
    console.log(table(['pass', 'pods', 'hour rows', 'wall ms', 'server CPU ms'], passRows));

    const at = new Date(now + (passes + 1) * 60_000);
    const range = resolveRange({ granularity: 'day' }, at);
    const workspace = workspaces[0]!;
    const probes: [string, boolean, () => Promise<unknown>][] = [
      ['workspace, 30 days by day', false, () => usageSeries(db, { workspaceId: workspace.id }, range)],
      ['team, 30 days by day, with its workspaces', false, () => Promise.all([usageSeries(db, { teamId: workspace.team_id }, range), teamWorkspaceTotals(db, workspace.team_id, range)])],
      ['admin by team, 30 days by day', true, () => groupedUsage(db, 'team', range)],
      ['admin by workspace, 30 days by day', true, () => groupedUsage(db, 'workspace', range)],
    ];
    const readRows: string[][] = [];
    const readMedians: number[] = [];
    const adminMedians: number[] = [];
    for (const [label, platformWide, probe] of probes) {
      const times: number[] = [];
      for (let n = 0; n < reads; n += 1) {
        const started = performance.now();
        await probe();
        times.push(performance.now() - started);
      }
      (platformWide ? adminMedians : readMedians).push(median(times));
      readRows.push([label, median(times).toFixed(1), Math.max(...times).toFixed(1)]);
    }
    console.log(table(['read', 'median ms', 'worst ms'], readRows));

    const goals: Goal[] = [
      {
        label: `usage accounting pass over ${podCount} pods in ${workspaces.length} workspaces (${fresh.dialect})`,
        target: `< ${USAGE_PASS_GOAL_MS} ms of server CPU per pass`,
        measured: `${median(passCpu).toFixed(1)} ms median, ${Math.max(...passCpu).toFixed(1)} ms at worst`,
        pass: Math.max(...passCpu) < USAGE_PASS_GOAL_MS,
      },
      {
        label: `a workspace's and a team's usage over ${rowCount} hour rows (${fresh.dialect})`,
        target: `< ${USAGE_READ_GOAL_MS} ms median each`,
        measured: `${Math.max(...readMedians).toFixed(1)} ms for the slower`,
        pass: Math.max(...readMedians) < USAGE_READ_GOAL_MS,
      },
      {
        label: `the platform's usage by team and by workspace over ${rowCount} hour rows (${fresh.dialect})`,
        target: `< ${USAGE_ADMIN_READ_GOAL_MS} ms median each`,
        measured: `${Math.max(...adminMedians).toFixed(1)} ms for the slower`,
        pass: Math.max(...adminMedians) < USAGE_ADMIN_READ_GOAL_MS,
      },
    ];
    for (const goal of goals) console.log(goalLine(goal));
    return { goals };
  } finally {
    await db.destroy();
    await fresh.cleanup();
  }
}
