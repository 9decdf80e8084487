import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectOf, isUniqueViolation, timestamp } from '../src/db/database.js';
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
