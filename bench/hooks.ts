// `npm run bench -- hooks`: what each of the app's per-request parts costs. The same small GET
// route is served by a bare Fastify server and by servers with the app's parts added one at a
// time, in buildApp's order (bench/hookLayers.ts, bench/hooksServer.ts), each in a process of its
// own run with the server's V8 flags; one more has them all but writes answers with zod's
// serialiser, the one the compiled serialiser replaced. Every request carries a valid bearer
// token (ignored until authentication is in place). Rounds interleave the servers; each part's
// cost is the difference of the medians of µs per request (one core serves: 1e6 / req/s).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serverNodeFlags } from '../scripts/server-node-flags.mjs';
import { createDatabase } from '../server/src/db/database.js';
import { migrate } from '../server/src/db/migrate.js';
import { issueSession } from '../server/src/tokens/tokens.js';
import { createUser } from '../server/src/users/users.js';
import { HOOK_LAYERS } from './hookLayers.js';
import { runLoad } from './load.js';
import { median, spread, table } from './report.js';
import { ROOT, type Running, stopChild } from './server.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const DURATION = Number(process.env.BENCH_DURATION ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);

interface Variant {
  label: string;
  env: Record<string, string>;
}

async function startHooksServer(env: Record<string, string>): Promise<Running> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...serverNodeFlags, join(ROOT, 'bench/hooksServer.ts')], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (data: Buffer) => resolve(data.toString().trim()));
    child.once('exit', (code) => reject(new Error(`A hooks server stopped (exit ${code})`)));
  });
  return { pid: child.pid!, url: `http://127.0.0.1:${port}/api/probe`, stop: () => stopChild(child) };
}

export async function runHooksBench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-hooks-'));
  const databaseUrl = `sqlite:${join(dir, 'db.sqlite')}`;
  const db = createDatabase(databaseUrl);
  await migrate(db);
  const user = await createUser(db, { firstname: 'Ada', lastname: 'Lovelace', email: 'ada@example.org', password: 'correct horse battery staple', verified: true });
  const { plainText } = await issueSession(db, user.id);
  await db.destroy();

  const variants: Variant[] = [
    { label: 'bare Fastify, the object through JSON.stringify', env: { HOOKS_LAYERS: '0' } },
    ...HOOK_LAYERS.map((layer, index) => ({ label: `+ ${layer.label}`, env: { HOOKS_LAYERS: String(index + 1) } })),
    { label: "all of them, answers written by zod's serialiser instead", env: { HOOKS_LAYERS: String(HOOK_LAYERS.length), HOOKS_ANSWERS: 'zod' } },
  ];
  const servers = await Promise.all(variants.map((variant) => startHooksServer({ ...variant.env, HOOKS_DATABASE_URL: databaseUrl })));
  const rps: number[][] = variants.map(() => []);
  try {
    const headers = { Authorization: `Bearer ${plainText}` };
    for (const server of servers) await runLoad({ url: server.url, headers, connections: CONNECTIONS, duration: 1 });
    for (let round = 0; round < ROUNDS; round++) {
      // Every other round in reverse order, so that no variant always runs after the same one.
      const order = variants.map((_, index) => index);
      if (round % 2) order.reverse();
      for (const index of order) {
        const result = await runLoad({ url: servers[index]!.url, headers, connections: CONNECTIONS, duration: DURATION });
        if (result.non2xx || result.errors) throw new Error(`${variants[index]!.label}: ${result.non2xx} answers other than 2xx, ${result.errors} errors`);
        rps[index]!.push(result.rps);
      }
      console.log(`round ${round + 1}/${ROUNDS} done`);
    }
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    rmSync(dir, { recursive: true, force: true });
  }

  const microseconds = rps.map((values) => 1e6 / median(values));
  const all = microseconds[HOOK_LAYERS.length]!;
  const rows = variants.map((variant, index) => {
    const cost = index === 0 ? '' : (microseconds[index]! - microseconds[index === variants.length - 1 ? HOOK_LAYERS.length : index - 1]!).toFixed(1);
    return [variant.label, Math.round(median(rps[index]!)).toLocaleString('en'), spread(rps[index]!, 0), microseconds[index]!.toFixed(1), cost];
  });
  console.log(`\nThe app's per-request parts, added one at a time (${ROUNDS} rounds, ${CONNECTIONS} connections, ${DURATION} s each):\n`);
  console.log(table(['server', 'req/s (median)', 'min–max', 'µs / request', 'µs the part adds'], rows));
  console.log(`\nAll parts: ${all.toFixed(1)} µs per request, of which the bare route ${microseconds[0]!.toFixed(1)} µs.`);
}
