// The bench's database: a fresh one seeded with the seed command (an SQLite file in the temp
// directory, or a new PostgreSQL database next to DATABASE_URL's, dropped afterwards), or an
// already seeded one named by BENCH_REUSE_DB (an SQLite path or a postgres:// URL), kept.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { createDatabase } from '../server/src/db/database.js';
import { ROOT } from './server.js';

export interface BenchDatabase {
  url: string;
  dialect: 'sqlite' | 'postgres';
  /** Seeded by this run (else reused). */
  fresh: boolean;
  seedSeconds?: number;
  /** Drops the database (a fresh one, unless BENCH_KEEP_DB=1). */
  cleanup(): Promise<void>;
}

/** `npm run cli -- <args>` against `url`; answers its output, fails with it. */
export function cli(args: string[], url: string, storageDir: string, echo = false): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn('npm', ['run', '--silent', 'cli', '--', ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: url, STORAGE_DIR: storageDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const take = (data: Buffer) => {
      output += data.toString();
      if (echo) process.stdout.write(data);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolvePromise(output) : reject(new Error(`npm run cli -- ${args[0]} failed (${code}):\n${output}`)),
    );
  });
}

/**
 * An empty database of the bench's own: a new PostgreSQL database beside DATABASE_URL's when
 * that is postgres://, else an SQLite file in the temp directory; `cleanup` drops it.
 */
export async function createFreshDatabase(): Promise<{ url: string; dialect: 'sqlite' | 'postgres'; cleanup: () => Promise<void> }> {
  const base = process.env.DATABASE_URL ?? '';
  const name = `bench_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  if (/^postgres(ql)?:\/\//.test(base)) {
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const target = new URL(base);
    target.pathname = `/${name}`;
    const cleanup = async () => {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    };
    return { url: target.toString(), dialect: 'postgres', cleanup };
  }
  const file = join(tmpdir(), `testbed-${name}.sqlite`);
  const cleanup = async () => {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
  };
  return { url: `sqlite:${file}`, dialect: 'sqlite', cleanup };
}

export async function prepareDatabase(options: {
  users: number;
  activity: number;
  storageDir: string;
  keep: boolean;
}): Promise<BenchDatabase> {
  const reuse = process.env.BENCH_REUSE_DB;
  if (reuse) {
    const url = /^postgres(ql)?:\/\//.test(reuse) ? reuse : `sqlite:${resolve(reuse)}`;
    if (url.startsWith('sqlite:') && !existsSync(resolve(reuse))) throw new Error(`BENCH_REUSE_DB: no such file ${reuse}`);
    return { url, dialect: url.startsWith('sqlite:') ? 'sqlite' : 'postgres', fresh: false, cleanup: async () => {} };
  }

  const fresh = await createFreshDatabase();
  const { url } = fresh;
  let { cleanup } = fresh;
  const seedArgs = ['seed', '--users', String(options.users), '--teams', String(Math.ceil(options.users / 10)), '--activity', String(options.activity)];
  console.log(`Seeding a fresh database: npm run cli -- ${seedArgs.join(' ')}`);
  const started = Date.now();
  let seedSeconds: number;
  try {
    await cli(seedArgs, url, options.storageDir, true);
    seedSeconds = (Date.now() - started) / 1000;
    if (url.startsWith('postgres')) {
      // What autovacuum does within a minute or so of a bulk load: statistics for the planner
      // and the visibility map for index-only scans. Measuring before it ran would measure the seed.
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query('vacuum analyze');
      await client.end();
    }
  } catch (error) {
    await cleanup();
    throw error;
  }
  if (options.keep) {
    console.log(`BENCH_KEEP_DB=1: the database stays; run again with BENCH_REUSE_DB=${url.replace(/^sqlite:/, '')}`);
    cleanup = async () => {};
  }
  return { url, dialect: url.startsWith('sqlite:') ? 'sqlite' : 'postgres', fresh: true, seedSeconds, cleanup };
}

export interface Facts {
  users: number;
  activity: number;
  /** The person (not an admin) with the most activity entries, for the activity filtered by user. */
  causerId: number;
  /** Enabled people who are not admins, for the bulk disables (BULK_SIZE per round). */
  bulkIds: number[];
}

/** What the scenarios need from the database, read before the server starts. */
export async function readFacts(url: string, bulkCount: number, spared: number[] = []): Promise<Facts> {
  const db = createDatabase(url);
  try {
    const count = async (table: 'users' | 'activity_log') =>
      Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    // Among the seeded people: a reused database's earlier bench admins caused thousands (their bulk actions).
    const causer = await db
      .selectFrom('activity_log')
      .select(['causer_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('causer_id', 'in', db.selectFrom('users').select('id').where('admin', '=', 0))
      .groupBy('causer_id')
      .orderBy('n', 'desc')
      .limit(1)
      .executeTakeFirst();
    const ids = await db
      .selectFrom('users')
      .select('id')
      .where('admin', '=', 0)
      .where('enabled', '=', 1)
      .$if(spared.length > 0, (qb) => qb.where('id', 'not in', spared))
      .orderBy('id', 'desc')
      .limit(bulkCount)
      .execute();
    return { users: await count('users'), activity: await count('activity_log'), causerId: causer?.causer_id ?? 1, bulkIds: ids.map((row) => row.id) };
  } finally {
    await db.destroy();
  }
}

/** A platform admin made with `npm run cli -- user:create --admin --verified`. */
export async function createAdmin(url: string, storageDir: string): Promise<{ email: string; password: string }> {
  const email = `bench-admin-${Date.now().toString(36)}@example.org`;
  const password = `bench ${randomBytes(12).toString('base64url')} passphrase`;
  await cli(['user:create', '--email', email, '--password', password, '--firstname', 'Bench', '--lastname', 'Admin', '--admin', '--verified'], url, storageDir);
  return { email, password };
}
