#!/usr/bin/env node
// `npm test`: every test suite, then one closing line `N passed, N failed`.
//   1. vitest: the server project (SQLite, real SMTP, …) and the console project (jsdom + msw)
//   2. when TEST_POSTGRES_URL is set: the server project again against PostgreSQL
//   3. Playwright browser tests against `npm start`, in Debian's Chromium
// Browser tests need Chromium. Under CI (CI=true) a missing Chromium is a failure; on a
// developer machine it is reported loudly as skipped, never silently.
import { spawnSync } from 'node:child_process';
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

function run(label, args, env = {}) {
  console.log(`\n=== ${label} ===`);
  const started = Date.now();
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  timings.push([label, Math.round((Date.now() - started) / 1000)]);
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
  vitest(only ? `vitest ${only}` : 'vitest (server on SQLite, console)', only ? ['--project', only] : []);
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
for (const problem of problems) console.log(`problem: ${problem}`);
const skipped = totals.skipped ? `, ${totals.skipped} skipped` : '';
console.log(`\n${totals.passed} passed, ${totals.failed} failed${skipped}`);
process.exit(totals.failed > 0 || totals.passed === 0 ? 1 : 0);
