import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import type { Database } from '../src/db/schema.js';

// PostgreSQL: DATABASE_URL when it is one (the PostgreSQL pass of npm test), else
// TEST_POSTGRES_URL (.ci/run sets it for the SQLite pass too), so this runs in both passes.
const postgresUrl = [process.env.DATABASE_URL, process.env.TEST_POSTGRES_URL].find((url) => /^postgres(ql)?:\/\//.test(url ?? ''));
if (!postgresUrl && process.env.CI) throw new Error('postgresSchemas.test.ts needs PostgreSQL in CI: set TEST_POSTGRES_URL');
if (!postgresUrl) console.warn('\n*** SKIPPING the shared-server schema tests: no DATABASE_URL or TEST_POSTGRES_URL for PostgreSQL ***\n');

const schema = `schemas_${process.pid}_${randomBytes(3).toString('hex')}`;
let admin: Kysely<Database>;
let db: Kysely<Database>;

beforeAll(async () => {
  if (!postgresUrl) return;
  admin = createDatabase(postgresUrl);
  await sql`create schema ${sql.id(schema)}`.execute(admin);
  db = createDatabase(postgresUrl, { searchPath: schema });
  await migrate(db);
});
afterAll(async () => {
  if (!postgresUrl) return;
  await db.destroy();
  await sql`drop schema ${sql.id(schema)} cascade`.execute(admin);
  await admin.destroy();
});

// Several test files (and several databases on one server) share a PostgreSQL server, each in
// a schema of its own. Kysely's introspector looked at every schema, so a migration run while
// another schema was being dropped failed with "relation <other schema>.invitations does not
// exist" (seen on CI with two test workers). The console looks only at its own schema.
describe.runIf(postgresUrl)('a database sharing its PostgreSQL server', () => {
  const otherSchema = `other_${process.pid}_${Date.now()}`;
  afterAll(async () => {
    await sql`drop schema if exists ${sql.id(otherSchema)} cascade`.execute(db);
  });

  it('introspects only its own schema', async () => {
    await sql`create schema ${sql.id(otherSchema)}`.execute(db);
    await sql`create table ${sql.id(otherSchema)}.${sql.id('not_ours')} (id serial primary key)`.execute(db);
    const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
    expect(tables.map((table) => table.name)).toContain('kysely_migration');
    expect(tables.map((table) => table.name)).not.toContain('not_ours');
    expect(new Set(tables.map((table) => table.schema)).size).toBe(1);
    const users = tables.find((table) => table.name === 'users');
    expect(users?.columns.find((column) => column.name === 'id')).toMatchObject({ isAutoIncrementing: true, isNullable: false });
    expect(tables.find((table) => table.name === 'kysely_migration')).toBeDefined();
    expect((await db.introspection.getTables()).map((table) => table.name)).not.toContain('kysely_migration');
  });

  it('migrates while other schemas on the server are created and dropped', async () => {
    let churning = true;
    const churn = (async () => {
      for (let round = 0; churning; round++) {
        const churned = `${otherSchema}_${round}`;
        await sql`create schema ${sql.id(churned)}`.execute(db);
        for (const table of ['a', 'b', 'c', 'd']) {
          await sql`create table ${sql.id(churned)}.${sql.id(table)} (id serial primary key, name text)`.execute(db);
        }
        await sql`drop schema ${sql.id(churned)} cascade`.execute(db);
      }
    })();
    try {
      for (let run = 0; run < 40; run++) expect(await migrate(db)).toEqual([]);
    } finally {
      churning = false;
      await churn;
    }
  });
});
