import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filteredActivity } from '../src/admin/lists/activity.js';
import { filteredTeams } from '../src/admin/lists/teams.js';
import { filteredUsers } from '../src/admin/lists/users.js';
import { matches } from '../src/db/search.js';
import { dialectOf, timestamp } from '../src/db/database.js';
import type { Database } from '../src/db/schema.js';
import { createTestContext, type TestContext } from './helpers.js';
import { createWorld, insertTeam, insertWorkspace } from './teamFixtures.js';

// The admin lists' search (migration 0010, db/search.ts) on a real database: what it
// finds, and that the database answers it from the trigram indexes rather than a scan.

let ctx: TestContext;
let admin: string;
const tag = `q${process.pid}`;
const PEOPLE = 2000;

beforeAll(async () => {
  ctx = await createTestContext();
  admin = (await createWorld(ctx)).people.admin.token;
  const now = timestamp();
  for (let start = 0; start < PEOPLE; start += 500) {
    await ctx.db
      .insertInto('users')
      .values(
        Array.from({ length: 500 }, (_, offset) => {
          const n = start + offset;
          return {
            firstname: n === 7 ? 'Ada' : `Person${n}`,
            lastname: n === 7 ? 'Lovelace' : `Zzsearch${n % 50}`,
            email: `${tag}.${n}@search.example.org`,
            password_hash: 'not-a-real-hash',
            email_verified_at: now,
            aup_accepted_at: now,
            admin: 0,
            enabled: 1,
            authority: null,
            created_at: now,
            updated_at: now,
          };
        }),
      )
      .execute();
  }
  const team = await insertTeam(ctx, `${tag}team`);
  await ctx.db.updateTable('teams').set({ affiliation: 'Université Côte d’Azur' }).where('id', '=', team.id).execute();
  const workspace = await insertWorkspace(ctx, team, 'trigrams');
  await ctx.db.updateTable('workspaces').set({ label: `Label of ${tag}` }).where('id', '=', workspace.id).execute();
}, 120_000);
afterAll(() => ctx.close());

const get = (url: string) => ctx.inject('GET', url, { token: admin });
const emails = async (q: string) =>
  ((await get(`/api/admin/users?per_page=100&q=${encodeURIComponent(q)}`)).json() as { email: string }[]).map((user) => user.email);

describe('admin search', () => {
  it('finds a user by part of the name or email, in any case, across first and last name', async () => {
    expect(await emails('VELAC')).toEqual([`${tag}.7@search.example.org`]);
    expect(await emails('ada lov')).toEqual([`${tag}.7@search.example.org`]);
    expect(await emails(`${tag}.1999@`)).toEqual([`${tag}.1999@search.example.org`]);
    expect(await emails('zzsearch49')).toHaveLength(PEOPLE / 50);
    expect(await emails('nobody-at-all')).toEqual([]);
  });

  it('takes quotes and LIKE wildcards literally', async () => {
    expect(await emails('"ada')).toEqual([]);
    expect(await emails('%%%')).toEqual([]);
    expect(await emails('person_1')).toEqual([]);
    expect((await get('/api/admin/users?q=%22%20OR%20%22')).statusCode).toBe(200);
  });

  it('answers 1–2 characters with what starts with them', async () => {
    const found = await emails('Lo');
    expect(found).toContain(`${tag}.7@search.example.org`);
    const page = (await get('/api/admin/users?page=1&q=zz')).json();
    expect(page.meta.total).toBeGreaterThanOrEqual(PEOPLE - 1);
    expect(await emails('é')).toEqual([]);
  });

  it('finds teams by affiliation and workspaces by label or namespace', async () => {
    const teams = (await get('/api/admin/teams?q=te%20d%E2%80%99az')).json() as { name: string }[];
    expect(teams.map((team) => team.name)).toEqual([`${tag}team`]);
    const workspaces = (await get(`/api/admin/workspaces?q=label%20of%20${tag}`)).json() as { name: string }[];
    expect(workspaces.map((workspace) => workspace.name)).toEqual(['trigrams']);
    expect(((await get(`/api/admin/workspaces?q=${tag}team-trig`)).json() as unknown[]).length).toBe(1);
  });

  it('finds teams for pickers on GET /api/tenants?q (any signed-in person), at most `limit`', async () => {
    const found = (await get(`/api/tenants?q=${tag}te`)).json() as { name: string }[];
    expect(found.map((team) => team.name)).toEqual([`${tag}team`]);
    expect(((await get('/api/tenants?q=azur&limit=1')).json() as unknown[]).length).toBe(1);
    expect((await get('/api/tenants?q=x&limit=101')).statusCode).toBe(422);
    expect(((await get('/api/tenants')).json() as unknown[]).length).toBeGreaterThan(1);
  });

  it('filters the audit log by causer, subject, severity and dates, and searches causer and subject names', async () => {
    const ada = await ctx.db.selectFrom('users').select('id').where('lastname', '=', 'Lovelace').executeTakeFirstOrThrow();
    const team = await ctx.db.selectFrom('teams').select('id').where('name', '=', `${tag}team`).executeTakeFirstOrThrow();
    const entry = (day: string, description: string, severity: string, subject: { type: string; id: number } | null, causer: number | null = ada.id) => ({
      causer_id: causer,
      description,
      subject_type: subject?.type ?? null,
      subject_id: subject?.id ?? null,
      properties: JSON.stringify({ severity }),
      created_at: `${day}T12:00:00.000Z`,
    });
    await ctx.db
      .insertInto('activity_log')
      .values([
        entry('2020-01-10', `${tag} quota raised`, 'info', { type: 'team', id: team.id }),
        entry('2020-02-10', `${tag} failed twice`, 'warning', { type: 'user', id: ada.id }),
        entry('2020-03-10', `${tag} by nobody`, 'error', { type: 'team', id: team.id }, null),
      ])
      .execute();
    const descriptions = async (query: string) =>
      ((await get(`/api/admin/activity?per_page=100&${query}`)).json() as { description: string }[]).map((row) => row.description).filter((text) => text.startsWith(tag));
    expect(await descriptions(`filter[causer_id]=${ada.id}&q=${tag}`)).toEqual([`${tag} failed twice`, `${tag} quota raised`]);
    expect(await descriptions(`filter[subject_type]=team&filter[subject_id]=${team.id}`)).toEqual([`${tag} by nobody`, `${tag} quota raised`]);
    expect(await descriptions(`filter[severity]=warning&q=${tag}`)).toEqual([`${tag} failed twice`]);
    expect(await descriptions('filter[from]=2020-02-01&filter[to]=2020-03-10')).toEqual([`${tag} by nobody`, `${tag} failed twice`]);
    expect(await descriptions('filter[from]=2020-01-10T12:00:00Z&filter[to]=2020-02-10T11:59:59Z')).toEqual([`${tag} quota raised`]);
    // Free text reaches the causer's name and email and the subject's name.
    expect(await descriptions('q=lovelace')).toEqual([`${tag} failed twice`, `${tag} quota raised`]);
    expect(await descriptions('q=te%20d%E2%80%99azur')).toEqual([`${tag} by nobody`, `${tag} quota raised`]);
    const csv = (await get(`/api/admin/activity.csv?filter[causer_id]=${ada.id}&filter[severity]=warning`)).body;
    expect(csv).toContain(`${tag} failed twice`);
    expect(csv).not.toContain(`${tag} quota raised`);
    for (const bad of ['filter[from]=yesterday', 'filter[to]=2020-02-30', 'filter[subject_id]=x', 'filter[from]=2020-01-01T10:00']) {
      const response = await get(`/api/admin/activity?${bad}`);
      expect(response.statusCode, bad).toBe(422);
      expect(response.json().errors).toBeDefined();
    }
  });

  it('follows renames and deletions (the SQLite index is kept by triggers)', async () => {
    const id = (await ctx.db.selectFrom('users').select('id').where('email', '=', `${tag}.8@search.example.org`).executeTakeFirstOrThrow()).id;
    await ctx.db.updateTable('users').set({ lastname: 'Hopperish', email: `${tag}.grace@search.example.org` }).where('id', '=', id).execute();
    expect(await emails('hopperis')).toEqual([`${tag}.grace@search.example.org`]);
    expect(await emails(`${tag}.8@`)).toEqual([]);
    await ctx.db.deleteFrom('users').where('id', '=', id).execute();
    expect(await emails('hopperis')).toEqual([]);
  });

  it('is answered from the trigram indexes, not by scanning', async () => {
    const plans = {
      users: await planOf(ctx.db, filteredUsers(ctx.db, { q: 'lovelace' }).select('id').compile()),
      teams: await planOf(ctx.db, filteredTeams(ctx.db, { q: 'azur' }).select('id').compile()),
      // The workspace alone: with a handful of rows PostgreSQL would rather start from the team join.
      workspaces: await planOf(ctx.db, ctx.db.selectFrom('workspaces as w').select('w.id').where(matches(ctx.db, 'workspaces', 'w', 'trigram')).compile()),
      activity: await planOf(ctx.db, filteredActivity(ctx.db, { q: 'signed' }).select('id').compile()),
    };
    if (dialectOf(ctx.db) === 'sqlite') {
      for (const [table, plan] of Object.entries(plans)) expect(plan).toMatch(new RegExp(`${table === 'activity' ? 'activity_log' : table}_fts VIRTUAL TABLE INDEX`));
    } else {
      expect(plans.users).toMatch(/users_(name|email)_trgm/);
      expect(plans.teams).toMatch(/teams_\w+_trgm/);
      expect(plans.workspaces).toMatch(/workspaces_\w+_trgm/);
      expect(plans.activity).toMatch(/activity_log_description_trgm/);
    }
    // Short queries: a range on the lower(col) indexes (SQLite), the trigram index (PostgreSQL).
    const short = await planOf(ctx.db, filteredUsers(ctx.db, { q: 'lo' }).select('id').compile());
    expect(short).toMatch(dialectOf(ctx.db) === 'sqlite' ? /users_(firstname|lastname|email)_lower_index/ : /users_(name|email)_trgm/);
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
