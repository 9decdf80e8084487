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
import { createMailer } from '../server/src/mail/mailer.js';
import { issueSession } from '../server/src/tokens/tokens.js';
import { createUser } from '../server/src/users/users.js';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 3000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const SEEDED_USERS = 10_000;

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
  const now = new Date().toISOString();
  for (let start = 0; start < SEEDED_USERS; start += 500) {
    const rows = Array.from({ length: Math.min(500, SEEDED_USERS - start) }, (_, i) => ({
      firstname: `First${start + i}`, lastname: `Last${start + i}`, email: `user${start + i}@bench.example.org`,
      password_hash: 'not-a-login', email_verified_at: now, aup_accepted_at: now, admin: 0, enabled: 1,
      authority: null, created_at: now, updated_at: now,
    }));
    await db.insertInto('users').values(rows).execute();
  }

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
    ['GET /api/admin/users search q=user99', `${base}/api/admin/users?page=1&per_page=25&q=user99`, auth],
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
