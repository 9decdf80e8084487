// `npm run bench -- console`: the console's weight and Lighthouse scores.
//
// Builds the console (npm run build), starts the server as `npm start` starts it (bench/server.ts:
// scripts/start.mjs, CLUSTER=none, RATE_LIMITS=off) on a fresh SQLite database in a temporary
// directory, creates a verified user who accepted the policy (npm run cli -- user:create
// --verified) and logs in through POST /login. Then Lighthouse (with Debian's /usr/bin/chromium,
// a fresh profile per run) on /login logged out and on the home (/) logged in: the bearer token
// is put in localStorage (httpClient.ts's TOKEN_KEY) before the measured navigation, which
// keeps storage (disableStorageReset) but starts with an empty cache. BENCH_LIGHTHOUSE_RUNS
// runs (3) per page and preset (mobile, desktop); the median is reported. Prints the scores,
// LCP and TBT, the JavaScript each page loaded (raw, gzip as served to a gzip-only client,
// and the transfer Chromium saw), then each weight and score goal as PASS or FAIL.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { lookup } from 'node:dns/promises';
import { request as httpRequest } from 'node:http';
import { type AddressInfo, createServer } from 'node:net';
import os from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig, type Flags, type Config, type Result } from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { cli } from './database.js';
import { type Goal, goalLine, median, table } from './report.js';
import { ROOT, startApp, tail } from './server.js';

const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];
const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
/** The console keeps its bearer token here (src/httpClient.ts). */
const TOKEN_KEY = 'authentication_token';
/** The console's start (not `console-shared`, which a logged-out screen may load). */
const CONSOLE_START = /\/assets\/console-[\w-]{8}\.js$/;

type Preset = 'mobile' | 'desktop';
type PageName = 'login' | 'home';

interface Script {
  url: string;
  raw: number;
  transfer: number;
}

interface Measure {
  performance: number;
  accessibility: number;
  bestPractices: number;
  lcpMs: number;
  tbtMs: number;
  scripts: Script[];
  failing: string[];
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} failed (${code})`))));
  });
}

/** Bytes on the wire for a client that accepts gzip only (the server's precompressed .gz). */
function gzipBytes(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: { 'accept-encoding': 'gzip' } }, (response) => {
      let size = 0;
      response.on('data', (chunk: Buffer) => (size += chunk.length));
      response.on('end', () => resolve(size));
      response.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function logIn(baseUrl: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${baseUrl}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const body = (await response.json()) as { token?: string };
  if (!response.ok || !body.token) throw new Error(`POST /login answered ${response.status}: ${JSON.stringify(body)}`);
  return body.token;
}

interface NetworkItem {
  url: string;
  resourceType?: string;
  statusCode?: number;
  transferSize?: number;
  resourceSize?: number;
}

/** Lighthouse now and then fails to record the trace (NO_NAVSTART on a busy machine): retried. */
/**
 * Avatars come from www.gravatar.com (the only third-party request). On a machine without
 * Internet access the request fails, which Chromium logs as a console error; Lighthouse then
 * blocks it instead (its own blockedUrlPatterns, whose errors it does not count).
 */
let offline = false;
export async function checkGravatar(): Promise<boolean> {
  try {
    await lookup('www.gravatar.com');
    offline = false;
  } catch {
    offline = true;
  }
  return !offline;
}

export async function measure(baseUrl: string, page: PageName, preset: Preset, token: string): Promise<Measure> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await measureOnce(baseUrl, page, preset, token);
    } catch (error) {
      if (attempt >= 3 || !String(error).includes('Lighthouse: ')) throw error;
      console.log(`  (${page} ${preset}: ${String(error).split('\n')[0]}; again)`);
    }
  }
}

async function measureOnce(baseUrl: string, page: PageName, preset: Preset, token: string): Promise<Measure> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS, logLevel: 'silent' });
  try {
    const flags: Flags = {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices'],
      blockedUrlPatterns: offline ? ['*://www.gravatar.com/*'] : [],
    };
    if (page === 'home') {
      // Put the token in before the navigation, from a same-origin URL that loads no script.
      const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
      const tab = await browser.newPage();
      await tab.goto(`${baseUrl}/api/settings`);
      // (A string: the bench is typechecked without the DOM library.)
      await tab.evaluate(`localStorage.setItem(${JSON.stringify(TOKEN_KEY)}, ${JSON.stringify(token)})`);
      await tab.close();
      await browser.disconnect();
      // Keep localStorage (the token); the HTTP cache is empty (a fresh profile, no script loaded).
      flags.disableStorageReset = true;
    }
    const config: Config | undefined = preset === 'desktop' ? desktopConfig : undefined;
    const url = page === 'login' ? `${baseUrl}/login` : `${baseUrl}/`;
    const result = await lighthouse(url, flags, config);
    if (!result) throw new Error('Lighthouse returned nothing');
    const lhr: Result = result.lhr;
    // BENCH_LIGHTHOUSE_REPORTS=dir: each run's full report, to see what an audit found.
    if (process.env.BENCH_LIGHTHOUSE_REPORTS) {
      mkdirSync(process.env.BENCH_LIGHTHOUSE_REPORTS, { recursive: true });
      writeFileSync(join(process.env.BENCH_LIGHTHOUSE_REPORTS, `${page}-${preset}-${Date.now()}.json`), JSON.stringify(lhr));
    }
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const items = ((lhr.audits['network-requests']?.details as { items?: NetworkItem[] } | undefined)?.items ?? []) as NetworkItem[];
    const scripts = items
      .filter((item) => item.resourceType === 'Script' && item.url.startsWith(baseUrl))
      .map((item) => ({ url: item.url, raw: item.resourceSize ?? 0, transfer: item.transferSize ?? 0 }));
    // The home must really be the logged-in home: the user loaded and the console's chunk run.
    const user = items.find((item) => new URL(item.url).pathname === '/user');
    // (`console-<hash>.js` holds the console's start: vite.chunks.ts.)
    const consoleChunk = scripts.some((script) => CONSOLE_START.test(script.url));
    if (page === 'home' && (!user || user.statusCode !== 200 || !consoleChunk)) {
      throw new Error(`The home was not measured logged in (GET /user ${user?.statusCode ?? 'not sent'}, console chunk ${consoleChunk ? 'loaded' : 'not loaded'})`);
    }
    if (page === 'login' && scripts.some((script) => CONSOLE_START.test(script.url))) {
      throw new Error('The login page loaded the console bundle');
    }
    const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
    const failing = Object.values(lhr.categories)
      .filter((category) => category.id !== 'performance')
      .flatMap((category) => category.auditRefs)
      .filter((ref) => ref.weight > 0)
      .map((ref) => lhr.audits[ref.id])
      .filter((audit) => audit && audit.score !== null && audit.score < 1 && audit.scoreDisplayMode === 'binary')
      .map((audit) => `${audit!.id}: ${audit!.title}`);
    return {
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
      lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? NaN,
      tbtMs: lhr.audits['total-blocking-time']?.numericValue ?? NaN,
      scripts,
      failing,
    };
  } finally {
    await chrome.kill();
  }
}

interface Summary {
  page: PageName;
  preset: Preset;
  runs: Measure[];
  performance: number;
  accessibility: number;
  bestPractices: number;
  lcpMs: number;
  tbtMs: number;
}

const summarise = (page: PageName, preset: Preset, runs: Measure[]): Summary => ({
  page,
  preset,
  runs,
  performance: median(runs.map((r) => r.performance)),
  accessibility: median(runs.map((r) => r.accessibility)),
  bestPractices: median(runs.map((r) => r.bestPractices)),
  lcpMs: median(runs.map((r) => r.lcpMs)),
  tbtMs: median(runs.map((r) => r.tbtMs)),
});

export async function runConsoleBench(): Promise<void> {
  console.log('Building the console (npm run build)…');
  await run('npm', ['run', 'build']);

  const workDir = mkdtempSync(join(os.tmpdir(), 'testbed-bench-console-'));
  const databaseUrl = `sqlite:${join(workDir, 'console.sqlite')}`;
  const logFile = join(workDir, 'server.log');
  // A real realtime port: with startApp's REVERB_PORT=0 the settings would advertise port 0, and
  // the console's failing WebSocket would be a console error (best practices).
  const reverbPort = await freePort();
  const app = await startApp(
    {
      DATABASE_URL: databaseUrl,
      STORAGE_DIR: workDir,
      STATIC_DIR: join(ROOT, 'dist'),
      RATE_LIMITS: 'off',
      CLUSTER: 'none',
      REVERB_PORT: String(reverbPort),
    },
    logFile,
  );
  try {
    const email = `bench-console-${Date.now().toString(36)}@example.org`;
    const password = 'bench console correct horse battery';
    await cli(['user:create', '--email', email, '--password', password, '--firstname', 'Bench', '--lastname', 'User', '--verified'], databaseUrl, workDir);
    const token = await logIn(app.url, email, password);
    console.log(`Server ${app.url} (SQLite in ${workDir}); Lighthouse ${RUNS} run(s) per page and preset, ${CHROMIUM}`);
    if (!(await checkGravatar())) console.log('www.gravatar.com does not resolve from here: Lighthouse blocks the avatar request (blockedUrlPatterns)');
    console.log('');

    const summaries: Summary[] = [];
    for (const preset of ['mobile', 'desktop'] as const) {
      for (const page of ['login', 'home'] as const) {
        const runs: Measure[] = [];
        for (let i = 0; i < RUNS; i += 1) {
          const result = await measure(app.url, page, preset, token);
          console.log(
            `  ${page} ${preset} run ${i + 1}: performance ${result.performance}, accessibility ${result.accessibility}, best practices ${result.bestPractices}, LCP ${Math.round(result.lcpMs)} ms, TBT ${Math.round(result.tbtMs)} ms`,
          );
          runs.push(result);
        }
        summaries.push(summarise(page, preset, runs));
      }
    }

    // The JavaScript each page loaded (the first mobile run; the set is the same in every run).
    const weights = new Map<PageName, { raw: number; gzip: number; transfer: number; files: number }>();
    for (const page of ['login', 'home'] as const) {
      const scripts = summaries.find((s) => s.page === page && s.preset === 'mobile')!.runs[0]!.scripts;
      let gzip = 0;
      for (const script of scripts) gzip += await gzipBytes(script.url);
      weights.set(page, {
        raw: scripts.reduce((sum, s) => sum + s.raw, 0),
        gzip,
        transfer: scripts.reduce((sum, s) => sum + s.transfer, 0),
        files: scripts.length,
      });
    }

    console.log('\nLighthouse (medians)');
    console.log(
      table(
        ['page', 'preset', 'performance', 'accessibility', 'best practices', 'LCP', 'TBT'],
        summaries.map((s) => [
          s.page === 'login' ? '/login' : '/ (home, logged in)',
          s.preset,
          `${s.performance} (${s.runs.map((r) => r.performance).join(', ')})`,
          String(s.accessibility),
          String(s.bestPractices),
          `${(s.lcpMs / 1000).toFixed(2)} s`,
          `${Math.round(s.tbtMs)} ms`,
        ]),
      ),
    );
    console.log('\nJavaScript loaded');
    console.log(
      table(
        ['page', 'files', 'raw', 'gzip', 'transferred (Chromium, br)'],
        [...weights].map(([page, w]) => [page === 'login' ? '/login' : '/ (home)', String(w.files), kB(w.raw), kB(w.gzip), kB(w.transfer)]),
      ),
    );
    const failing = new Set(summaries.flatMap((s) => s.runs.flatMap((r) => r.failing.map((f) => `${s.page} ${s.preset}: ${f}`))));
    if (failing.size) console.log(`\nFailing accessibility / best-practices audits:\n  ${[...failing].join('\n  ')}`);

    const goals: Goal[] = [];
    const loggedOut = weights.get('login')!;
    const home = weights.get('home')!;
    goals.push({ label: 'JS of a logged-out page (/login), gzip', target: '≤ 150 kB', measured: kB(loggedOut.gzip), pass: loggedOut.gzip <= 150_000 });
    goals.push({ label: 'JS of the logged-in home, gzip', target: '≤ 300 kB', measured: kB(home.gzip), pass: home.gzip <= 300_000 });
    for (const s of summaries) {
      const where = `${s.page === 'login' ? '/login' : 'home'} ${s.preset}`;
      // On a phone: the home ≥ 90 (react-admin's smallest home scores 95), a logged-out page
      // ≥ 95 (a bare MUI card scores 99); on a desktop, both ≥ 98.
      const target = s.preset === 'desktop' ? 98 : s.page === 'login' ? 95 : 90;
      goals.push({ label: `Lighthouse performance, ${where}`, target: `≥ ${target}`, measured: String(s.performance), pass: s.performance >= target });
      goals.push({ label: `Lighthouse accessibility, ${where}`, target: '100', measured: String(s.accessibility), pass: s.accessibility >= 100 });
      goals.push({ label: `Lighthouse best practices, ${where}`, target: '100', measured: String(s.bestPractices), pass: s.bestPractices >= 100 });
    }
    console.log('\nGoals (console weight and Lighthouse)');
    for (const goal of goals) console.log(goalLine(goal));
    if (goals.some((goal) => !goal.pass)) process.exitCode = 1;
  } catch (error) {
    console.error(`Server log (last lines):\n${tail(logFile)}`);
    throw error;
  } finally {
    await app.stop();
    rmSync(workDir, { recursive: true, force: true });
  }
}
