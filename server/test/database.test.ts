import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { createDatabase, dialectOf, isUniqueViolation, openConnections, PREPARED_STATEMENTS_KEPT, timestamp, withStatementCache } from '../src/db/database.js';
import { preparedQuery } from '../src/db/prepared.js';
import { migrate } from '../src/db/migrate.js';
import { migrations } from '../src/db/migrations/index.js';
import { createTestDatabase, type TestDatabase, usingPostgres } from './helpers.js';

let workDir: string;
let database: TestDatabase;
beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'testbed-console-db-'));
  database = await createTestDatabase(workDir);
});
afterAll(async () => {
  await database.drop();
  rmSync(workDir, { recursive: true, force: true });
});

async function insertUser(email: string) {
  const now = timestamp();
  return database.db
    .insertInto('users')
    .values({ firstname: 'A', lastname: 'B', email, password_hash: 'x', email_verified_at: null, aup_accepted_at: null, admin: 0, enabled: 1, authority: null, created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
}

const insertToken = (userId: number, kind: 'session' | 'personal', name: string) =>
  database.db
    .insertInto('access_tokens')
    .values({ user_id: userId, kind, name, token_hash: 'h', abilities: '["*"]', last_used_at: null, expires_at: null, created_at: timestamp() })
    .execute();

describe('the database', () => {
  it(`runs on ${usingPostgres() ? 'PostgreSQL' : 'SQLite'}`, () => {
    expect(dialectOf(database.db)).toBe(usingPostgres() ? 'postgres' : 'sqlite');
  });

  it('is fully migrated, and migrating again applies nothing', async () => {
    expect(await migrate(database.db)).toEqual([]);
    const tables = (await database.db.introspection.getTables()).map((table) => table.name);
    expect(tables).toEqual(expect.arrayContaining(['users', 'access_tokens', 'password_resets', 'activity_log']));
    expect(Object.keys(migrations)).toEqual([...Object.keys(migrations)].sort());
  });

  it('gives integer ids that count up', async () => {
    const first = await insertUser('ids-1@example.org');
    const second = await insertUser('ids-2@example.org');
    expect(typeof first.id).toBe('number');
    expect(second.id).toBeGreaterThan(first.id);
  });

  it('keeps emails unique, and says so in a way isUniqueViolation recognises', async () => {
    await insertUser('unique@example.org');
    const error = await insertUser('unique@example.org').catch((caught: unknown) => caught);
    expect(isUniqueViolation(error)).toBe(true);
    expect(isUniqueViolation(new Error('something else'))).toBe(false);
  });

  it('keeps personal token names unique per user, but not session names', async () => {
    const user = await insertUser('tokens@example.org');
    await insertToken(user.id, 'session', 'login');
    await insertToken(user.id, 'session', 'login');
    await insertToken(user.id, 'personal', 'cli');
    const error = await insertToken(user.id, 'personal', 'cli').catch((caught: unknown) => caught);
    expect(isUniqueViolation(error)).toBe(true);
  });

  it('removes tokens with their user and keeps activity with a null causer', async () => {
    const user = await insertUser('cascade@example.org');
    await insertToken(user.id, 'personal', 'gone');
    await database.db
      .insertInto('activity_log')
      .values({ causer_id: user.id, description: 'kept', subject_type: null, subject_id: null, properties: '{"severity":"info"}', created_at: timestamp() })
      .execute();
    await database.db.deleteFrom('users').where('id', '=', user.id).execute();

    const tokens = await database.db.selectFrom('access_tokens').select('id').where('user_id', '=', user.id).execute();
    expect(tokens).toEqual([]);
    const entry = await database.db.selectFrom('activity_log').selectAll().where('description', '=', 'kept').executeTakeFirstOrThrow();
    expect(entry.causer_id).toBeNull();
  });
});

describe('the connections a server opens at start', () => {
  it(usingPostgres() ? 'opens the whole pool at once (PostgreSQL)' : 'are its one database (SQLite)', async () => {
    if (usingPostgres()) {
      // A name of its own, so that the count is this pool's connections and no other test's.
      const name = `open_connections_${process.pid}`;
      const url = new URL(database.url);
      url.searchParams.set('application_name', name);
      const pool = createDatabase(url.toString(), { poolSize: 3 });
      try {
        await openConnections(pool, 3);
        const { rows } = await sql<{ n: string }>`select count(*) as n from pg_stat_activity where application_name = ${name}`.execute(database.db);
        expect(Number(rows[0]!.n)).toBe(3);
      } finally {
        await pool.destroy();
      }
    } else {
      await openConnections(database.db, 3);
      expect(await database.db.selectFrom('users').select('id').limit(1).execute()).toBeInstanceOf(Array);
    }
  });
});

describe('prepared statements are reused', () => {
  it('runs the same query text many times with different values', async () => {
    const users = await Promise.all(['reuse-a@example.org', 'reuse-b@example.org', 'reuse-c@example.org'].map(insertUser));
    for (let round = 0; round < 3; round += 1) {
      for (const user of users) {
        const found = await database.db.selectFrom('users').select(['id', 'email']).where('id', '=', user.id).executeTakeFirst();
        expect(found).toEqual({ id: user.id, email: user.email });
      }
    }
  });

  it(`prepares a query once per ${usingPostgres() ? 'connection (PostgreSQL)' : 'database (SQLite)'}`, async () => {
    const user = await insertUser('prepared-once@example.org');
    const query = () => database.db.selectFrom('users').select('email').where('id', '=', user.id).where('email', 'like', 'prepared-once%').executeTakeFirstOrThrow();
    if (usingPostgres()) {
      // One connection (a transaction) so pg_prepared_statements shows that connection's.
      await database.db.transaction().execute(async (trx) => {
        for (let i = 0; i < 3; i += 1) await trx.selectFrom('users').select('email').where('id', '=', user.id).where('email', 'like', 'prepared-once%').executeTakeFirstOrThrow();
        const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements where statement like ${'%prepared%'} or statement like ${'%"email" like $2%'}`.execute(trx);
        expect(rows.filter((row) => row.statement.includes('"email" like $2'))).toHaveLength(1);
      });
    } else {
      expect(await query()).toEqual({ email: 'prepared-once@example.org' });
      const sqlite = withStatementCache(new SQLite(':memory:'));
      sqlite.exec('create table t (n integer)');
      sqlite.exec('insert into t values (1), (2)');
      const first = sqlite.prepare('select n from t order by n');
      expect(sqlite.prepare('select n from t order by n')).toBe(first);
      // While `first` is iterated it is busy: the same text gets a statement of its own.
      const iterator = first.iterate();
      iterator.next();
      const during = sqlite.prepare('select n from t order by n');
      expect(during).not.toBe(first);
      expect(during.all()).toEqual([{ n: 1 }, { n: 2 }]);
      iterator.return?.();
      // Bounded: past PREPARED_STATEMENTS_KEPT texts, the least recently used is forgotten.
      for (let i = 0; i < PREPARED_STATEMENTS_KEPT; i += 1) sqlite.prepare(`select ${i} as n`);
      expect(sqlite.prepare('select n from t order by n')).not.toBe(first);
      sqlite.close();
    }
  });
});

describe('queries outside a transaction', () => {
  const later = <T>(promise: Promise<T>, ms: number) =>
    Promise.race([promise, new Promise<'still waiting'>((resolve) => setTimeout(() => resolve('still waiting'), ms))]);

  it('run while another caller holds a connection (on SQLite: on the connection itself, not through Kysely)', async () => {
    const user = await insertUser('direct-held@example.org');
    // Holding Kysely's one SQLite connection: a query through Kysely would wait for it forever.
    const answer = await later(
      database.db.connection().execute(() => database.db.selectFrom('users').select('email').where('id', '=', user.id).execute()),
      2000,
    );
    expect(answer).toEqual([{ email: 'direct-held@example.org' }]);
  });

  it('never see what an open transaction has not committed, and see it once it has', async () => {
    let inserted!: () => void;
    const insertedNow = new Promise<void>((resolve) => (inserted = resolve));
    let commit!: () => void;
    const committed = new Promise<void>((resolve) => (commit = resolve));
    const transaction = database.db.transaction().execute(async (trx) => {
      await trx.insertInto('users').values({ firstname: 'T', lastname: 'X', email: 'direct-uncommitted@example.org', password_hash: 'x', email_verified_at: null, aup_accepted_at: null, admin: 0, enabled: 1, authority: null, created_at: timestamp(), updated_at: timestamp() }).execute();
      inserted();
      await committed;
    });
    await insertedNow;
    const read = () => database.db.selectFrom('users').select('email').where('email', '=', 'direct-uncommitted@example.org').execute();
    // On SQLite the read waits for the transaction (one connection); on PostgreSQL it runs on
    // another connection and sees the data as it was.
    const during = await later(read(), 300);
    expect(during === 'still waiting' || during.length === 0).toBe(true);
    commit();
    await transaction;
    expect(await read()).toEqual([{ email: 'direct-uncommitted@example.org' }]);
  });

  it('answer writes as Kysely does: inserted id, rows changed, returned rows', async () => {
    const now = timestamp();
    const values = { firstname: 'W', lastname: 'R', password_hash: 'x', email_verified_at: null, aup_accepted_at: null, admin: 0, enabled: 1, authority: null, created_at: now, updated_at: now };
    const inserted = await database.db.insertInto('users').values({ ...values, email: 'direct-write@example.org' }).executeTakeFirstOrThrow();
    if (!usingPostgres()) expect(typeof inserted.insertId).toBe('bigint');
    const updated = await database.db.updateTable('users').set({ lastname: 'S' }).where('email', 'like', 'direct-write%').executeTakeFirstOrThrow();
    expect(updated.numUpdatedRows).toBe(1n);
    const returned = await database.db.updateTable('users').set({ lastname: 'T' }).where('email', '=', 'direct-write@example.org').returning(['email', 'lastname']).execute();
    expect(returned).toEqual([{ email: 'direct-write@example.org', lastname: 'T' }]);
  });
});

describe('preparedQuery', () => {
  it('builds once and runs with each call’s values, constants kept', async () => {
    const [a, b] = await Promise.all(['prepq-a@example.org', 'prepq-b@example.org'].map(insertUser));
    const byIdAndPattern = preparedQuery((db, id: number, pattern: string) =>
      db.selectFrom('users').select(['id', 'email']).where('id', '=', id).where('email', 'like', pattern).where('enabled', '=', 1),
    );
    expect(await byIdAndPattern.all(database.db, a.id, 'prepq-%')).toEqual([{ id: a.id, email: a.email }]);
    expect(await byIdAndPattern.first(database.db, b.id, 'prepq-%')).toEqual({ id: b.id, email: b.email });
    expect(await byIdAndPattern.first(database.db, b.id, 'nobody-%')).toBeUndefined();
  });

  it('refuses a builder that does not use an argument as a plain value', async () => {
    const computed = preparedQuery((db, id: number) => db.selectFrom('users').select('id').where('id', '=', Number(id) + 1));
    await expect(computed.all(database.db, 1)).rejects.toThrow(/not used as plain values/);
  });
});
