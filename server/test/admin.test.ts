import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timestamp } from '../src/db/database.js';
import { createTestContext, type TestContext } from './helpers.js';
import { createWorld, insertTeam, insertWorkspace, submit, type World } from './teamFixtures.js';
import { USERS_PER_TEAM_ROW } from '../src/admin/lists/teams.js';

let ctx: TestContext;
let world: World;
let admin: string;
const SEEDED = 3000;
const prefix = `seed${process.pid}`;

beforeAll(async () => {
  ctx = await createTestContext();
  world = await createWorld(ctx);
  admin = world.people.admin.token;

  // A few thousand users in batches, every tenth in a seeded team, every fifth disabled.
  const seededTeam = await insertTeam(ctx, `${prefix}team`);
  const seededWorkspace = await insertWorkspace(ctx, seededTeam, 'bulk');
  const now = timestamp();
  const ids: number[] = [];
  for (let start = 0; start < SEEDED; start += 500) {
    const rows = Array.from({ length: Math.min(500, SEEDED - start) }, (_, offset) => {
      const n = start + offset;
      return {
        firstname: `Seed${String(n).padStart(5, '0')}`,
        lastname: 'Bulk',
        email: `${prefix}.${n}@bulk.example.org`,
        password_hash: 'not-a-real-hash',
        email_verified_at: now,
        aup_accepted_at: now,
        admin: 0,
        enabled: n % 5 === 0 ? 0 : 1,
        authority: null,
        created_at: now,
        updated_at: now,
      };
    });
    ids.push(...(await ctx.db.insertInto('users').values(rows).returning('id').execute()).map((row) => row.id));
  }
  const members = ids.filter((_, index) => index % 10 === 0);
  for (let start = 0; start < members.length; start += 500) {
    const chunk = members.slice(start, start + 500);
    await ctx.db
      .insertInto('team_members')
      .values(chunk.map((userId) => ({ team_id: seededTeam.id, user_id: userId, role: 'member' as const, enabled: 1, created_at: now })))
      .execute();
    await ctx.db
      .insertInto('workspace_members')
      .values(chunk.map((userId) => ({ workspace_id: seededWorkspace.id, user_id: userId, role: 'member' as const, created_at: now })))
      .execute();
  }
}, 120_000);
afterAll(() => ctx.close());

const get = (url: string) => ctx.inject('GET', url, { token: admin });

describe('GET /api/admin/users', () => {
  it('paginates thousands of users with correct totals and relations', async () => {
    const response = await get(`/api/admin/users?page=2&per_page=100&q=${prefix}&sort=email`);
    expect(response.statusCode).toBe(200);
    const { data, meta } = response.json();
    expect(meta).toEqual({ current_page: 2, per_page: 100, total: SEEDED, last_page: SEEDED / 100 });
    expect(data).toHaveLength(100);
    const emails = data.map((user: { email: string }) => user.email);
    expect([...emails].sort()).toEqual(emails);
    for (const user of data) {
      const n = Number(/\.(\d+)@/.exec(user.email)![1]);
      expect(user.enabled).toBe(n % 5 !== 0);
      const member = { role: 'member', pivot: { role: 'member' } };
      expect(user.teams).toEqual(n % 10 === 0 ? [{ id: expect.any(Number), name: `${prefix}team`, ...member }] : []);
      expect(user.workspaces).toEqual(n % 10 === 0 ? [{ id: expect.any(Number), name: 'bulk', ...member }] : []);
      // The contract's alias names beside ours.
      expect(user.tenants).toEqual(user.teams);
      expect(user.sub_namespaces).toEqual(user.workspaces);
      expect(user.subnamespaces).toEqual(user.workspaces);
    }
  });

  it('filters, sorts both ways, and searches by name', async () => {
    const disabled = (await get(`/api/admin/users?page=1&q=${prefix}&filter[enabled]=false`)).json();
    expect(disabled.meta.total).toBe(SEEDED / 5);
    const admins = (await get('/api/admin/users?filter[admin]=1')).json();
    expect(admins.map((user: { id: number }) => user.id)).toContain(world.people.admin.user.id);
    expect(admins.every((user: { admin: boolean }) => user.admin)).toBe(true);
    const desc = (await get(`/api/admin/users?page=1&per_page=3&q=${prefix}&sort=name&order=desc`)).json();
    expect(desc.data.map((user: { name: string }) => user.name)).toEqual(['Seed02999 Bulk', 'Seed02998 Bulk', 'Seed02997 Bulk']);
    const byName = (await get('/api/admin/users?q=seed00042 bulk')).json();
    expect(byName.map((user: { name: string }) => user.name)).toEqual(['Seed00042 Bulk']);
    // LIKE wildcards are taken literally.
    expect((await get('/api/admin/users?q=%25')).json()).toEqual([]);
  });

  it('answers an array without page, with the members of the world', async () => {
    const response = await get(`/api/admin/users?q=${encodeURIComponent(world.people.owner.user.email)}`);
    expect(response.json()).toEqual([
      expect.objectContaining({
        id: world.people.owner.user.id,
        name: 'Olivia Owner',
        admin: false,
        enabled: true,
        teams: [{ id: world.team.id, name: world.team.name, role: 'owner', pivot: { role: 'owner' } }],
        tenants: [{ id: world.team.id, name: world.team.name, role: 'owner', pivot: { role: 'owner' } }],
        workspaces: [],
        sub_namespaces: [],
      }),
    ]);
  });

  it.each([
    'sort=password_hash',
    'sort=id;drop table users',
    'order=sideways',
    'per_page=101',
    'per_page=abc',
    'page=-1',
    'filter[admin]=maybe',
    'filter[enabled]=2',
    `q=${'x'.repeat(300)}`,
  ])('answers 422 for %s', async (query) => {
    const response = await get(`/api/admin/users?page=1&${query}`);
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toEqual(expect.any(String));
  });
});

describe('GET /api/admin/teams and /workspaces', () => {
  it('lists teams with member and workspace counts, as an array or a page', async () => {
    const teams = (await get('/api/admin/teams')).json();
    const team = teams.find((candidate: { id: number }) => candidate.id === world.team.id);
    const members = await ctx.db.selectFrom('team_members').select((eb) => eb.fn.countAll<number>().as('n')).where('team_id', '=', world.team.id).executeTakeFirstOrThrow();
    expect(team).toMatchObject({ member_count: Number(members.n), workspace_count: 1 });
    // Its members with their role (the specification's "users with role"), owners first.
    expect(team.users[0]).toMatchObject({ role: 'owner', pivot: { role: 'owner' } });
    expect(team.users).toHaveLength(Math.min(Number(members.n), USERS_PER_TEAM_ROW));
    expect(team.workspaces).toEqual([{ id: world.workspace.id, name: world.workspace.name }]);
    expect(team.sub_namespaces).toEqual(team.workspaces);
    expect(team.subnamespaces).toEqual(team.workspaces);
    const seeded = (await get(`/api/admin/teams?page=1&q=${prefix}`)).json();
    expect(seeded.meta.total).toBe(1);
    expect(seeded.data[0].member_count).toBe(SEEDED / 10);
    // Bounded: a big team's row carries its first members, not all of them.
    expect(seeded.data[0].users).toHaveLength(Math.min(SEEDED / 10, USERS_PER_TEAM_ROW));
    const roles = seeded.data[0].users.map((user: { role: string }) => user.role);
    expect(roles).toEqual([...roles].sort((a: string, b: string) => ['owner', 'manager', 'member'].indexOf(a) - ['owner', 'manager', 'member'].indexOf(b)));
    const sorted = (await get('/api/admin/teams?sort=fullname&order=desc')).json();
    const names = sorted.map((entry: { fullname: string }) => entry.fullname);
    expect(names).toEqual([...names].sort().reverse());
    expect((await get('/api/admin/teams?sort=shortname')).statusCode).toBe(422);
  });

  it('lists workspaces with their team and users, filtered by team', async () => {
    const response = await get(`/api/admin/workspaces?filter[team_id]=${world.team.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([
      expect.objectContaining({
        id: world.workspace.id,
        name: world.workspace.name,
        namespace: world.workspace.namespace,
        team: { id: world.team.id, name: world.team.name },
        tenant: { id: world.team.id, name: world.team.name },
        users: expect.arrayContaining([{ id: world.people.wsManager.user.id, name: 'Wes Wsmanager', role: 'manager', pivot: { role: 'manager' } }]),
      }),
    ]);
    expect((await get('/api/admin/workspaces?filter[team_id]=abc')).statusCode).toBe(422);
    expect((await get('/api/admin/workspaces?filter[team_id]=99999999999')).statusCode).toBe(422);
    const page = (await get('/api/admin/workspaces?page=1&per_page=1&q=bulk')).json();
    expect(page.meta).toMatchObject({ total: 1, last_page: 1 });
    expect(page.data[0].users).toHaveLength(SEEDED / 10);
  });
});

describe('GET /api/admin/activity', () => {
  it('lists entries newest first with causer and subject, filtered by severity and subject type', async () => {
    const requester = world.people.outsider;
    const request = (await submit(ctx, world, 'JoinTeam', requester.token)).json();
    await ctx.inject('PATCH', `/api/requests/${request.id}`, { token: world.people.owner.token, body: { action: 'deny' } });

    const all = (await get('/api/admin/activity?page=1&per_page=5')).json();
    const times = all.data.map((entry: { created_at: string }) => entry.created_at);
    expect([...times].sort().reverse()).toEqual(times);

    const warnings = (await get('/api/admin/activity?filter[severity]=warning&filter[subject_type]=request')).json();
    expect(warnings).toContainEqual(
      expect.objectContaining({
        description: 'request denied',
        causer: { id: world.people.owner.user.id, name: 'Olivia Owner' },
        subject: { id: request.id, name: `JoinTeam ${world.team.name}` },
        subject_type: 'request',
        properties: expect.objectContaining({ severity: 'warning', type: 'JoinTeam' }),
      }),
    );
    expect(warnings.every((entry: { properties: { severity: string } }) => entry.properties.severity === 'warning')).toBe(true);
    const searched = (await get('/api/admin/activity?q=REQUEST CREATED')).json();
    expect(searched.length).toBeGreaterThan(0);
    expect(searched.every((entry: { description: string }) => entry.description === 'request created')).toBe(true);
    expect((await get('/api/admin/activity?filter[severity]=fatal')).statusCode).toBe(422);
    expect((await get('/api/admin/activity?sort=causer_id')).statusCode).toBe(422);
  });
});
