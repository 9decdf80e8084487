// `npm run bench`: the API goals of docs/benchmarks.md (the platform admins' lists; the
// member's pages; memory), each measured against its floor in the same run.
//
// - A fresh database seeded with the seed command (SQLite in the temp directory, or a new
//   PostgreSQL database when DATABASE_URL is postgres://, dropped afterwards), an admin made
//   with `npm run cli -- user:create --admin --verified`, signed in through POST /login.
// - The server started as `npm start` starts it (bench/server.ts), with its normal logging,
//   RATE_LIMITS=off and CLUSTER=none (no sandbox cluster or reconciler beside it); each
//   scenario's floor (the statements one call of it runs in the app, replayed by a bare Fastify
//   server: bench/scenarioFloor.ts) and a bare Node hello-world, each in a process of its own;
//   the load client (autocannon) in a process per measurement.
// - BENCH_ROUNDS rounds; in each, every scenario and its floor are measured one after the other
//   (the floor first in every other round), and the bare hello-world at the round's start and
//   end. Printed: the median ratio to the floor with its spread (min–max over rounds), the ratio
//   to bare Node, requests per second, p50/p99 latency, and the server's CPU time per request.
// - Each round also times a bulk disable of 1,000 users (then enables them again) and the CSV
//   export of every user, sampling the server's RSS every 50 ms.
// - Every goal is printed with PASS or FAIL against its target.
//
// - Idle RSS of a fresh server with the sandbox cluster and without (CLUSTER=sandbox / none), and
//   BENCH_SOAK_SECONDS (600; 0 skips it) of mixed load with the RSS at the first minute and at
//   the end.
//
// Environment: BENCH_USERS (10000), BENCH_ACTIVITY (20000), BENCH_ROUNDS (5), BENCH_DURATION
// (seconds per measurement, 3), BENCH_CONNECTIONS (50), BENCH_P99_CONNECTIONS (10: one more
// pass at this many connections for latency; 0 skips it), BENCH_EXTRA=1 (more lists, no
// goals), BENCH_REUSE_DB (a seeded SQLite file or postgres:// URL to use instead of seeding),
// BENCH_KEEP_DB=1 (keep the fresh database for BENCH_REUSE_DB). All traffic stays on 127.0.0.1.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { createAdmin, prepareDatabase, readFacts } from './database.js';
import { bulkRound, exportRound, type BulkTiming, type ExportTiming } from './actions.js';
import { runLoad, type LoadResult } from './load.js';
import { type Goal, goalLine, mb, median, spread, summary, table } from './report.js';
import { idleRss, soak, type SoakResult } from './memory.js';
import { preparePeople } from './people.js';
import {
  BULK_GOAL_MS,
  BULK_SIZE,
  EXPORT_GOAL_MS,
  EXPORT_RSS_GOAL_BYTES,
  GOAL_GROUPS,
  type GoalGroup,
  IDLE_RSS_GOAL_BYTES,
  type Scenario,
  scenarios,
  SOAK_GROWTH_GOAL_BYTES,
} from './scenarios.js';
import { recordStatements, startFloor } from './scenarioFloor.js';
import { cpuSeconds, type Running, startApp, startBare, tail } from './server.js';

const setting = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number`);
  return value;
};
const USERS = setting('BENCH_USERS', 10_000);
const ACTIVITY = setting('BENCH_ACTIVITY', 20_000);
const ROUNDS = Math.max(1, setting('BENCH_ROUNDS', 5));
const DURATION = Math.max(1, setting('BENCH_DURATION', 3));
const CONNECTIONS = Math.max(1, setting('BENCH_CONNECTIONS', 50));
const LOW_CONNECTIONS = setting('BENCH_P99_CONNECTIONS', 10);
const SOAK_SECONDS = setting('BENCH_SOAK_SECONDS', 600);

interface Measured extends LoadResult {
  /** To the scenario's floor measured next to it. */
  ratio: number;
  /** To the mean of the round's bare Node measurements. */
  bareRatio: number;
  floor: LoadResult;
  /** Server CPU milliseconds per answered request. */
  cpuMs: number;
}

async function measure(target: Running, url: string, headers: Record<string, string>, connections = CONNECTIONS, duration = DURATION): Promise<LoadResult & { cpuMs: number }> {
  const cpuBefore = cpuSeconds(target.pid);
  const result = await runLoad({ url, headers, connections, duration });
  const cpuMs = result.requests > 0 ? ((cpuSeconds(target.pid) - cpuBefore) * 1000) / result.requests : Number.NaN;
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} answers other than 2xx, ${result.errors} errors`);
  return { ...result, cpuMs };
}

export async function runApiBench(): Promise<void> {
  const workDir = mkdtempSync(join(os.tmpdir(), 'testbed-bench-'));
  const loadBefore = os.loadavg();
  const database = await prepareDatabase({ users: USERS, activity: ACTIVITY, storageDir: workDir, keep: process.env.BENCH_KEEP_DB === '1' });
  const running: Running[] = [];
  try {
    const admin = await createAdmin(database.url, workDir);
    const people = await preparePeople(database.url);
    // The bulk disables leave the member (and the admin) alone: their scenarios run in between.
    const facts = await readFacts(database.url, ROUNDS * BULK_SIZE, [people.memberId]);
    // Idle first, on fresh processes: with the sandbox cluster (as a developer's npm start) and without.
    // On an empty SQLite database (the default): with the seeded one, the sandbox would hold a
    // namespace, quota and role bindings for each of its thousands of workspaces.
    const idle = {
      none: await idleRss({ databaseUrl: `sqlite:${join(workDir, 'idle-none.sqlite')}`, workDir: join(workDir, 'idle-none'), cluster: 'none' }),
      sandbox: await idleRss({ databaseUrl: `sqlite:${join(workDir, 'idle-sandbox.sqlite')}`, workDir: join(workDir, 'idle-sandbox'), cluster: 'sandbox' }),
    };
    if (facts.bulkIds.length < ROUNDS * BULK_SIZE) throw new Error(`Need ${ROUNDS * BULK_SIZE} enabled non-admin users for the bulk disables, found ${facts.bulkIds.length}`);
    const logFile = join(workDir, 'server.log');
    const app = await startApp(
      { DATABASE_URL: database.url, STORAGE_DIR: workDir, STATIC_DIR: join(workDir, 'no-console'), RATE_LIMITS: 'off', CLUSTER: 'none' },
      logFile,
    );
    running.push(app);
    const bare = await startBare();
    running.push(bare);

    const login = await fetch(`${app.url}/login`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(admin) });
    if (!login.ok) throw new Error(`POST /login answered ${login.status}: ${await login.text()}`);
    const { token } = (await login.json()) as { token: string };
    const auth = { Authorization: `Bearer ${token}` };

    const list = scenarios({ causerId: facts.causerId, workspaceId: people.workspaceId, extra: process.env.BENCH_EXTRA === '1' });
    const member = { Authorization: `Bearer ${people.memberToken}` };
    const headersOf = (scenario: Scenario) => (scenario.as === 'admin' ? auth : scenario.as === 'member' ? member : {});
    const totals = new Map<Scenario, string>();
    for (const scenario of list) {
      const response = await fetch(`${app.url}${scenario.path}`, { headers: { accept: 'application/json', ...headersOf(scenario) } });
      if (!response.ok) throw new Error(`${scenario.path} answered ${response.status}: ${await response.text()}`);
      const body = (await response.json()) as { meta?: { total: number } };
      if (body.meta) totals.set(scenario, `${body.meta.total} rows`);
    }
    const statements = await recordStatements(database.url, workDir, list.map((scenario) => ({ path: scenario.path, headers: headersOf(scenario) })));
    const floor = await startFloor(database.url, statements, workDir);
    running.push(floor);
    const floorUrl = (scenario: Scenario) => `${floor.url}/${list.indexOf(scenario)}`;

    console.log(
      `\ndatabase: ${database.dialect} (${database.fresh ? `fresh, seeded in ${database.seedSeconds!.toFixed(0)} s` : 'reused'}), ` +
        `${facts.users} users, ${facts.activity} activity entries; server ${app.url} (pid ${app.pid}), floor ${floor.url} (pid ${floor.pid}), bare ${bare.url} (pid ${bare.pid})`,
    );
    console.log(`statements per call (replayed by the floor): ${list.map((scenario, n) => `${scenario.path.split('?')[0]} ${statements[n]!.length}`).join(', ')}`);
    console.log(`member: in ${people.teams} teams and ${people.workspaces} workspaces, owner of a team with ${people.pendingRequests} pending requests`);
    console.log(`load: autocannon, ${CONNECTIONS} connections, ${DURATION} s per measurement, ${ROUNDS} rounds, app and floor interleaved`);
    // Warm-up: JIT, caches, connection pools.
    await measure(bare, bare.url, {}, CONNECTIONS, 1);
    for (const scenario of list) {
      await measure(app, `${app.url}${scenario.path}`, headersOf(scenario), CONNECTIONS, 1);
      await measure(floor, floorUrl(scenario), {}, CONNECTIONS, 1);
    }

    const results = new Map<Scenario, Measured[]>(list.map((scenario) => [scenario, []]));
    const bareRuns: (LoadResult & { cpuMs: number })[] = [];
    const bulks: BulkTiming[] = [];
    const exports: ExportTiming[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      // The export first: the first round's runs on a server that has only been warmed up.
      exports.push(await exportRound(app, auth, facts.users));
      bulks.push(await bulkRound(app, auth, facts.bulkIds.slice(round * BULK_SIZE, (round + 1) * BULK_SIZE)));
      const bareBefore = await measure(bare, bare.url, {});
      const measured: { scenario: Scenario; result: LoadResult & { cpuMs: number }; floor: LoadResult }[] = [];
      for (const scenario of list) {
        // Alternately first, so that neither always meets the machine as the other left it.
        const floorFirst = round % 2 === 1;
        const floorBefore = floorFirst ? await measure(floor, floorUrl(scenario), {}) : undefined;
        const result = await measure(app, `${app.url}${scenario.path}`, headersOf(scenario));
        const floorResult = floorBefore ?? (await measure(floor, floorUrl(scenario), {}));
        measured.push({ scenario, result, floor: floorResult });
      }
      const bareAfter = await measure(bare, bare.url, {});
      bareRuns.push(bareBefore, bareAfter);
      const bareRps = (bareBefore.rps + bareAfter.rps) / 2;
      const line: string[] = [`bare ${bareRps.toFixed(0)}`];
      for (const { scenario, result, floor: floorResult } of measured) {
        const ratio = result.rps / floorResult.rps;
        results.get(scenario)!.push({ ...result, ratio, bareRatio: result.rps / bareRps, floor: floorResult });
        line.push(`${result.rps.toFixed(0)}/${floorResult.rps.toFixed(0)} (${ratio.toFixed(2)})`);
      }
      const last = exports.at(-1)!;
      const bulk = bulks.at(-1)!;
      console.log(
        `round ${round + 1}/${ROUNDS}: req/s ${line.join(', ')}; export ${last.ms.toFixed(0)} ms (CPU ${last.cpuMs.toFixed(0)} ms) +${mb(last.rssGrowth)}; ` +
          `bulk disable ${bulk.disableMs.toFixed(0)} ms, enable ${bulk.enableMs.toFixed(0)} ms`,
      );
    }

    const low = new Map<Scenario | 'bare', LoadResult>();
    const lowFloor = new Map<Scenario, LoadResult>();
    if (LOW_CONNECTIONS > 0) {
      low.set('bare', await measure(bare, bare.url, {}, LOW_CONNECTIONS));
      for (const scenario of list) {
        low.set(scenario, await measure(app, `${app.url}${scenario.path}`, headersOf(scenario), LOW_CONNECTIONS));
        lowFloor.set(scenario, await measure(floor, floorUrl(scenario), {}, LOW_CONNECTIONS));
      }
    }

    let soaked: SoakResult | undefined;
    if (SOAK_SECONDS > 0) {
      console.log(`\nmixed load for ${SOAK_SECONDS} s (every scenario in turn, 10 s each, ${LOW_CONNECTIONS || 10} connections)…`);
      soaked = await soak(app, list.map((scenario) => ({ url: `${app.url}${scenario.path}`, headers: headersOf(scenario) })), SOAK_SECONDS, LOW_CONNECTIONS || 10);
    }

    const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(value < 10 ? 1 : 0) : 'n/a');
    const cpu = (value: number) => (Number.isFinite(value) ? value.toFixed(2) : 'n/a');
    const lowColumn = (key: Scenario | 'bare') => (low.has(key) ? `${ms(low.get(key)!.p50)} / ${ms(low.get(key)!.p99)}` : '-');
    const lowFloorColumn = (key: Scenario) => (lowFloor.has(key) ? ms(lowFloor.get(key)!.p99) : '-');
    const rows = [
      ['bare Node hello-world', median(bareRuns.map((run) => run.rps)).toFixed(0), '', '', '1', ms(median(bareRuns.map((run) => run.p50))), ms(median(bareRuns.map((run) => run.p99))), cpu(median(bareRuns.map((run) => run.cpuMs))), lowColumn('bare'), '', ''],
      ...list.map((scenario) => {
        const runs = results.get(scenario)!;
        return [
          scenario.label,
          median(runs.map((run) => run.rps)).toFixed(0),
          median(runs.map((run) => run.floor.rps)).toFixed(0),
          summary(runs.map((run) => run.ratio), 2),
          median(runs.map((run) => run.bareRatio)).toFixed(3),
          ms(median(runs.map((run) => run.p50))),
          ms(median(runs.map((run) => run.p99))),
          cpu(median(runs.map((run) => run.cpuMs))),
          lowColumn(scenario),
          lowFloorColumn(scenario),
          totals.get(scenario) ?? '',
        ];
      }),
    ];
    console.log(
      `\nThroughput at ${CONNECTIONS} connections (medians over ${ROUNDS} rounds; app / floor measured next to each other, min–max over rounds in brackets; ` +
        'app / bare Node to the mean of the round\'s two bare runs; a run in which no request finished counts as 0 req/s and has no latency or CPU figure):\n',
    );
    console.log(
      table(
        ['scenario', 'req/s', 'floor req/s', 'app/floor (min–max)', 'app/bare', 'p50 ms', 'p99 ms', 'CPU ms/req', `p50/p99 ms @${LOW_CONNECTIONS}`, `floor p99 @${LOW_CONNECTIONS}`, 'matched'],
        rows,
      ),
    );

    const dialect = database.dialect;
    const goals: Goal[] = [];
    for (const scenario of list) {
      for (const goal of scenario.goals) {
        const ratios = results.get(scenario)!.map((run) => run.ratio);
        goals.push({
          group: goal.group,
          label: scenario.label,
          target: `app/floor >= ${goal.ratio}`,
          measured: `median ${summary(ratios, 2)} (${median(results.get(scenario)!.map((run) => run.rps)).toFixed(0)} / ${median(results.get(scenario)!.map((run) => run.floor.rps)).toFixed(0)} req/s)`,
          pass: median(ratios) >= goal.ratio,
        });
        // BENCH_P99_CONNECTIONS=0 skips the latency pass: its goals are then left out, not failed.
        if (goal.p99Ms !== undefined && LOW_CONNECTIONS > 0) {
          const p99 = low.get(scenario)?.p99 ?? Number.NaN;
          const target = goal.p99Ms[dialect];
          goals.push({
            group: goal.group,
            label: `${scenario.label}, p99 at ${LOW_CONNECTIONS} connections`,
            target: `< ${target} ms`,
            measured: `${ms(p99)} ms (floor ${lowFloorColumn(scenario)} ms)`,
            pass: p99 < target,
          });
        }
      }
    }
    const disable = bulks.map((bulk) => bulk.disableMs);
    goals.push({ group: 'scale', label: `bulk disable of ${BULK_SIZE} users`, target: `< ${BULK_GOAL_MS} ms`, measured: `median ${summary(disable, 0, ' ms')}`, pass: median(disable) < BULK_GOAL_MS });
    const exportMs = exports.map((timing) => timing.ms);
    goals.push({
      group: 'scale',
      label: `CSV export of ${facts.users} users`,
      target: `< ${EXPORT_GOAL_MS} ms`,
      measured: `median ${summary(exportMs, 0, ' ms')}, ${mb(exports[0]!.bytes)}; server CPU ${summary(exports.map((timing) => timing.cpuMs), 0, ' ms')}`,
      pass: median(exportMs) < EXPORT_GOAL_MS,
    });
    const growth = exports.map((timing) => timing.rssGrowth);
    goals.push({
      group: 'scale',
      label: 'server RSS growth during the CSV export',
      target: `< ${mb(EXPORT_RSS_GOAL_BYTES)}`,
      measured: `worst ${mb(Math.max(...growth))} (rounds ${spread(growth.map((bytes) => bytes / 1024 / 1024), 1, ' MB')}; first from ${mb(exports[0]!.rssBefore)})`,
      pass: Math.max(...growth) < EXPORT_RSS_GOAL_BYTES,
    });
    console.log(`\nbulk enable of the same ${BULK_SIZE} users (no goal): median ${summary(bulks.map((bulk) => bulk.enableMs), 0, ' ms')}`);
    console.log(`load average before / after: ${loadBefore.map((value) => value.toFixed(2)).join(' ')} / ${os.loadavg().map((value) => value.toFixed(2)).join(' ')} (${os.cpus().length} CPUs)`);
    for (const cluster of ['none', 'sandbox'] as const) {
      goals.push({
        group: 'speed',
        label: `idle RSS on an empty database, ${cluster === 'none' ? 'without a cluster (CLUSTER=none)' : 'with the sandbox cluster (CLUSTER=sandbox)'}`,
        target: `<= ${mb(IDLE_RSS_GOAL_BYTES[cluster])}`,
        measured: mb(idle[cluster]),
        pass: idle[cluster] <= IDLE_RSS_GOAL_BYTES[cluster],
      });
    }
    if (soaked) {
      const growth = soaked.rssEnd - soaked.rssEarly;
      goals.push({
        group: 'speed',
        label: `RSS growth over ${soaked.seconds.toFixed(0)} s of mixed load (${soaked.requests} requests)`,
        target: `< ${mb(SOAK_GROWTH_GOAL_BYTES)}`,
        measured: `${mb(growth)} (${mb(soaked.rssEarly)} after the first minute, ${mb(soaked.rssEnd)} at the end, peak ${mb(soaked.rssPeak)})`,
        pass: growth < SOAK_GROWTH_GOAL_BYTES,
      });
    } else {
      console.log('\nBENCH_SOAK_SECONDS=0: the growth under mixed load was not measured.');
    }
    if (LOW_CONNECTIONS === 0) console.log('BENCH_P99_CONNECTIONS=0: the p99 goals were not measured.');
    for (const [group, title] of Object.entries(GOAL_GROUPS) as [GoalGroup, string][]) {
      console.log(`\n${title}, measured on ${database.dialect} with ${facts.users} users and ${facts.activity} activity entries:\n`);
      for (const goal of goals.filter((goal) => goal.group === group)) console.log(goalLine(goal));
    }
    console.log(`\n${goals.filter((goal) => goal.pass).length} of ${goals.length} goals pass`);
    process.exitCode = 0;
  } catch (error) {
    const log = join(workDir, 'server.log');
    try {
      console.error(`Server log (last lines):\n${tail(log)}`);
    } catch {
      // no log yet
    }
    throw error;
  } finally {
    for (const child of running.reverse()) await child.stop();
    await database.cleanup();
    rmSync(workDir, { recursive: true, force: true });
  }
}

