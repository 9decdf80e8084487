#!/usr/bin/env node
// `npm test`: every test suite, then one closing line `N passed, N failed`.
//   1. vitest, the console project (jsdom + msw), on every core
//   2. Playwright browser tests against `npm start`, in Debian's Chromium, and beside them, one
//      worker each, vitest's server project on SQLite (real SMTP, …), then again on PostgreSQL
//      when TEST_POSTGRES_URL is set
// The browser tests spend most of their time waiting on one browser and one server, which leaves
// a core idle; the server suites use it, their output kept in test-results/*.log and printed
// once the browser tests are done, so the two logs do not interleave.
// Browser tests need Chromium. Under CI (CI=true) a missing Chromium is a failure; on a
// developer machine it is reported loudly as skipped, never silently; the suites then run one
// after the other on every core.
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const resultsDir = join(root, 'test-results');
mkdirSync(resultsDir, { recursive: true });
const bin = (pkg, file) => join(root, 'node_modules', pkg, file);
const totals = { passed: 0, failed: 0, skipped: 0 };
const problems = [];

const timings = [];
const startedAt = Date.now();

/**
 * Runs `args` with node and resolves to its exit status. In the foreground its output is the
 * terminal's; in the background it goes to `logFile`, printed by printLog when wanted.
 */
function run(label, args, env = {}, logFile = null) {
  if (!logFile) console.log(`\n=== ${label} ===`);
  const started = Date.now();
  const child = spawn(process.execPath, args, {
    cwd: root,
    stdio: logFile ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    env: { ...process.env, ...env },
  });
  if (logFile) {
    const log = createWriteStream(logFile);
    child.stdout.pipe(log);
    child.stderr.pipe(log);
  }
  return new Promise((resolve) => {
    child.on('close', (code) => {
      timings.push([label, Math.round((Date.now() - started) / 1000)]);
      resolve(code ?? 1);
    });
  });
}

function printLog(label, logFile) {
  console.log(`\n=== ${label} (ran beside the browser tests; its log: ${logFile}) ===`);
  process.stdout.write(readFileSync(logFile, 'utf8'));
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}

/** A vitest run, counted from its JSON report. `options.logFile`: run in the background. */
async function vitest(label, args, env, options = {}) {
  const output = join(resultsDir, `${label.replace(/\W+/g, '-')}.json`);
  rmSync(output, { force: true });
  const status = await run(label, [bin('vitest', 'vitest.mjs'), 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile=${output}`], env, options.logFile);
  return () => {
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
  };
}

const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

async function playwright() {
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
  const status = await run('browser tests (Playwright, Chromium)', [bin('@playwright/test', 'cli.js'), 'test'], {
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
const postgres = process.env.TEST_POSTGRES_URL;
const serverRuns = [
  ['vitest server on SQLite', { DATABASE_URL: '' }],
  ...(postgres ? [['vitest server on PostgreSQL', { DATABASE_URL: postgres }]] : []),
];

if (only === 'console' || only === 'server') {
  (await vitest(`vitest ${only}`, ['--project', only]))();
  if (only === 'server') for (const [label, env] of serverRuns.slice(1)) (await vitest(label, ['--project', 'server'], env))();
} else if (only === 'e2e') {
  await playwright();
} else {
  (await vitest('vitest console', ['--project', 'console']))();
  const beside = existsSync(chromium);
  // The server suites, one after the other: beside the browser tests on one worker, else alone.
  const serverSuites = (async () => {
    const reports = [];
    for (const [label, env] of serverRuns) {
      const logFile = beside ? join(resultsDir, `${label.replace(/\W+/g, '-')}.log`) : null;
      reports.push([label, logFile, await vitest(label, ['--project', 'server', ...(beside ? ['--maxWorkers=1'] : [])], env, { logFile })]);
    }
    return reports;
  })();
  if (beside) await playwright();
  for (const [label, logFile, count] of await serverSuites) {
    if (logFile) printLog(label, logFile);
    count();
  }
  if (!beside) await playwright();
}

// Each phase's wall-clock time: those .ci/run measured before (CI_PHASES, "name=seconds;…"), then
// each suite's, so that a slow phase shows at the end of the log.
const earlier = (process.env.CI_PHASES ?? '')
  .split(';')
  .filter(Boolean)
  .map((entry) => [entry.slice(0, entry.lastIndexOf('=')), Number(entry.slice(entry.lastIndexOf('=') + 1))]);
const phases = [...earlier, ...timings];
// The suites overlap, so the total is the clock's: the phases before, then this script's time.
const total = earlier.reduce((sum, [, seconds]) => sum + seconds, 0) + Math.round((Date.now() - startedAt) / 1000);
console.log('\nPhases (wall clock; the server suites run beside the browser tests, so the total is the clock\'s):');
for (const [label, seconds] of phases) console.log(`  ${label.padEnd(44)} ${String(seconds).padStart(5)} s`);
console.log(`  ${'total'.padEnd(44)} ${String(total).padStart(5)} s`);
for (const problem of problems) console.log(`problem: ${problem}`);
const skipped = totals.skipped ? `, ${totals.skipped} skipped` : '';
console.log(`\n${totals.passed} passed, ${totals.failed} failed${skipped}`);
process.exit(totals.failed > 0 || totals.passed === 0 ? 1 : 0);
