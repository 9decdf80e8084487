// `npm run bench -- floor` (issue 14): what the pinned stack costs before the console adds
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
import { median, table } from './report.js';
import { ROOT } from './server.js';

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
  /** The console's budget for the page this app stands for (issue 14). */
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

export async function runFloorBench(): Promise<void> {
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
