import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { movableClock } from '../src/clock.js';
import { timestamp } from '../src/db/database.js';
import { createTestContext, type SignedInUser, type TestContext } from './helpers.js';
import { createWorld, insertTeam, insertWorkspace, type World } from './teamFixtures.js';
import { addUsage } from '../src/usage/accounting.js';

// The usage endpoints (docs/api-contract.md, "Usage"): a workspace's and a team's series, the
// platform's grouped usage for admins (JSON and CSV), over hour rows written here as the
// accounting pass would have written them.

const clock = movableClock('2030-03-15T10:30:00.000Z');
let ctx: TestContext;
let world: World;
let otherTeam: { id: number; name: string };
let second: { id: number; name: string };
let foreign: { id: number; name: string };
let hostile: SignedInUser;
const DELETED = 999_999;

const get = (url: string, token?: string, headers?: Record<string, string>) => ctx.inject('GET', url, { token, headers });
const zeroes = (series: { cpu_core_hours: number; memory_gib_hours: number }[]) => series.filter((bucket) => bucket.cpu_core_hours === 0 && bucket.memory_gib_hours === 0).length;

async function hour(workspaceId: number, teamId: number, hourStart: string, cpu: number, memory: number) {
  await addUsage(ctx.db, [{ workspace_id: workspaceId, team_id: teamId, hour_start: hourStart, cpu_core_hours: cpu, memory_gib_hours: memory }]);
}

async function createdBy(workspaceId: number, userId: number, teamId: number, name: string) {
  const now = timestamp();
  await ctx.db
    .insertInto('requests')
    .values({ type: 'CreateWorkspace', status: 'Approved', user_id: userId, team_id: teamId, workspace_id: workspaceId, object_name: name, dedupe_key: `usage-${workspaceId}`, data: '{}', message: null, decision_message: null, decided_by: userId, decided_at: now, created_at: now, updated_at: now })
    .execute();
}

beforeAll(async () => {
  ctx = await createTestContext({ clock });
  world = await createWorld(ctx);
  second = await insertWorkspace(ctx, world.team);
  otherTeam = await insertTeam(ctx);
  foreign = await insertWorkspace(ctx, otherTeam);
  hostile = await ctx.signedInUser({ firstname: '=HYPERLINK("http://x")', lastname: 'Sheet' });
  await createdBy(world.workspace.id, world.people.owner.user.id, world.team.id, world.workspace.name);
  await createdBy(foreign.id, hostile.user.id, otherTeam.id, foreign.name);
  const { id, team_id: team } = world.workspace;
  await hour(id, team, '2030-02-13T09:00:00.000Z', 100, 0);
  await hour(id, team, '2030-02-13T10:00:00.000Z', 1.2346, 2);
  await hour(id, team, '2030-03-15T10:00:00.000Z', 0.5, 1);
  await hour(id, team, '2030-03-15T11:00:00.000Z', 7, 0);
  await hour(second.id, team, '2030-03-01T05:00:00.000Z', 3, 4);
  await hour(second.id, team, '2030-03-01T06:00:00.000Z', 1, 0.0004);
  // A deleted workspace's hours stay with its team.
  await hour(DELETED, team, '2030-03-02T00:00:00.000Z', 10, 1);
  await hour(foreign.id, otherTeam.id, '2030-03-01T00:00:00.000Z', 2, 0.5);
});
afterAll(() => ctx?.close());

describe('a workspace’s usage', () => {
  it('answers the last 30 days by day, zero-filled, oldest first, counting the days the range touches whole', async () => {
    const response = await get(`/api/subnamespaces/${world.workspace.id}/usage`, world.people.wsMember.token);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body)).toEqual(['from', 'to', 'granularity', 'accounted_until', 'series', 'total']);
    // Now is 2030-03-15T10:30Z: 30 days back, widened to the first day's start and the last day's end.
    expect(body).toMatchObject({ from: '2030-02-13T00:00:00.000Z', to: '2030-03-16T00:00:00.000Z', granularity: 'day', accounted_until: null });
    expect(body.series).toHaveLength(31);
    // The first day whole: its 09:00 hour, before `from`'s time of day, counts too.
    expect(body.series[0]).toEqual({ start: '2030-02-13T00:00:00.000Z', cpu_core_hours: 101.235, memory_gib_hours: 2 });
    expect(body.series[1]).toEqual({ start: '2030-02-14T00:00:00.000Z', cpu_core_hours: 0, memory_gib_hours: 0 });
    expect(body.series[30]).toEqual({ start: '2030-03-15T00:00:00.000Z', cpu_core_hours: 7.5, memory_gib_hours: 1 });
    expect(zeroes(body.series)).toBe(29);
    expect(body.total).toEqual({ cpu_core_hours: 108.735, memory_gib_hours: 3 });
    // Per hour, the range is as asked: from the hour `from` falls in.
    const hours = (await get(`/api/subnamespaces/${world.workspace.id}/usage?granularity=hour&from=2030-02-13T10:30:00Z&to=2030-02-13T12:00:00Z`, world.people.wsMember.token)).json();
    expect(hours).toMatchObject({ from: '2030-02-13T10:30:00.000Z', to: '2030-02-13T12:00:00.000Z', total: { cpu_core_hours: 1.235, memory_gib_hours: 2 } });
  });

  it('says how far usage is accounted', async () => {
    await ctx.db.insertInto('usage_accounting').values({ id: 1, accounted_until: '2030-03-15T10:29:00.000Z' }).execute();
    try {
      expect((await get(`/api/subnamespaces/${world.workspace.id}/usage`, world.people.member.token)).json().accounted_until).toBe('2030-03-15T10:29:00.000Z');
    } finally {
      await ctx.db.deleteFrom('usage_accounting').execute();
    }
  });

  it('answers hours and months, rounded to 3 decimals', async () => {
    const hours = (await get(`/api/subnamespaces/${second.id}/usage?granularity=hour&from=2030-03-01T04:00:00Z&to=2030-03-01T08:00:00Z`, world.people.member.token)).json();
    expect(hours.series).toEqual([
      { start: '2030-03-01T04:00:00.000Z', cpu_core_hours: 0, memory_gib_hours: 0 },
      { start: '2030-03-01T05:00:00.000Z', cpu_core_hours: 3, memory_gib_hours: 4 },
      { start: '2030-03-01T06:00:00.000Z', cpu_core_hours: 1, memory_gib_hours: 0 },
      { start: '2030-03-01T07:00:00.000Z', cpu_core_hours: 0, memory_gib_hours: 0 },
    ]);
    expect(hours.total).toEqual({ cpu_core_hours: 4, memory_gib_hours: 4 });
    // A date `to` takes in its whole day.
    const months = (await get(`/api/subnamespaces/${world.workspace.id}/usage?granularity=month&from=2030-01-01&to=2030-03-31`, world.people.member.token)).json();
    expect(months).toMatchObject({ from: '2030-01-01T00:00:00.000Z', to: '2030-04-01T00:00:00.000Z', granularity: 'month' });
    expect(months.series).toEqual([
      { start: '2030-01-01T00:00:00.000Z', cpu_core_hours: 0, memory_gib_hours: 0 },
      { start: '2030-02-01T00:00:00.000Z', cpu_core_hours: 101.235, memory_gib_hours: 2 },
      { start: '2030-03-01T00:00:00.000Z', cpu_core_hours: 7.5, memory_gib_hours: 1 },
    ]);
  });

  it("is visible to the workspace's members, its team's members and platform admins only", async () => {
    const url = `/api/subnamespaces/${world.workspace.id}/usage`;
    expect((await get(url)).statusCode).toBe(401);
    const unverified = await ctx.createUser({ verified: false });
    expect((await get(url, await ctx.login(unverified.user.email))).statusCode).toBe(403);
    const refused = await get(url, world.people.outsider.token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe("Only the workspace's members, its team's members and platform admins can see its usage.");
    for (const person of [world.people.wsMember, world.people.member, world.people.admin]) expect((await get(url, person.token)).statusCode).toBe(200);
    expect((await get('/api/subnamespaces/987654/usage', world.people.admin.token)).statusCode).toBe(404);
  });
});

describe('a team’s usage', () => {
  it('sums its workspaces, deleted ones included, and lists each one biggest first', async () => {
    const response = await get(`/api/tenants/${world.team.id}/usage?granularity=month&from=2030-01-01&to=2030-03-31`, world.people.member.token);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body)).toEqual(['from', 'to', 'granularity', 'accounted_until', 'series', 'total', 'workspaces']);
    expect(body.series.map((bucket: { cpu_core_hours: number }) => bucket.cpu_core_hours)).toEqual([0, 101.235, 21.5]);
    expect(body.total).toEqual({ cpu_core_hours: 122.735, memory_gib_hours: 8 });
    expect(body.workspaces).toEqual([
      { id: world.workspace.id, name: world.workspace.name, label: world.workspace.label, cpu_core_hours: 108.735, memory_gib_hours: 3 },
      { id: DELETED, name: null, label: null, cpu_core_hours: 10, memory_gib_hours: 1 },
      { id: second.id, name: second.name, label: `Label ${second.name}`, cpu_core_hours: 4, memory_gib_hours: 4 },
    ]);
    // By name too, as the team page; a range with nothing in it lists every workspace at zero.
    const quiet = (await get(`/api/tenants/${world.team.name}/usage?from=2029-01-01&to=2029-01-31`, world.people.owner.token)).json();
    expect(quiet.series).toHaveLength(31);
    expect(quiet.total).toEqual({ cpu_core_hours: 0, memory_gib_hours: 0 });
    expect(quiet.workspaces.map((workspace: { id: number }) => workspace.id).sort()).toEqual([world.workspace.id, second.id].sort());
  });

  it('is for the team’s members and platform admins', async () => {
    const url = `/api/tenants/${world.team.id}/usage`;
    expect((await get(url)).statusCode).toBe(401);
    expect((await get(url, world.people.outsider.token)).statusCode).toBe(403);
    expect((await get(url, world.people.disabledManager.token)).statusCode).toBe(403);
    expect((await get(url, world.people.wsManager.token)).statusCode).toBe(200);
    expect((await get(url, world.people.admin.token)).statusCode).toBe(200);
    expect((await get('/api/tenants/no-such-team/usage', world.people.admin.token)).statusCode).toBe(404);
    const french = await get(url, world.people.outsider.token, { 'accept-language': 'fr' });
    expect(french.json().message).toBe('Seuls les membres de l’équipe et les administrateurs de la plateforme peuvent voir sa consommation.');
  });
});

describe('the platform’s usage', () => {
  const range = 'granularity=day&from=2030-03-01&to=2030-03-02';

  it('groups by team, workspace or person, one row per group and bucket with usage', async () => {
    const token = world.people.admin.token;
    const teams = (await get(`/api/admin/usage?group_by=team&${range}`, token)).json();
    expect(Object.keys(teams)).toEqual(['data', 'from', 'to', 'granularity', 'accounted_until']);
    expect(teams).toMatchObject({ from: '2030-03-01T00:00:00.000Z', to: '2030-03-03T00:00:00.000Z', granularity: 'day', accounted_until: null });
    expect(teams.data).toEqual([
      { id: world.team.id, name: world.team.name, start: '2030-03-01T00:00:00.000Z', cpu_core_hours: 4, memory_gib_hours: 4 },
      { id: otherTeam.id, name: otherTeam.name, start: '2030-03-01T00:00:00.000Z', cpu_core_hours: 2, memory_gib_hours: 0.5 },
      { id: world.team.id, name: world.team.name, start: '2030-03-02T00:00:00.000Z', cpu_core_hours: 10, memory_gib_hours: 1 },
    ]);
    // group_by defaults to team.
    expect((await get(`/api/admin/usage?${range}`, token)).json().data).toEqual(teams.data);
    const workspaces = (await get(`/api/admin/usage?group_by=workspace&${range}`, token)).json();
    expect(workspaces.data).toEqual([
      { id: second.id, name: second.name, start: '2030-03-01T00:00:00.000Z', cpu_core_hours: 4, memory_gib_hours: 4 },
      { id: foreign.id, name: foreign.name, start: '2030-03-01T00:00:00.000Z', cpu_core_hours: 2, memory_gib_hours: 0.5 },
      { id: DELETED, name: null, start: '2030-03-02T00:00:00.000Z', cpu_core_hours: 10, memory_gib_hours: 1 },
    ]);
    // A workspace's usage goes to whoever asked for it; the others (no request known) to nobody.
    const people = (await get('/api/admin/usage?group_by=user&granularity=month&from=2030-02-01&to=2030-03-31', token)).json();
    expect(people.data).toEqual([
      { id: world.people.owner.user.id, name: 'Olivia Owner', start: '2030-02-01T00:00:00.000Z', cpu_core_hours: 101.235, memory_gib_hours: 2 },
      { id: world.people.owner.user.id, name: 'Olivia Owner', start: '2030-03-01T00:00:00.000Z', cpu_core_hours: 7.5, memory_gib_hours: 1 },
      { id: hostile.user.id, name: '=HYPERLINK("http://x") Sheet', start: '2030-03-01T00:00:00.000Z', cpu_core_hours: 2, memory_gib_hours: 0.5 },
    ].sort((a, b) => a.start.localeCompare(b.start) || a.id - b.id));
  });

  it('answers CSV, formula-safe, at usage.csv and with format=csv', async () => {
    const query = 'group_by=user&granularity=month&from=2030-03-01&to=2030-03-31';
    const response = await get(`/api/admin/usage.csv?${query}`, world.people.admin.token);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="usage-by-user-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = response.body.trim().split('\r\n');
    expect(lines[0]).toBe('id,name,start,cpu_core_hours,memory_gib_hours');
    expect(lines).toContain(`${world.people.owner.user.id},Olivia Owner,2030-03-01T00:00:00.000Z,7.5,1`);
    expect(lines).toContain(`${hostile.user.id},"'=HYPERLINK(""http://x"") Sheet",2030-03-01T00:00:00.000Z,2,0.5`);
    const same = await get(`/api/admin/usage?${query}&format=csv`, world.people.admin.token);
    expect(same.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(same.body).toBe(response.body);
  });

  it('is for platform admins only', async () => {
    for (const url of [`/api/admin/usage?${range}`, `/api/admin/usage.csv?${range}`]) {
      expect((await get(url)).statusCode).toBe(401);
      expect((await get(url, world.people.owner.token)).statusCode).toBe(403);
    }
  });
});

describe('bad ranges and choices', () => {
  it.each([
    ['from=yesterday', 'from', 'The from field must be an ISO 8601 date (YYYY-MM-DD, or a date and time with a time zone).'],
    ['to=2030-02-30', 'to', 'The to field must be a valid date.'],
    ['from=2030-03-10&to=2030-03-01', 'to', 'The to date must not be before the from date.'],
    ['from=2029-01-01&to=2030-03-01', 'to', 'The range from from to to must not be longer than 400 days.'],
    ['from=2031-01-01', 'from', 'The from date must not be in the future.'],
    ['from=2028-01-01', 'from', 'The range from from to to must not be longer than 400 days.'],
    ['granularity=week', 'granularity', 'The granularity field must be hour, day or month.'],
  ])('422 for %s on every usage endpoint', async (query, field, message) => {
    for (const url of [`/api/subnamespaces/${world.workspace.id}/usage`, `/api/tenants/${world.team.id}/usage`, '/api/admin/usage', '/api/admin/usage.csv']) {
      const response = await get(`${url}?${query}`, world.people.admin.token);
      expect(response.statusCode, url).toBe(422);
      expect(response.json().errors, url).toEqual({ [field]: [message] });
    }
  });

  it('422 for a grouping or format not offered, in French too', async () => {
    const token = world.people.admin.token;
    expect((await get('/api/admin/usage?group_by=org', token)).json().errors).toEqual({ group_by: ['The group_by field must be team, workspace or user.'] });
    expect((await get('/api/admin/usage?format=xml', token)).json().errors).toEqual({ format: ['The format field must be json or csv.'] });
    const french = await get('/api/admin/usage?granularity=week&from=2030-02-30', token, { 'accept-language': 'fr' });
    expect(french.statusCode).toBe(422);
    expect(french.json().errors).toEqual({
      from: ['Le champ from doit être une date valide.'],
      granularity: ['Le champ granularity doit valoir hour, day ou month.'],
    });
  });
});
