import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import { createDatabase } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
import type { Database } from '../../src/db/schema.js';
import { freePort } from './utilities.js';

// The test database: a temporary SQLite file, or a schema of its own on the PostgreSQL server
// named by DATABASE_URL (so that test files running in parallel never see each other's rows).

export interface TestDatabase {
  url: string;
  db: Kysely<Database>;
  drop(): Promise<void>;
}

const postgresUrl = () => (/^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '') ? process.env.DATABASE_URL : undefined);

export const usingPostgres = () => postgresUrl() !== undefined;

/** An empty, migrated database that `drop()` removes again. */
export async function createTestDatabase(workDir: string, options: { onQuery?: (sql: string) => void } = {}): Promise<TestDatabase> {
  const pgUrl = postgresUrl();
  if (pgUrl) {
    const schema = `test_${process.pid}_${randomBytes(4).toString('hex')}`;
    const admin = createDatabase(pgUrl);
    await sql`create schema ${sql.id(schema)}`.execute(admin);
    const db = createDatabase(pgUrl, { searchPath: schema, onQuery: options.onQuery });
    const drop = async () => {
      await db.destroy();
      await sql`drop schema ${sql.id(schema)} cascade`.execute(admin);
      await admin.destroy();
    };
    try {
      await migrate(db);
    } catch (error) {
      await drop();
      throw error;
    }
    return { url: pgUrl, db, drop };
  }
  const url = `sqlite:${join(workDir, 'test.sqlite')}`;
  const db = createDatabase(url, { onQuery: options.onQuery });
  await migrate(db);
  return { url, db, drop: () => db.destroy() };
}

/**
 * A PostgreSQL that is down: a loopback port nobody listens on, whatever DATABASE_URL says.
 * Every query fails as it would while the server restarts or fails over.
 */
export async function unreachableDatabase(): Promise<TestDatabase> {
  const url = `postgres://postgres@127.0.0.1:${await freePort()}/postgres`;
  const db = createDatabase(url);
  return { url, db, drop: () => db.destroy() };
}
