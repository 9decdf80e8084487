// `npm run bench -- usage`: usage accounting (docs/usage.md) and its reads at a testbed's scale.
// On a fresh database (as bench/lifecycle.ts: SQLite in the temp directory, or a new PostgreSQL
// database beside DATABASE_URL's, dropped at the end):
// - BENCH_USAGE_WORKSPACES (10,000) workspaces in teams of 10, each with BENCH_USAGE_DAYS (365)
//   days of usage as the accounting pass leaves it: the days summed ahead (`usage_days`,
//   `usage_team_days`) for the whole year, and hour rows (`usage_hours`, through the pass's own
//   `addUsage`) for the last BENCH_USAGE_HOUR_DAYS (2) days. The reads per day or month never
//   read the hours, and a workspace's reads per hour go through its primary key, so the year of
//   hour rows (87.6 million at this scale) is not written: it would take the seed an hour and
//   tens of GB without changing what any measured read touches.
// - The leader's accounting pass (accountUsage, in this process) over BENCH_USAGE_PODS (50,000)
//   running pods spread over the workspaces, a minute after the last pass, BENCH_USAGE_PASSES (5)
//   times. The pods come from an in-process list: what is measured is the pass from the pod list
//   on (mapping, hours and days, one transaction), not the cluster's answer.
// - The reads behind the usage endpoints and the dashboard, BENCH_USAGE_READS (50) times each:
//   wall time, p99 and median. Beside each, its floor: the same sums asked of the same tables
//   in one hand-written SQL statement through the bare driver (better-sqlite3 or pg), the rows
//   turned into JSON, as no layer of the console can do with less.
// Measured: this process's CPU time per pass (SQLite runs in-process, so its work is included;
// on PostgreSQL the database's own CPU is not), and the wall time of each read.
import { type Kysely, sql } from 'kysely';
import { DAY_MS, HOUR_MS } from '../server/src/clock.js';
import type { AccountedPod } from '../server/src/cluster/gateway.js';
import { createDatabase, openConnections } from '../server/src/db/database.js';
import { migrate } from '../server/src/db/migrate.js';
import type { Database } from '../server/src/db/schema.js';
import { adminDashboard } from '../server/src/admin/dashboard.js';
import { accountUsage, addUsage } from '../server/src/usage/accounting.js';
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
/** p99 wall time of every read behind the usage endpoints and the dashboard. */
export const USAGE_READ_P99_GOAL_MS = 100;

const WORKSPACES_PER_TEAM = 10;
/** DATABASE_POOL_SIZE's default, the connections a started server opens. */
const SERVER_POOL_SIZE = 10;
/** Calls of each read before the measured ones (see where it is used). */
const WARM_UP_CALLS = 20;
const ROWS_PER_INSERT = 1000;

/** The amounts of a workspace's day or hour n: varied, never all zero. */
const cpuOf = (workspaceId: number, n: number) => ((workspaceId + n) % 7) * 0.25;
const memoryOf = (workspaceId: number, n: number) => ((workspaceId + n) % 5) * 0.5;

async function insertInBatches<T>(db: Kysely<Database>, table: 'teams' | 'workspaces' | 'usage_days' | 'usage_team_days', rows: T[]) {
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
    await db.insertInto(table).values(rows.slice(start, start + ROWS_PER_INSERT) as never).execute();
  }
}

async function seed(db: Kysely<Database>, options: { workspaces: number; days: number; hourDays: number; now: number }) {
  const created = new Date(options.now - 400 * DAY_MS).toISOString();
  const tag = options.now.toString(36);
  const teams = Math.ceil(options.workspaces / WORKSPACES_PER_TEAM);
  await insertInBatches(
    db,
    'teams',
    Array.from({ length: teams }, (_, n) => ({ name: `usage${n}${tag}`, shortname: `usage${n}${tag}`, fullname: `Usage ${n}`, affiliation: 'Bench', city: null, country: 'FR', url: null, joining_reason: null, joining_category: null, created_at: created, updated_at: created })),
  );
  const teamIds = (await db.selectFrom('teams').select('id').orderBy('id').execute()).map((row) => row.id);
  await insertInBatches(
    db,
    'workspaces',
    Array.from({ length: options.workspaces }, (_, n) => {
      const team = Math.floor(n / WORKSPACES_PER_TEAM);
      return { team_id: teamIds[team]!, name: `ws${n % WORKSPACES_PER_TEAM}`, label: `Workspace ${n}`, description: null, namespace: `usage${team}${tag}-ws${n % WORKSPACES_PER_TEAM}`, created_at: created, updated_at: created };
    }),
  );
  const workspaces = await db.selectFrom('workspaces').select(['id', 'team_id', 'namespace']).orderBy('id').execute();

  // The days before the hour rows' window, summed as the pass leaves them, one day at a time.
  const today = Math.floor(options.now / DAY_MS) * DAY_MS;
  const firstHourDay = today - (options.hourDays - 1) * DAY_MS;
  for (let day = today - (options.days - 1) * DAY_MS; day < firstHourDay; day += DAY_MS) {
    const n = day / DAY_MS;
    const dayText = new Date(day).toISOString().slice(0, 10);
    const perTeam = new Map<number, { cpu: number; memory: number }>();
    const rows = workspaces.map((workspace) => {
      const row = { workspace_id: workspace.id, team_id: workspace.team_id, day: dayText, cpu_core_hours: cpuOf(workspace.id, n) * 24, memory_gib_hours: memoryOf(workspace.id, n) * 24 };
      const team = perTeam.get(workspace.team_id) ?? { cpu: 0, memory: 0 };
      team.cpu += row.cpu_core_hours;
      team.memory += row.memory_gib_hours;
      perTeam.set(workspace.team_id, team);
      return row;
    });
    await db.transaction().execute(async (trx) => {
      await insertInBatches(trx, 'usage_days', rows);
      await insertInBatches(trx, 'usage_team_days', [...perTeam].map(([team_id, sums]) => ({ team_id, day: dayText, cpu_core_hours: sums.cpu, memory_gib_hours: sums.memory })));
    });
  }
  // The last days' hours, through the pass's own writer (hours and days together).
  for (let hour = firstHourDay; hour < Math.floor(options.now / HOUR_MS) * HOUR_MS; hour += HOUR_MS) {
    const n = hour / HOUR_MS;
    const hourStart = new Date(hour).toISOString();
    await db.transaction().execute((trx) =>
      addUsage(
        trx,
        workspaces.map((workspace) => ({ workspace_id: workspace.id, team_id: workspace.team_id, hour_start: hourStart, cpu_core_hours: cpuOf(workspace.id, n), memory_gib_hours: memoryOf(workspace.id, n) })),
      ),
    );
  }
  return workspaces;
}

/** The p-th percentile (nearest rank) of the times. */
const percentile = (times: number[], p: number) => {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

/** One hand-written statement through the bare driver, its rows turned into JSON: the floor of a read. */
type FloorQuery = (statement: { sqlite: string; postgres: string }, params: unknown[]) => Promise<void>;

async function bareDriver(url: string, dialect: 'sqlite' | 'postgres'): Promise<{ query: FloorQuery; close: () => Promise<void> }> {
  if (dialect === 'sqlite') {
    const { default: SQLite } = await import('better-sqlite3');
    const bare = new SQLite(url.replace(/^sqlite:/, ''), { readonly: true });
    return {
      query: async (statement, params) => {
        JSON.stringify(bare.prepare(statement.sqlite).all(...params));
      },
      close: async () => {
        bare.close();
      },
    };
  }
  const { default: pg } = await import('pg');
  const bare = new pg.Client({ connectionString: url });
  await bare.connect();
  // Each text prepared once on the connection, as the app's pool does (db/database.ts).
  const names = new Map<string, string>();
  return {
    query: async (statement, params) => {
      let name = names.get(statement.postgres);
      if (name === undefined) names.set(statement.postgres, (name = `floor_${names.size}`));
      JSON.stringify((await bare.query({ name, text: statement.postgres, values: params })).rows);
    },
    close: () => bare.end(),
  };
}

/** The same statement text for both, `?` placeholders turned into `$n` for PostgreSQL. */
const both = (text: string) => {
  let n = 0;
  return { sqlite: text, postgres: text.replace(/\?/g, () => `$${++n}`) };
};

export async function runUsageBench(): Promise<{ goals: Goal[] }> {
  const workspaceCount = setting('BENCH_USAGE_WORKSPACES', 10_000);
  const days = setting('BENCH_USAGE_DAYS', 365);
  const hourDays = Math.min(days, setting('BENCH_USAGE_HOUR_DAYS', 2));
  const podCount = setting('BENCH_USAGE_PODS', 50_000);
  const passes = setting('BENCH_USAGE_PASSES', 5);
  const reads = setting('BENCH_USAGE_READS', 50);
  const fresh = await createFreshDatabase();
  const db = createDatabase(fresh.url);
  try {
    await migrate(db);
    const now = Date.now();
    console.log(`\nUsage: seeding ${fresh.dialect} with ${workspaceCount} workspaces, ${days} days of usage each (hour rows for the last ${hourDays})…`);
    const seedStarted = Date.now();
    const workspaces = await seed(db, { workspaces: workspaceCount, days, hourDays, now });
    if (fresh.dialect === 'postgres') await sql`vacuum analyze`.execute(db);
    const count = async (table: 'usage_hours' | 'usage_days' | 'usage_team_days') =>
      Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const counts = { hours: await count('usage_hours'), days: await count('usage_days'), teamDays: await count('usage_team_days') };
    console.log(`seeded in ${((Date.now() - seedStarted) / 1000).toFixed(0)} s: ${workspaces.length} workspaces, ${counts.days} workspace days, ${counts.teamDays} team days, ${counts.hours} hour rows`);

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
    const lastMonth = resolveRange({ granularity: 'day' }, at);
    const lastMonthByMonth = resolveRange({ granularity: 'month' }, at);
    const lastDayByHour = resolveRange({ granularity: 'hour', from: new Date(at.getTime() - DAY_MS).toISOString() }, at);
    const fromDay = lastMonth.from.toISOString().slice(0, 10);
    const toDay = lastMonth.to.toISOString().slice(0, 10);
    const workspace = workspaces[Math.floor(workspaces.length / 2)]!;
    const bare = await bareDriver(fresh.url, fresh.dialect);
    const dashboardStatements: { sql: string; parameters: readonly unknown[] }[] = [];
    const recorder = createDatabase(fresh.url, { onQuery: (text, parameters) => dashboardStatements.push({ sql: text, parameters }) });
    await adminDashboard(recorder, at).finally(() => recorder.destroy());
    // The pool as a started server has it (main.ts opens its connections before listening).
    await openConnections(db, SERVER_POOL_SIZE);
    type Probe = { label: string; ours: () => Promise<unknown>; floor: () => Promise<void> };
    const probes: Probe[] = [
      {
        label: 'a workspace, 30 days by day',
        ours: () => usageSeries(db, { workspaceId: workspace.id }, lastMonth),
        floor: () => bare.query(both('select day, cpu_core_hours, memory_gib_hours from usage_days where workspace_id = ? and day >= ? and day < ?'), [workspace.id, fromDay, toDay]),
      },
      {
        label: 'a workspace, the last 24 hours by hour',
        ours: () => usageSeries(db, { workspaceId: workspace.id }, lastDayByHour),
        floor: () => bare.query(both('select hour_start, cpu_core_hours, memory_gib_hours from usage_hours where workspace_id = ? and hour_start >= ? and hour_start < ?'), [workspace.id, lastDayByHour.from.toISOString(), lastDayByHour.to.toISOString()]),
      },
      {
        label: 'a team, 30 days by day, with its workspaces',
        ours: () => Promise.all([usageSeries(db, { teamId: workspace.team_id }, lastMonth), teamWorkspaceTotals(db, workspace.team_id, lastMonth)]),
        floor: async () => {
          await bare.query(both('select day, cpu_core_hours, memory_gib_hours from usage_team_days where team_id = ? and day >= ? and day < ?'), [workspace.team_id, fromDay, toDay]);
          await bare.query(both('select workspace_id, sum(cpu_core_hours), sum(memory_gib_hours) from usage_days where team_id = ? and day >= ? and day < ? group by workspace_id'), [workspace.team_id, fromDay, toDay]);
        },
      },
      {
        label: 'the platform by team, 30 days by month (the admin page)',
        ours: () => groupedUsage(db, 'team', lastMonthByMonth),
        floor: () => bare.query(both('select team_id, substr(day, 1, 7), sum(cpu_core_hours), sum(memory_gib_hours) from usage_team_days where day >= ? and day < ? group by team_id, substr(day, 1, 7)'), [fromDay, toDay]),
      },
      {
        label: 'the platform by team, 30 days by day',
        ours: () => groupedUsage(db, 'team', lastMonth),
        floor: () => bare.query(both('select team_id, day, cpu_core_hours, memory_gib_hours from usage_team_days where day >= ? and day < ?'), [fromDay, toDay]),
      },
      {
        label: 'the platform by workspace, 30 days by month',
        ours: () => groupedUsage(db, 'workspace', lastMonthByMonth),
        floor: () => bare.query(both('select workspace_id, substr(day, 1, 7), sum(cpu_core_hours), sum(memory_gib_hours) from usage_days where day >= ? and day < ? group by workspace_id, substr(day, 1, 7)'), [fromDay, toDay]),
      },
      {
        label: 'the dashboard (every number on it)',
        ours: () => adminDashboard(db, at),
        // Its own statements, recorded from one call, replayed one after another.
        floor: async () => {
          for (const statement of dashboardStatements) await bare.query({ sqlite: statement.sql, postgres: statement.sql }, [...statement.parameters]);
        },
      },
    ];
    const readRows: string[][] = [];
    const ourP99s: { label: string; p99: number }[] = [];
    try {
      for (const probe of probes) {
        const ours: number[] = [];
        const floor: number[] = [];
        // Warm-up, untimed but for the first call: each pooled connection prepares a statement and
        // reads the catalog the first time it runs it, once in a server's life (main.ts keeps its
        // connections open); the dashboard's reads run at once on up to eight connections, so
        // they all take their turn here. The measured calls are the steady state after it.
        let started = performance.now();
        await probe.ours();
        const firstCall = performance.now() - started;
        for (let n = 1; n < WARM_UP_CALLS; n += 1) {
          await probe.ours();
          await probe.floor();
        }
        // Interleaved, so both meet the same machine.
        for (let n = 0; n < reads; n += 1) {
          started = performance.now();
          await probe.ours();
          ours.push(performance.now() - started);
          started = performance.now();
          await probe.floor();
          floor.push(performance.now() - started);
        }
        const p99 = percentile(ours, 99);
        const floorP99 = percentile(floor, 99);
        ourP99s.push({ label: probe.label, p99 });
        readRows.push([probe.label, firstCall.toFixed(1), median(ours).toFixed(1), p99.toFixed(1), median(floor).toFixed(1), floorP99.toFixed(1), (median(ours) / median(floor)).toFixed(1)]);
      }
    } finally {
      await bare.close();
    }
    console.log(table(['read', 'first call ms', 'median ms', 'p99 ms', 'floor median ms', 'floor p99 ms', 'ratio (medians)'], readRows));

    const slowest = ourP99s.reduce((a, b) => (b.p99 > a.p99 ? b : a));
    const goals: Goal[] = [
      {
        label: `usage accounting pass over ${podCount} pods in ${workspaces.length} workspaces (${fresh.dialect})`,
        target: `< ${USAGE_PASS_GOAL_MS} ms of server CPU per pass`,
        measured: `${median(passCpu).toFixed(1)} ms median, ${Math.max(...passCpu).toFixed(1)} ms at worst`,
        pass: Math.max(...passCpu) < USAGE_PASS_GOAL_MS,
      },
      ...ourP99s.map((read) => ({
        label: `${read.label}, ${workspaces.length} workspaces × ${days} days (${fresh.dialect})`,
        target: `p99 < ${USAGE_READ_P99_GOAL_MS} ms`,
        measured: `p99 ${read.p99.toFixed(1)} ms${read === slowest ? ' (the slowest)' : ''}`,
        pass: read.p99 < USAGE_READ_P99_GOAL_MS,
      })),
    ];
    for (const goal of goals) console.log(goalLine(goal));
    return { goals };
  } finally {
    await db.destroy();
    await fresh.cleanup();
  }
}
