// `npm run bench -- floor`: what the pinned stack costs before the console adds
// anything, measured the way `npm run bench -- console` measures the console.
//
// Two smallest possible apps, written into a temporary directory and built with this project's
// node_modules and Vite settings (production react-router, lodash-es):
// - "react-admin home": <Admin> with a dashboard card and one lazily loaded resource list, no
//   i18n provider, no auth provider, a data provider answering empty lists: react-admin's layout,
//   app bar and menu and nothing of ours.
// - "MUI login": a card with two outlined text fields, a button and a link (react-dom and
//   @mui/material only: no react-admin, no router, no form library).
// Each is served gzip-compressed (level 9) and measured by Lighthouse's mobile preset with
// Debian's Chromium (BENCH_LIGHTHOUSE_RUNS runs, median); the JavaScript each page loaded is
// printed beside the console's own budgets, so the room the product has inside them is plain.
//
// Then memory (`-- floor memory`): the idle RSS of Node alone and with the pinned Kubernetes client
// loaded, as the server runs. Then the API's floor (`-- floor api`): a Fastify server with no
// plugin, no hook and no logger, answering from better-sqlite3 statements prepared once, on a
// database seeded as `npm run bench` seeds it (BENCH_USERS, 100,000 by default: the admin lists'
// scale; BENCH_ACTIVITY, 200,000), against the bare Node hello-world, interleaved as `npm run
// bench` does (BENCH_ROUNDS, BENCH_DURATION, BENCH_CONNECTIONS). Routes: a hello-world; the token
// check alone (the query every authenticated request runs); GET /user's two queries (the token,
// then the relations query the app's own code sends, for the seeded member with the most
// workspaces); the admin users list's three queries as the app runs them (token, cached count, page
// 1 by name with each person's teams and workspaces); the same list without the teams and
// workspaces; the activity filtered by the person with the most. No security headers,
// authorization, validation, translation, metrics or logging: what is left of each ratio is all the
// app could ever reach. Then the CSV export's memory (`-- floor export`, bench/floorExport.ts).
import { createServer } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { extname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import react from '@vitejs/plugin-react';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Result } from 'lighthouse';
import { build } from 'vite';
import type { Database } from '../server/src/db/schema.js';
import { prepareDatabase } from './database.js';
import { exportFloor } from './floorExport.js';
import { type LoadResult, runLoad } from './load.js';
import { median, spread, table } from './report.js';
import { ROOT, type Running, startBare } from './server.js';
import { spawn } from 'node:child_process';

const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];
const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);

const INDEX_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="description" content="The pinned stack's floor" />
    <title>Floor</title>
  </head>
  <body><div id="root"></div><script type="module" src="/src/main.tsx"></script></body>
</html>
`;

interface FloorApp {
  name: string;
  /** The console's weight budget for the page this app stands for. */
  budgetKb: number;
  budgetFor: string;
  files: Record<string, string>;
}

const APPS: FloorApp[] = [
  {
    name: 'react-admin home',
    budgetKb: 300,
    budgetFor: 'the logged-in home',
    files: {
      'src/main.tsx': `import { lazy } from 'react';
import { createRoot } from 'react-dom/client';
import { Admin, Resource, type DataProvider } from 'react-admin';
import { Card, CardContent, Typography } from '@mui/material';

const PostList = lazy(() => import('./PostList'));
const empty = () => Promise.resolve({ data: [], total: 0 });
const dataProvider = new Proxy({}, { get: () => empty }) as unknown as DataProvider;
const Dashboard = () => (
  <Card>
    <CardContent>
      <Typography variant="h5" component="h1">Welcome</Typography>
      <Typography>The smallest react-admin home: its layout, app bar and menu, and this card.</Typography>
    </CardContent>
  </Card>
);

createRoot(document.getElementById('root')!).render(
  <Admin dataProvider={dataProvider} dashboard={Dashboard} disableTelemetry>
    <Resource name="posts" list={PostList} />
  </Admin>,
);
`,
      'src/PostList.tsx': `import { ListGuesser } from 'react-admin';
export default function PostList() {
  return <ListGuesser />;
}
`,
    },
  },
  {
    name: 'MUI login',
    budgetKb: 150,
    budgetFor: 'a logged-out page',
    files: {
      'src/main.tsx': `import { createRoot } from 'react-dom/client';
import { Box, Button, Card, CardContent, Link, TextField, Typography } from '@mui/material';

const Login = () => (
  <Box component="main" sx={{ display: 'flex', justifyContent: 'center', p: 2 }}>
    <Card sx={{ width: 360 }}>
      <CardContent component="form" sx={{ display: 'grid', gap: 2 }} onSubmit={(event) => event.preventDefault()}>
        <Typography variant="h5" component="h1">Sign in</Typography>
        <TextField label="Email" type="email" required />
        <TextField label="Password" type="password" required />
        <Button type="submit" variant="contained">Log in</Button>
        <Link href="#forgot">Forgot your password?</Link>
      </CardContent>
    </Card>
  </Box>
);

createRoot(document.getElementById('root')!).render(<Login />);
`,
    },
  },
];

async function buildApp(app: FloorApp, dir: string): Promise<string> {
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'index.html'), INDEX_HTML);
  for (const [file, text] of Object.entries(app.files)) writeFileSync(join(dir, file), text);
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const outDir = join(dir, 'dist');
  await build({
    root: dir,
    configFile: false,
    logLevel: 'warn',
    plugins: [react()],
    resolve: {
      alias: [
        // As vite.config.ts does for the console.
        { find: /^react-router$/, replacement: join(ROOT, 'node_modules/react-router/dist/production/index.mjs') },
        { find: /^lodash\/(\w+)(\.js)?$/, replacement: 'lodash-es/$1.js' },
      ],
    },
    build: { outDir, emptyOutDir: true, chunkSizeWarningLimit: 5000 },
  });
  return outDir;
}

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.html': 'text/html; charset=utf-8' };

/** The built app, gzip level 9 as the console's precompressed files, hashed assets cached. */
async function serve(dist: string) {
  const server = createServer((req, res) => {
    let path = (req.url ?? '/').split('?')[0];
    if (path === '/' || !existsSync(join(dist, path))) path = '/index.html';
    const body = gzipSync(readFileSync(join(dist, path)), { level: 9 });
    res.writeHead(200, {
      'content-type': TYPES[extname(path)] ?? 'application/octet-stream',
      'content-encoding': 'gzip',
      'cache-control': path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => new Promise((resolve) => server.close(resolve)) };
}

interface Run {
  performance: number;
  lcpMs: number;
  tbtMs: number;
  jsGzip: number;
}

async function lighthouseMobile(url: string): Promise<Run> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS, logLevel: 'silent' });
  try {
    const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
    if (!result) throw new Error('Lighthouse returned nothing');
    const lhr: Result = result.lhr;
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const items = ((lhr.audits['network-requests']?.details as { items?: { resourceType?: string; transferSize?: number }[] }).items ?? []);
    return {
      performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? NaN,
      tbtMs: lhr.audits['total-blocking-time']?.numericValue ?? NaN,
      // Transfer size of the scripts: their gzip bytes plus a few hundred of headers.
      jsGzip: items.filter((item) => item.resourceType === 'Script').reduce((sum, item) => sum + (item.transferSize ?? 0), 0),
    };
  } finally {
    await chrome.kill();
  }
}

export async function runFloorBench(part = process.argv[3]): Promise<void> {
  if (part === undefined || part === 'console') await consoleFloor();
  if (part === undefined || part === 'memory') await memoryFloor();
  if (part === undefined || part === 'api') await apiFloor();
  if (part === undefined || part === 'export') await exportFloor();
}

// ---------------------------------------------------------------------------------------------
// Memory: an idle Node process as `npm start` runs the server (--max-semi-space-size=2), alone
// and with the pinned Kubernetes client loaded (what CLUSTER=sandbox and CLUSTER=kubernetes need:
// the gateway speaks to the cluster through it), after garbage collection.

const IDLE_RSS = `
const load = require('node:module').createRequire(process.env.FLOOR_ROOT + '/package.json');
(async () => {
  if (process.env.FLOOR_IMPORT) await import(load.resolve(process.env.FLOOR_IMPORT));
  await new Promise((resolve) => setTimeout(resolve, 1000));
  global.gc(); global.gc();
  await new Promise((resolve) => setTimeout(resolve, 500));
  console.log(process.memoryUsage().rss);
})();
`;

async function idleRss(importName?: string): Promise<number> {
  const child = spawn(process.execPath, ['--expose-gc', '--max-semi-space-size=2', '-e', IDLE_RSS], {
    env: { ...process.env, FLOOR_ROOT: ROOT, FLOOR_IMPORT: importName ?? '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout!.on('data', (data: Buffer) => (output += data.toString()));
  await new Promise<void>((resolve, reject) => child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`idle RSS probe exit ${code}`)))));
  return Number(output.trim());
}

async function memoryFloor(): Promise<void> {
  const runs = setting('BENCH_ROUNDS', 3);
  const bare: number[] = [];
  const kubernetes: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    bare.push(await idleRss());
    kubernetes.push(await idleRss('@kubernetes/client-node'));
  }
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
  console.log('');
  console.log(`Idle RSS after garbage collection (median of ${runs}):`);
  console.log(
    table(
      ['process', 'RSS', 'the goal it bounds'],
      [
        ['node, nothing loaded', mb(median(bare)), '≤ 100 MB without a cluster (idle goal)'],
        ['node with @kubernetes/client-node', mb(median(kubernetes)), '≤ 150 MB with the sandbox cluster (idle goal)'],
      ],
    ),
  );
}

async function consoleFloor(): Promise<void> {
  const workDir = mkdtempSync(join(os.tmpdir(), 'testbed-bench-floor-'));
  const rows: string[][] = [];
  try {
    for (const app of APPS) {
      console.log(`Building "${app.name}"…`);
      const dist = await buildApp(app, join(workDir, app.name.replace(/\W+/g, '-')));
      const server = await serve(dist);
      try {
        const runs: Run[] = [];
        for (let i = 0; i < RUNS; i += 1) {
          const run = await lighthouseMobile(server.url);
          console.log(`  run ${i + 1}: performance ${run.performance}, LCP ${Math.round(run.lcpMs)} ms, TBT ${Math.round(run.tbtMs)} ms, JS ${(run.jsGzip / 1000).toFixed(1)} kB`);
          runs.push(run);
        }
        const js = median(runs.map((run) => run.jsGzip)) / 1000;
        rows.push([
          app.name,
          `${js.toFixed(1)} kB`,
          `${app.budgetKb} kB (${app.budgetFor})`,
          `${(app.budgetKb - js).toFixed(1)} kB`,
          String(median(runs.map((run) => run.performance))),
          `${Math.round(median(runs.map((run) => run.lcpMs)))} / ${Math.round(median(runs.map((run) => run.tbtMs)))}`,
        ]);
      } finally {
        await server.close();
      }
    }
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
  console.log('');
  console.log(`The pinned stack's floor (Lighthouse mobile, median of ${RUNS}):`);
  console.log(table(['app', 'JS loaded (gzip)', "the console's budget", 'left for the product', 'mobile performance', 'LCP / TBT ms'], rows));
}

// ---------------------------------------------------------------------------------------------
// The API's floor

const setting = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};

/** The token query and the admin users list's, as the app's Kysely builders compile them. */
const TOKEN_SQL = `select "u".*, "t"."id" as "token_id", "t"."kind" as "token_kind", "t"."name" as "token_name", "t"."token_hash", "t"."abilities" as "token_abilities", "t"."last_used_at" as "token_last_used_at", "t"."expires_at" as "token_expires_at", "t"."created_at" as "token_created_at" from "access_tokens" as "t" inner join "users" as "u" on "u"."id" = "t"."user_id" where "t"."id" = ?`;
const COUNT_SQL = `select row_count from row_counts where table_name = 'users'`;
const RELATIONS_SQL = `(select coalesce(json_group_array(json_object('id', "agg"."id", 'name', "agg"."name", 'role', "agg"."role")), '[]') from (select "t"."id", "t"."name", "tm"."role" from "team_members" as "tm" inner join "teams" as "t" on "t"."id" = "tm"."team_id" where "tm"."user_id" = "users"."id" order by "t"."name") as agg) as "team_list", (select coalesce(json_group_array(json_object('id', "agg"."id", 'name', "agg"."name", 'role', "agg"."role")), '[]') from (select "w"."id", "w"."name", "wm"."role" from "workspace_members" as "wm" inner join "workspaces" as "w" on "w"."id" = "wm"."workspace_id" where "wm"."user_id" = "users"."id" order by "w"."name") as agg) as "workspace_list"`;
const PAGE_COLUMNS = `"id", "firstname", "lastname", "email", "admin", "enabled", "email_verified_at", "aup_accepted_at", "created_at"`;
const PAGE_SQL = `select ${PAGE_COLUMNS}, ${RELATIONS_SQL} from "users" order by "firstname" asc, "lastname" asc, "id" asc limit ? offset ?`;
const PLAIN_PAGE_SQL = `select ${PAGE_COLUMNS} from "users" order by "firstname" asc, "lastname" asc, "id" asc limit ? offset ?`;
/** The admin activity filtered by a person (page 1 of 50, its count, the causer's name). */
const ACTIVITY_PAGE_SQL = `select * from "activity_log" where "causer_id" = ? order by "created_at" desc, "id" desc limit ? offset ?`;
const ACTIVITY_COUNT_SQL = `select count(*) as "total" from "activity_log" where "causer_id" = ?`;
const CAUSER_SQL = `select "id", "firstname", "lastname" from "users" where "id" in (?)`;

/** The floor server: its own process, Fastify and better-sqlite3 from this project. */
const FLOOR_SERVER = `
const { createRequire } = require('node:module');
const load = createRequire(process.env.FLOOR_ROOT + '/package.json');
const Fastify = load('fastify');
const SQLite = load('better-sqlite3');
const db = new SQLite(process.env.FLOOR_DB);
db.pragma('journal_mode = WAL');
db.prepare("insert or replace into access_tokens (id, user_id, kind, name, token_hash, abilities, last_used_at, expires_at, created_at) values (999999999, ?, 'session', 'floor', 'x', '[\\"*\\"]', null, null, '2026-01-01T00:00:00.000Z')").run(Number(process.env.FLOOR_USER_ID));
const token = db.prepare(process.env.TOKEN_SQL);
const count = db.prepare(process.env.COUNT_SQL);
const page = db.prepare(process.env.PAGE_SQL);
const plainPage = db.prepare(process.env.PLAIN_PAGE_SQL);
const activityPage = db.prepare(process.env.ACTIVITY_PAGE_SQL);
const activityCount = db.prepare(process.env.ACTIVITY_COUNT_SQL);
const causer = db.prepare(process.env.CAUSER_SQL);
const userRelations = db.prepare(process.env.USER_SQL);
const userParameters = JSON.parse(process.env.USER_PARAMETERS);
// The person with the most entries, as the bench filters by.
const causerId = db.prepare('select causer_id from activity_log where causer_id is not null group by causer_id order by count(*) desc limit 1').get()?.causer_id ?? 1;
const app = Fastify({ logger: false });
app.get('/hello', async () => ({ ok: true }));
app.get('/token', async () => token.all([999999999])[0]);
app.get('/user', async () => {
  const [user] = token.all([999999999]);
  const relations = userRelations.get(userParameters);
  return { ...user, teams: JSON.parse(relations.teams), workspaces: JSON.parse(relations.workspaces), requests: JSON.parse(relations.requests) };
});
app.get('/users', async () => {
  token.all([999999999]);
  const total = count.get().row_count;
  const data = page.all([25, 0]).map(({ team_list, workspace_list, ...user }) => ({ ...user, teams: JSON.parse(team_list), workspaces: JSON.parse(workspace_list) }));
  return { data, meta: { total, current_page: 1, per_page: 25 } };
});
app.get('/users-plain', async () => {
  token.all([999999999]);
  const total = count.get().row_count;
  return { data: plainPage.all([25, 0]), meta: { total, current_page: 1, per_page: 25 } };
});
app.get('/activity', async () => {
  token.all([999999999]);
  const rows = activityPage.all([causerId, 50, 0]);
  const total = activityCount.get([causerId]).total;
  const [person] = causer.all([causerId]);
  const data = rows.map((row) => ({ ...row, properties: JSON.parse(row.properties ?? 'null'), causer: person }));
  return { data, meta: { total, current_page: 1, per_page: 50 } };
});
app.listen({ port: 0, host: '127.0.0.1' }).then((address) => console.log(address));
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
`;

/**
 * GET /user's second query (the person's teams, workspaces and requests) as the app builds it,
 * for the seeded member with the most workspaces: run once through the app's own code
 * (loadUserRelations) on a Kysely instance that records what it sends.
 */
async function userRelationsQuery(databaseFile: string): Promise<{ userId: number; sql: string; parameters: unknown[] }> {
  const [{ Kysely, SqliteDialect }, { default: SQLite }, { loadUserRelations }] = await Promise.all([
    import('kysely'),
    import('better-sqlite3'),
    import('../server/src/profile/presenter.js'),
  ]);
  const sent: { sql: string; parameters: readonly unknown[] }[] = [];
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: new SQLite(databaseFile) }), log: (event) => void sent.push(event.query) });
  try {
    const member = await db
      .selectFrom('workspace_members')
      .select('user_id')
      .groupBy('user_id')
      .orderBy((eb) => eb.fn.countAll(), 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    const user = await db.selectFrom('users').selectAll().where('id', '=', member.user_id).executeTakeFirstOrThrow();
    sent.length = 0;
    await loadUserRelations(db, user, { now: new Date(), warningDays: 30 });
    if (sent.length !== 1) throw new Error(`loadUserRelations sent ${sent.length} queries; the floor expects its one`);
    return { userId: user.id, sql: sent[0]!.sql, parameters: [...sent[0]!.parameters] };
  } finally {
    await db.destroy();
  }
}

async function startFloorServer(databaseFile: string): Promise<Running> {
  const user = await userRelationsQuery(databaseFile);
  const child = spawn(process.execPath, ['-e', FLOOR_SERVER], {
    env: {
      ...process.env,
      FLOOR_ROOT: ROOT,
      FLOOR_DB: databaseFile,
      FLOOR_USER_ID: String(user.userId),
      USER_SQL: user.sql,
      USER_PARAMETERS: JSON.stringify(user.parameters),
      TOKEN_SQL,
      COUNT_SQL,
      PAGE_SQL,
      PLAIN_PAGE_SQL,
      ACTIVITY_PAGE_SQL,
      ACTIVITY_COUNT_SQL,
      CAUSER_SQL,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (data: Buffer) => resolve(data.toString().trim()));
    child.once('exit', (code) => reject(new Error(`The floor server stopped (exit ${code})`)));
  });
  return {
    pid: child.pid!,
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

const ROUTES: { path: string; label: string; goal: string }[] = [
  { path: '/hello', label: 'Fastify hello-world (no plugin, no hook, no logger)', goal: '' },
  { path: '/token', label: 'the token check alone (one query)', goal: '' },
  { path: '/user', label: "GET /user's two queries: the token, the member's teams, workspaces and requests", goal: '≥ 0.4 (member pages)' },
  { path: '/users', label: 'admin users page 1 by name: token, count, page with teams and workspaces', goal: '≥ 0.2 (admin lists)' },
  { path: '/users-plain', label: 'the same page without teams and workspaces', goal: '' },
  { path: '/activity', label: 'admin activity filtered by a person: token, page of 50, count, causer', goal: '≥ 0.2 (admin lists)' },
];

async function apiFloor(): Promise<void> {
  const users = setting('BENCH_USERS', 100_000);
  const activity = setting('BENCH_ACTIVITY', 200_000);
  const rounds = setting('BENCH_ROUNDS', 3);
  const duration = setting('BENCH_DURATION', 3);
  const connections = setting('BENCH_CONNECTIONS', 50);
  const workDir = mkdtempSync(join(os.tmpdir(), 'testbed-bench-floor-api-'));
  // SQLite only: PostgreSQL's driver adds its own cost per query on top of these.
  const saved = process.env.DATABASE_URL;
  delete process.env.DATABASE_URL;
  const database = await prepareDatabase({ users, activity, storageDir: workDir, keep: false });
  if (saved !== undefined) process.env.DATABASE_URL = saved;
  const running: Running[] = [];
  try {
    const floor = await startFloorServer(database.url.replace(/^sqlite:/, ''));
    running.push(floor);
    const bare = await startBare();
    running.push(bare);
    const load = (url: string, seconds = duration): Promise<LoadResult> => runLoad({ url, connections, duration: seconds });
    for (const route of ROUTES) {
      const response = await fetch(`${floor.url}${route.path}`);
      if (!response.ok) throw new Error(`floor ${route.path} answered ${response.status}`);
    }
    console.log(`\nThe API's floor: SQLite, ${users} users, ${activity} activity entries; autocannon, ${connections} connections, ${duration} s per run, ${rounds} rounds, bare and floor interleaved`);
    await load(bare.url, 1);
    for (const route of ROUTES) await load(`${floor.url}${route.path}`, 1);
    const ratios = new Map<string, number[]>(ROUTES.map((route) => [route.path, []]));
    const rps = new Map<string, number[]>(ROUTES.map((route) => [route.path, []]));
    for (let round = 0; round < rounds; round += 1) {
      let before = await load(bare.url);
      const line = [`bare ${before.rps.toFixed(0)}`];
      for (const route of ROUTES) {
        const result = await load(`${floor.url}${route.path}`);
        const after = await load(bare.url);
        if (result.non2xx || result.errors) throw new Error(`floor ${route.path}: ${result.non2xx} non-2xx, ${result.errors} errors`);
        ratios.get(route.path)!.push(result.rps / ((before.rps + after.rps) / 2));
        rps.get(route.path)!.push(result.rps);
        line.push(`${route.path} ${result.rps.toFixed(0)}`, `bare ${after.rps.toFixed(0)}`);
        before = after;
      }
      console.log(`  round ${round + 1}: ${line.join(', ')}`);
    }
    console.log('');
    console.log(
      table(
        ['floor route', 'ratio to bare Node (min–max)', 'req/s', 'the goal it bounds'],
        ROUTES.map((route) => [
          route.label,
          `${median(ratios.get(route.path)!).toFixed(3)} (${spread(ratios.get(route.path)!, 3)})`,
          median(rps.get(route.path)!).toFixed(0),
          route.goal,
        ]),
      ),
    );
  } finally {
    for (const server of running.reverse()) await server.stop();
    await database.cleanup();
    rmSync(workDir, { recursive: true, force: true });
  }
}
