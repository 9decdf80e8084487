// Each scenario's floor: the same statements the app runs for one call, with the same
// parameters, answered by a bare Fastify server (bench/floorServer.mjs: no plugin, hook or
// logger; better-sqlite3 or pg, each statement prepared once). What is left between the app's
// throughput and its floor's is the app's own code around the queries (hooks, authorisation,
// validation, serialisation, logging); the floor is what no change to that code can exceed.
//
// The statements are recorded from the app's own code, not written out by hand: the app is built
// in this process on the bench's database with the database's onQuery hook, each scenario is
// called twice through inject(), and the second call's statements are kept (the first may write
// the token's last_used_at, at most once a minute, or fill a cache, which the steady state the
// bench measures does not repeat).
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { serverNodeFlags } from '../scripts/server-node-flags.mjs';
import { buildApp } from '../server/src/app.js';
import { loadConfig } from '../server/src/config/config.js';
import { createDatabase } from '../server/src/db/database.js';
import { createMailer } from '../server/src/mail/mailer.js';
import { ROOT, type Running, stopChild } from './server.js';

export interface Statement {
  sql: string;
  parameters: unknown[];
}

/** The statements of one steady-state call of each path, in the order the app ran them. */
export async function recordStatements(
  databaseUrl: string,
  storageDir: string,
  calls: { path: string; headers: Record<string, string> }[],
): Promise<Statement[][]> {
  let recording: Statement[] | null = null;
  const db = createDatabase(databaseUrl, {
    poolSize: 2,
    onQuery: (sql, parameters) => recording?.push({ sql, parameters: [...parameters] }),
  });
  const config = loadConfig({ DATABASE_URL: databaseUrl, STORAGE_DIR: storageDir, RATE_LIMITS: 'off', CLUSTER: 'none' }, { envFile: null });
  const logger = pino({ level: 'silent' });
  const app = await buildApp({ config, db, mailer: createMailer(config, logger), logger });
  try {
    const recorded: Statement[][] = [];
    for (const call of calls) {
      const request = { method: 'GET' as const, url: call.path, headers: { accept: 'application/json', ...call.headers } };
      const first = await app.inject(request);
      if (first.statusCode !== 200) throw new Error(`${call.path} answered ${first.statusCode}: ${first.body}`);
      const statements: Statement[] = [];
      recording = statements;
      const second = await app.inject(request);
      recording = null;
      if (second.statusCode !== 200) throw new Error(`${call.path} answered ${second.statusCode}: ${second.body}`);
      for (const statement of statements) {
        // The floor process reads them as JSON: a parameter JSON cannot carry would be replayed
        // as something else.
        for (const value of statement.parameters) {
          if (value !== null && !['string', 'number'].includes(typeof value)) throw new Error(`${call.path}: a parameter of type ${typeof value} in ${statement.sql}`);
        }
      }
      recorded.push(statements);
    }
    return recorded;
  } finally {
    await app.close();
    await db.destroy();
  }
}

/**
 * The floor server in a process of its own, run with the server's V8 flags; route /<n> replays
 * the statements of `routes[n]` and answers their rows as JSON. On PostgreSQL its pool has the
 * app's default size.
 */
export async function startFloor(databaseUrl: string, routes: Statement[][], workDir: string): Promise<Running> {
  const routesFile = join(workDir, 'floor-routes.json');
  writeFileSync(routesFile, JSON.stringify(routes));
  const child = spawn(process.execPath, [...serverNodeFlags, join(ROOT, 'bench', 'floorServer.mjs')], {
    cwd: ROOT,
    env: { ...process.env, FLOOR_DATABASE_URL: databaseUrl, FLOOR_ROUTES: routesFile },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (data: Buffer) => resolve(data.toString().trim()));
    child.once('exit', (code) => reject(new Error(`The floor server stopped (exit ${code})`)));
  });
  return { pid: child.pid!, url: `http://127.0.0.1:${port}`, stop: () => stopChild(child) };
}
