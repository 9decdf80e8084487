import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countUsers, filteredUsers, listUsers, type UserFilters } from '../src/admin/lists/users.js';
import { dialectOf, timestamp } from '../src/db/database.js';
import type { Database } from '../src/db/schema.js';
import { createTestContext, type TestContext } from './helpers.js';
import { createWorld } from './teamFixtures.js';

// The users list's total (migration 0011, admin/lists/users.ts): read from the trigger-kept
// counter, from partial indexes, from the FTS table or by counting, it is always the number
// of rows the filters match; and the flag filters are answered from the partial indexes.

let ctx: TestContext;
let admin: string;
const tag = `c${process.pid}`;
const PEOPLE = 1200;

beforeAll(async () => {
  ctx = await createTestContext();
  admin = (await createWorld(ctx)).people.admin.token;
  const now = timestamp();
  for (let start = 0; start < PEOPLE; start += 400) {
    await ctx.db
      .insertInto('users')
      .values(
        Array.from({ length: 400 }, (_, offset) => {
          const n = start + offset;
          return {
            firstname: `Count${n}`,
            lastname: n % 3 === 0 ? 'Zzcounted' : 'Other',
            email: `${tag}.${n}@counts.example.org`,
            password_hash: 'not-a-real-hash',
            email_verified_at: n % 7 === 0 ? null : now,
            aup_accepted_at: n % 11 === 0 ? null : now,
            admin: n % 97 === 0 ? 1 : 0,
            enabled: n % 13 === 0 ? 0 : 1,
            authority: null,
            created_at: now,
            updated_at: now,
          };
        }),
      )
      .execute();
  }
}, 120_000);
afterAll(() => ctx.close());

const counted = async (filters: UserFilters) =>
  Number((await filteredUsers(ctx.db, filters).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
const counter = async () =>
  Number((await sql<{ row_count: number | string }>`select row_count from row_counts where table_name = 'users'`.execute(ctx.db)).rows[0]!.row_count);
const all = async () => Number((await ctx.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

const FILTERS: UserFilters[] = [
  {},
  { enabled: true },
  { enabled: false },
  { admin: true },
  { admin: false },
  { verified: true },
  { verified: false },
  { policy: true },
  { policy: false },
  { enabled: true, verified: false },
  { admin: false, policy: true },
  { q: 'zzcounted' },
  { q: 'zzcounted', enabled: false },
  { q: 'count12' },
  { q: 'zz' },
  { q: 'nobody-at-all' },
];

describe('the users list total', () => {
  it('is the number of matching rows, whichever way it is read', async () => {
    for (const filters of FILTERS) expect(await countUsers(ctx.db, filters), JSON.stringify(filters)).toBe(await counted(filters));
    expect(await countUsers(ctx.db, { q: 'zzcounted' })).toBe(PEOPLE / 3);
  });

  it('follows inserts and deletes of one row and of many (the counter is kept by triggers)', async () => {
    expect(await counter()).toBe(await all());
    const now = timestamp();
    const [one] = await ctx.db
      .insertInto('users')
      .values({ firstname: 'Single', lastname: 'Row', email: `${tag}.single@counts.example.org`, password_hash: 'x', admin: 0, enabled: 1, email_verified_at: null, aup_accepted_at: null, authority: null, created_at: now, updated_at: now })
      .returning('id')
      .execute();
    expect(await counter()).toBe(await all());
    await ctx.db.deleteFrom('users').where('id', '=', one!.id).execute();
    await ctx.db.deleteFrom('users').where('email', 'like', `${tag}.11%`).execute();
    expect(await counter()).toBe(await all());
    for (const filters of FILTERS) expect(await countUsers(ctx.db, filters), JSON.stringify(filters)).toBe(await counted(filters));
  });

  it('is what the paginator answers, with the page in the list order (search pages too)', async () => {
    for (const query of ['', '&filter[enabled]=false', '&filter[verified]=true', '&q=zzcounted', '&q=zzcounted&sort=email&order=desc', '&q=count1', '&q=count12']) {
      const response = await ctx.inject('GET', `/api/admin/users?page=2&per_page=10${query}`, { token: admin });
      expect(response.statusCode, query).toBe(200);
      const body = response.json() as { data: { id: number; email: string; name: string }[]; meta: { total: number } };
      const params = new URLSearchParams(query);
      const filters: UserFilters = {
        q: params.get('q') ?? undefined,
        enabled: params.has('filter[enabled]') ? params.get('filter[enabled]') === 'true' : undefined,
        verified: params.has('filter[verified]') ? params.get('filter[verified]') === 'true' : undefined,
      };
      expect(body.meta.total, query).toBe(await counted(filters));
      const sort = (params.get('sort') ?? 'name') as 'name' | 'email';
      const order = (params.get('order') ?? 'asc') as 'asc' | 'desc';
      // Every row, sorted by the database: the page must be its rows 11–20.
      const everything = await listUsers(ctx.db, { ...filters, sort, order, perPage: 100 });
      expect(body.data.map((user) => user.id), query).toEqual(everything.rows.slice(10, 20).map((user) => user.id));
    }
    const beyond = (await ctx.inject('GET', '/api/admin/users?page=1000&per_page=100&q=zzcounted', { token: admin })).json();
    expect(beyond.data).toEqual([]);
    expect(beyond.meta.total).toBe(await counted({ q: 'zzcounted' }));
  });

  it('answers flag filters from the partial indexes', async () => {
    const expected = { enabled: 'users_disabled_index', admin: 'users_admins_index', verified: 'users_unverified_index', policy: 'users_policy_pending_index' };
    const rare: Record<keyof typeof expected, boolean> = { enabled: false, admin: true, verified: false, policy: false };
    for (const [flag, index] of Object.entries(expected) as [keyof typeof expected, string][]) {
      const query = filteredUsers(ctx.db, { [flag]: rare[flag] });
      expect(await planOf(ctx.db, query.select((eb) => eb.fn.countAll().as('n')).compile()), flag).toContain(index);
      expect(await planOf(ctx.db, query.select('id').orderBy('firstname').orderBy('lastname').orderBy('id').limit(25).compile()), flag).toContain(index);
    }
  });

  it('keeps no GIN pending list on the searched tables (PostgreSQL), so updates never slow searches down', async () => {
    if (dialectOf(ctx.db) !== 'postgres') return;
    const { rows } = await sql<{ name: string; options: string[] | null }>`
      select c.relname as name, c.reloptions as options from pg_class c
      where c.relkind = 'i' and c.relname like '%\_trgm' and c.relnamespace = current_schema()::regnamespace
    `.execute(ctx.db);
    const searched = rows.filter((row) => !row.name.startsWith('activity_log'));
    expect(searched.length).toBeGreaterThan(0);
    for (const row of searched) expect(row.options ?? [], row.name).toContain('fastupdate=off');
  });
});

/** The plan of a query; on PostgreSQL with sequential scans off, as on a big table. */
async function planOf(db: Kysely<Database>, query: { sql: string; parameters: readonly unknown[] }): Promise<string> {
  if (dialectOf(db) === 'sqlite') {
    const { rows } = await db.executeQuery<{ detail: string }>({ ...query, sql: `explain query plan ${query.sql}`, query: query as never, queryId: { queryId: 'plan' } });
    return rows.map((row) => row.detail).join('\n');
  }
  return db.connection().execute(async (connection) => {
    await sql`set enable_seqscan = off`.execute(connection);
    try {
      const { rows } = await connection.executeQuery<{ 'QUERY PLAN': string }>({ ...query, sql: `explain ${query.sql}`, query: query as never, queryId: { queryId: 'plan' } });
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    } finally {
      await sql`reset enable_seqscan`.execute(connection);
    }
  });
}
