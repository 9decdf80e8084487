// `npm run bench`: throughput of the API's hot paths, printed as ratios against a bare Node
// HTTP server answering a small JSON document, measured in the same run on the same machine
// (absolute numbers depend on the machine; the ratios are what to compare between commits).
// Every load loop is bounded by a request count; all traffic stays on 127.0.0.1.
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pino from 'pino';
import { buildApp } from '../server/src/app.js';
import { loadConfig } from '../server/src/config.js';
import { createDatabase } from '../server/src/db/database.js';
import { migrate } from '../server/src/db/migrate.js';
import { seedDatabase } from '../server/src/db/seed.js';
import { createMailer } from '../server/src/mail/mailer.js';
import { issueSession } from '../server/src/tokens/tokens.js';
import { createUser } from '../server/src/users/users.js';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 3000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
// At the issue's scale: BENCH_USERS=100000 BENCH_ACTIVITY=1000000 (the seed then takes minutes).
const SEEDED_USERS = Number(process.env.BENCH_USERS ?? 10_000);
const SEEDED_ACTIVITY = Number(process.env.BENCH_ACTIVITY ?? 20_000);

/** Sends REQUESTS GETs over CONNECTIONS keep-alive connections; answers requests per second. */
async function measure(url: string, headers: Record<string, string> = {}): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  let sent = 0;
  const one = () =>
    new Promise<void>((resolve, reject) => {
      http
        .get(url, { agent, headers: { Accept: 'application/json', ...headers } }, (res) => {
          if (res.statusCode !== 200) reject(new Error(`${url} answered ${res.statusCode}`));
          res.resume();
          res.on('end', resolve);
        })
        .on('error', reject);
    });
  const worker = async () => {
    while (sent < REQUESTS) {
      sent += 1;
      await one();
    }
  };
  await one(); // warm-up
  const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  agent.destroy();
  return REQUESTS / seconds;
}

async function main() {
  const workDir = mkdtempSync(join(tmpdir(), 'testbed-bench-'));
  const config = loadConfig(
    { STORAGE_DIR: workDir, RATE_LIMITS: 'off', DATABASE_URL: process.env.DATABASE_URL, STATIC_DIR: join(workDir, 'none') },
    { envFile: null },
  );
  // On PostgreSQL the benchmark works in a schema of its own and drops it afterwards.
  const postgres = config.databaseUrl.startsWith('postgres');
  const schema = `bench_${process.pid}`;
  const root = postgres ? createDatabase(config.databaseUrl) : undefined;
  if (root) await sql`create schema ${sql.id(schema)}`.execute(root);
  const db = createDatabase(config.databaseUrl, postgres ? { searchPath: schema } : {});
  await migrate(db);
  const logger = pino({ level: 'silent' });
  const app = await buildApp({ config, db, mailer: createMailer(config, logger), logger });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

  const admin = await createUser(db, { firstname: 'Bench', lastname: 'Admin', email: 'bench@example.org', password: 'bench-password-1', admin: true, verified: true });
  const { plainText } = await issueSession(db, admin.id);
  // The seed command's data (server/src/db/seed.ts): people, teams, workspaces, a year of activity.
  const seeded = await seedDatabase(db, { users: SEEDED_USERS, teams: Math.ceil(SEEDED_USERS / 10), activity: SEEDED_ACTIVITY, random: 12 });
  console.log(`seeded ${seeded.users} users, ${seeded.teams} teams, ${seeded.activity} activity entries in ${(seeded.milliseconds / 1000).toFixed(1)} s`);
  // A busy person, for the activity filtered by user.
  const causer = await db
    .selectFrom('activity_log')
    .select(['causer_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('causer_id', 'is not', null)
    .groupBy('causer_id')
    .orderBy('n', 'desc')
    .limit(1)
    .executeTakeFirst();

  const bare = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"ok":true}');
  });
  await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`;

  const auth = { Authorization: `Bearer ${plainText}` };
  const scenarios: Array<[string, string, Record<string, string>?]> = [
    ['GET /api/settings (no auth, no database)', `${base}/api/settings`],
    ['GET /user (token check + user with relations)', `${base}/user`, auth],
    ['GET /api/tokens', `${base}/api/tokens`, auth],
    [`GET /api/admin/users page 1 of ${SEEDED_USERS + 1}`, `${base}/api/admin/users?page=1&per_page=25`, auth],
    ['GET /api/admin/users page 300, sorted by email desc', `${base}/api/admin/users?page=300&per_page=25&sort=email&order=desc`, auth],
    ['GET /api/admin/users search q=kowalski', `${base}/api/admin/users?page=1&per_page=25&q=kowalski`, auth],
    ['GET /api/admin/users search q=ad (prefix)', `${base}/api/admin/users?page=1&per_page=25&q=ad`, auth],
    ['GET /api/admin/users filter[enabled]=false', `${base}/api/admin/users?page=1&per_page=25&filter%5Benabled%5D=false`, auth],
    ['GET /api/admin/users sorted by created_at desc', `${base}/api/admin/users?page=1&per_page=25&sort=created_at&order=desc`, auth],
    ['GET /api/admin/teams page 1 (counts)', `${base}/api/admin/teams?page=1&per_page=25`, auth],
    [`GET /api/admin/activity page 1 of ${SEEDED_ACTIVITY}`, `${base}/api/admin/activity?page=1&per_page=50`, auth],
    [
      'GET /api/admin/activity filtered by user',
      `${base}/api/admin/activity?page=1&per_page=50&filter%5Bcauser_id%5D=${causer?.causer_id ?? 1}`,
      auth,
    ],
  ];

  const bareRate = await measure(bareUrl);
  console.log(`database: ${config.databaseUrl.split(':')[0]}, ${REQUESTS} requests per scenario over ${CONNECTIONS} connections`);
  console.log(`bare Node HTTP server: ${bareRate.toFixed(0)} req/s (ratio 1.00)`);
  for (const [label, url, headers] of scenarios) {
    const rate = await measure(url, headers);
    console.log(`${label}: ${rate.toFixed(0)} req/s, ratio ${(rate / bareRate).toFixed(3)} of bare`);
  }

  bare.close();
  await app.close();
  await db.destroy();
  if (root) {
    await sql`drop schema ${sql.id(schema)} cascade`.execute(root);
    await root.destroy();
  }
  rmSync(workDir, { recursive: true, force: true });
}

await main();
