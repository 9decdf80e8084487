import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helpers.js';
import { createWorld, insertTeam, type World } from './teamFixtures.js';

// The users list's team filter: `filter[team_id]` on GET /api/admin/users, its CSV
// export, and `filter.team_id` of the bulk action answer the same people, the team's members
// (any role, a disabled membership included); platform admins only.

let ctx: TestContext;
let world: World;
const ids = (users: { id: number }[]) => users.map((user) => user.id).sort((a, b) => a - b);

beforeAll(async () => {
  ctx = await createTestContext();
  world = await createWorld(ctx);
}, 30_000);
afterAll(async () => {
  await ctx?.close();
});

const members = () => ids([world.people.owner.user, world.people.manager.user, world.people.member.user, world.people.wsManager.user, world.people.wsMember.user, world.people.disabledManager.user]);
const asAdmin = (method: 'GET' | 'POST', url: string, body?: unknown) => ctx.inject(method, url, { token: world.people.admin.token, body });

describe('filter[team_id] on the admin users list, its CSV and the bulk action', () => {
  it('lists the team members, any role, and nobody else; with other filters and q too', async () => {
    const list = await asAdmin('GET', `/api/admin/users?filter[team_id]=${world.team.id}&page=1&per_page=100`);
    expect(list.statusCode, list.body).toBe(200);
    expect(ids(list.json().data)).toEqual(members());
    expect(list.json().meta.total).toBe(members().length);
    expect(list.json().data.every((user: { teams: { id: number }[] }) => user.teams.some((team) => team.id === world.team.id))).toBe(true);

    const managers = await asAdmin('GET', `/api/admin/users?filter[team_id]=${world.team.id}&q=manu`);
    expect(ids(managers.json())).toEqual([world.people.manager.user.id]);
    const admins = await asAdmin('GET', `/api/admin/users?filter[team_id]=${world.team.id}&filter[admin]=true`);
    expect(admins.json()).toEqual([]);

    const empty = await insertTeam(ctx);
    expect((await asAdmin('GET', `/api/admin/users?filter[team_id]=${empty.id}`)).json()).toEqual([]);
    expect((await asAdmin('GET', '/api/admin/users?filter[team_id]=2147483647')).json()).toEqual([]);
  });

  it('exports the same people as CSV', async () => {
    const response = await asAdmin('GET', `/api/admin/users.csv?filter[team_id]=${world.team.id}`);
    expect(response.statusCode, response.body).toBe(200);
    const [header, ...rows] = parse(response.body) as string[][];
    const id = header!.indexOf('id');
    expect(rows.map((row) => Number(row[id]))).toEqual(members());
  });

  it('bulk by filter covers the same people (dry run changes nothing)', async () => {
    const response = await asAdmin('POST', '/api/admin/users/bulk', { filter: { team_id: world.team.id }, action: 'disable', dry_run: true });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().matched).toBe(members().length);
    expect(ids(response.json().results)).toEqual(members());
    const still = await ctx.db.selectFrom('users').select('enabled').where('id', 'in', members()).execute();
    expect(still.every((user) => user.enabled === 1)).toBe(true);
  });

  it('refuses a team_id that is not an id (422)', async () => {
    for (const path of ['/api/admin/users', '/api/admin/users.csv']) {
      for (const bad of ['abc', '-1', '1.5', '99999999999']) {
        const response = await asAdmin('GET', `${path}?filter[team_id]=${bad}`);
        expect(response.statusCode, `${path} ${bad}`).toBe(422);
        expect(Object.keys(response.json().errors)).toEqual(['filter[team_id]']);
      }
    }
    const bulk = await asAdmin('POST', '/api/admin/users/bulk', { filter: { team_id: 'abc' }, action: 'disable', dry_run: true });
    expect(bulk.statusCode).toBe(422);
  });

  it('is for platform admins only: 403 for the team owner, a manager, a member and an outsider; 401 anonymous', async () => {
    const urls = [`/api/admin/users?filter[team_id]=${world.team.id}`, `/api/admin/users.csv?filter[team_id]=${world.team.id}`];
    const { owner, manager, member, outsider } = world.people;
    for (const person of [owner, manager, member, outsider]) {
      for (const url of urls) expect((await ctx.inject('GET', url, { token: person.token })).statusCode, url).toBe(403);
      const bulk = await ctx.inject('POST', '/api/admin/users/bulk', { token: person.token, body: { filter: { team_id: world.team.id }, action: 'disable', dry_run: true } });
      expect(bulk.statusCode).toBe(403);
    }
    for (const url of urls) expect((await ctx.inject('GET', url)).statusCode).toBe(401);
  });
});
