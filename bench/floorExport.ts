// `npm run bench -- floor export`: the server RSS growth that reading every user in
// the CSV export's batches costs with nothing of the app around it, the floor under the goal
// "RSS growth < 50 MB during the export of 100,000 users".
//
// A Node process run as the server runs (scripts/server-node-flags.mjs) reads the users exactly as
// the export does: keyset batches of 1,000 by id, and for each batch the people's team and
// workspace memberships, with the database driver alone (pg or better-sqlite3; no Kysely, no
// presentation, no CSV, no HTTP). Each batch is dropped as soon as it is read, so nothing is
// held: what RSS gains is the garbage the driver makes, collected when V8 chooses to.
// BENCH_ROUNDS rounds (3) in one process, as the server exports again; the database is seeded
// as `npm run bench` seeds it (BENCH_USERS, 100,000) or named by BENCH_REUSE_DB, on PostgreSQL
// with DATABASE_URL=postgres://….
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { serverNodeFlags } from '../scripts/server-node-flags.mjs';
import { prepareDatabase } from './database.js';
import { mb, table } from './report.js';
import { ROOT } from './server.js';

const BATCH = 1000;

// The three queries of one export batch (server/src/admin/exports.ts and presentUsers), in the
// driver's own placeholders.
const READ_ALL = `
const load = require('node:module').createRequire(process.env.FLOOR_ROOT + '/package.json');
const url = process.env.FLOOR_URL;
const batch = ${BATCH};
const rounds = Number(process.env.FLOOR_ROUNDS);
const users = 'select id, firstname, lastname, email, admin, enabled, email_verified_at, created_at from users where id > %1 order by id limit %2';
const teams = (n) => 'select tm.user_id, tm.role, t.id, t.name from team_members tm join teams t on t.id = tm.team_id where tm.user_id in (' + ids(n) + ') and tm.user_id between ' + range(n) + ' order by t.name';
const workspaces = (n) => 'select wm.user_id, wm.role, w.id, w.name from workspace_members wm join workspaces w on w.id = wm.workspace_id where wm.user_id in (' + ids(n) + ') and wm.user_id between ' + range(n) + ' order by w.name';
let ids;
let range;
(async () => {
  let query;
  if (url.startsWith('postgres')) {
    const pg = load('pg');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    ids = (n) => Array.from({ length: n }, (_, i) => '$' + (i + 1)).join(',');
    range = (n) => '$' + (n + 1) + ' and $' + (n + 2);
    query = async (text, values) => (await client.query(text.replace('%1', '$1').replace('%2', '$2'), values)).rows;
  } else {
    const sqlite = new (load('better-sqlite3'))(url.replace(/^sqlite:/, ''), { readonly: true });
    ids = (n) => Array.from({ length: n }, () => '?').join(',');
    range = () => '? and ?';
    query = async (text, values) => sqlite.prepare(text.replace('%1', '?').replace('%2', '?')).all(...values);
  }
  for (let round = 0; round < rounds; round += 1) {
    const before = process.memoryUsage().rss;
    let peak = before;
    const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
    const started = Date.now();
    let after = 0;
    let count = 0;
    for (;;) {
      const rows = await query(users, [after, batch]);
      const userIds = rows.map((row) => Number(row.id));
      if (userIds.length > 0) {
        // As the app does (withinRange): the batch's id range lets PostgreSQL walk the user_id index.
        const values = [...userIds, userIds[0], userIds[userIds.length - 1]];
        await Promise.all([query(teams(userIds.length), values), query(workspaces(userIds.length), values)]);
      }
      count += rows.length;
      if (rows.length < batch) break;
      after = userIds[userIds.length - 1];
    }
    clearInterval(sample);
    peak = Math.max(peak, process.memoryUsage().rss);
    console.log(JSON.stringify({ count, ms: Date.now() - started, before, growth: peak - before }));
  }
  process.exit(0);
})();
`;

interface Round {
  count: number;
  ms: number;
  before: number;
  growth: number;
}

function readAll(url: string, rounds: number): Promise<Round[]> {
  const child = spawn(process.execPath, [...serverNodeFlags, '-e', READ_ALL], {
    env: { ...process.env, FLOOR_ROOT: ROOT, FLOOR_URL: url, FLOOR_ROUNDS: String(rounds) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout!.on('data', (data: Buffer) => (output += data.toString()));
  return new Promise((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0 ? resolve(output.trim().split('\n').map((line) => JSON.parse(line) as Round)) : reject(new Error(`export floor probe exit ${code}`)),
    ),
  );
}

export async function exportFloor(): Promise<void> {
  const users = Number(process.env.BENCH_USERS ?? 100_000);
  const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
  const storageDir = mkdtempSync(join(os.tmpdir(), 'bench-floor-export-'));
  const database = await prepareDatabase({ users, activity: 1000, storageDir, keep: process.env.BENCH_KEEP_DB === '1' });
  try {
    const results = await readAll(database.url, rounds);
    console.log('');
    console.log(`Reading every user as the CSV export does, driver alone (${database.dialect}, batches of ${BATCH}, ${rounds} rounds in one process):`);
    console.log(
      table(
        ['round', 'users read', 'ms', 'RSS before', 'RSS growth (peak)'],
        results.map((round, index) => [String(index + 1), String(round.count), String(round.ms), mb(round.before), mb(round.growth)]),
      ),
    );
    console.log(`worst growth ${mb(Math.max(...results.map((round) => round.growth)))} (the export's goal: < 50.0 MB with presentation, CSV and HTTP on top)`);
  } finally {
    await database.cleanup();
    rmSync(storageDir, { recursive: true, force: true });
  }
}
