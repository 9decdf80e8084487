#!/usr/bin/env node
// `npm test`: every test suite, then one closing line `N passed, N failed`.
//   1. vitest: the server project (SQLite, real SMTP, …) and the console project (jsdom + msw)
//   2. when TEST_POSTGRES_URL is set: the server project again against PostgreSQL
//   3. Playwright browser tests against `npm start`, in Debian's Chromium
// Browser tests need Chromium. Under CI (CI=true) a missing Chromium is a failure; on a
// developer machine it is reported loudly as skipped, never silently.
import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const resultsDir = join(root, 'test-results');
mkdirSync(resultsDir, { recursive: true });
const bin = (pkg, file) => join(root, 'node_modules', pkg, file);
const totals = { passed: 0, failed: 0, skipped: 0 };
const problems = [];

const timings = [];

// CPU time, to put each phase's wall clock beside the least it could take on this machine's
// cores. Linux adds a reaped child's CPU (and that of the children it reaped) to its parent's
// cutime/cstime in /proc/<pid>/stat: what the suites, their servers and browsers used. The
// PostgreSQL server is not our child (pg_ctl detaches it): its own counters are read from its
// postmaster, whose exited backends are in its cutime/cstime.
const TICKS_PER_SECOND = 100; // USER_HZ, 100 on every Linux architecture Node runs on
function cpuSeconds(pid, fields) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const after = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // field 3 onwards
    return fields.reduce((sum, field) => sum + Number(after[field - 3]), 0) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}
const childrenCpu = () => cpuSeconds('self', [16, 17]);
function postgresCpu() {
  const dataDir = process.env.TEST_POSTGRES_DATA;
  if (!dataDir) return 0;
  try {
    const pid = readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0].trim();
    return cpuSeconds(pid, [14, 15, 16, 17]);
  } catch {
    return 0;
  }
}
const cpuTimes = [];

function run(label, args, env = {}) {
  console.log(`\n=== ${label} ===`);
  const started = Date.now();
  const cpuBefore = childrenCpu() + postgresCpu();
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  timings.push([label, Math.round((Date.now() - started) / 1000)]);
  cpuTimes.push(Math.round(childrenCpu() + postgresCpu() - cpuBefore));
  return result.status ?? 1;
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}

function vitest(label, args, env) {
  const output = join(resultsDir, `${label.replace(/\W+/g, '-')}.json`);
  rmSync(output, { force: true });
  const status = run(label, [bin('vitest', 'vitest.mjs'), 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile=${output}`], env);
  const report = readJson(output);
  if (!report) {
    problems.push(`${label}: no report (exit ${status})`);
    totals.failed += 1;
    return;
  }
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests;
  totals.skipped += report.numPendingTests + report.numTodoTests;
  if (status !== 0 && report.numFailedTests === 0) {
    problems.push(`${label}: exit ${status} (a suite failed to load or an error escaped a test)`);
    totals.failed += 1;
  }
}

function playwright() {
  const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (!existsSync(chromium)) {
    const message = `browser tests: Chromium not found at ${chromium} (apt-get install chromium)`;
    if (process.env.CI) {
      problems.push(message);
      totals.failed += 1;
    } else {
      console.log(`\n!!! SKIPPED ${message}`);
      totals.skipped += 1;
    }
    return;
  }
  const output = join(resultsDir, 'playwright.json');
  rmSync(output, { force: true });
  const status = run('browser tests (Playwright, Chromium)', [bin('@playwright/test', 'cli.js'), 'test'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: output,
  });
  const report = readJson(output);
  if (!report) {
    problems.push(`browser tests: no report (exit ${status})`);
    totals.failed += 1;
    return;
  }
  const { expected = 0, unexpected = 0, flaky = 0, skipped = 0 } = report.stats ?? {};
  totals.passed += expected + flaky;
  totals.failed += unexpected;
  totals.skipped += skipped;
  if (status !== 0 && unexpected === 0) {
    problems.push(`browser tests: exit ${status} (see above)`);
    totals.failed += 1;
  }
}

const only = process.argv[2]; // optional: server | console | e2e
if (!only || only === 'server' || only === 'console') {
  // 'console*': the console's files run as two projects (vitest.config.ts).
  const projects = only === 'console' ? ['--project', 'console*'] : ['--project', only];
  vitest(only ? `vitest ${only}` : 'vitest (server on SQLite, console)', only ? projects : []);
}
if ((!only || only === 'server') && process.env.TEST_POSTGRES_URL) {
  vitest('vitest server on PostgreSQL', ['--project', 'server'], { DATABASE_URL: process.env.TEST_POSTGRES_URL });
}
if (!only || only === 'e2e') playwright();

// Each phase's wall-clock time: those .ci/run measured before (CI_PHASES, "name=seconds;…"), then
// each suite's, so that a slow phase shows at the end of the log.
const earlier = (process.env.CI_PHASES ?? '')
  .split(';')
  .filter(Boolean)
  .map((entry) => [entry.slice(0, entry.lastIndexOf('=')), Number(entry.slice(entry.lastIndexOf('=') + 1))]);
const phases = [...earlier, ...timings];
console.log('\nPhases (wall clock):');
for (const [label, seconds] of phases) console.log(`  ${label.padEnd(44)} ${String(seconds).padStart(5)} s`);
console.log(`  ${'total'.padEnd(44)} ${String(phases.reduce((sum, [, seconds]) => sum + seconds, 0)).padStart(5)} s`);
// The suites' CPU over the cores: no scheduling of the same work runs them faster than that.
const cores = availableParallelism();
const cpuTotal = cpuTimes.reduce((sum, seconds) => sum + seconds, 0);
console.log(`\nThe test suites' CPU time (processes and PostgreSQL), and its floor on ${cores} cores:`);
for (const [index, [label, seconds]] of timings.entries()) {
  console.log(`  ${label.padEnd(44)} ${String(cpuTimes[index]).padStart(5)} s CPU, ${String(seconds).padStart(5)} s wall, floor ${String(Math.round(cpuTimes[index] / cores)).padStart(5)} s`);
}
console.log(`  ${'suites'.padEnd(44)} ${String(cpuTotal).padStart(5)} s CPU, floor ${Math.round(cpuTotal / cores)} s`);
for (const problem of problems) console.log(`problem: ${problem}`);
const skipped = totals.skipped ? `, ${totals.skipped} skipped` : '';
console.log(`\n${totals.passed} passed, ${totals.failed} failed${skipped}`);
process.exit(totals.failed > 0 || totals.passed === 0 ? 1 : 0);
