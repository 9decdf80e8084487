import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, movableClock } from '../src/clock.js';
import { timestamp } from '../src/db/database.js';
import type { NodeStatus, RequestType } from '../src/db/schema.js';
import { createTestContext, type SignedInUser, type TestContext, unique, uniqueEmail } from './helpers.js';
import { createWorld, insertTeam, insertWorkspace, type World } from './teamFixtures.js';
import { addUsage } from '../src/usage/accounting.js';

// GET /api/admin/dashboard (docs/api-contract.md, "Admin: dashboard"): every number from rows
// seeded here, read at the app's clock (moved here), and equal to the admin list it links to.
// The clock is years after the wall clock, so the sign-ins and token uses of the test's own
// people (at wall-clock time) fall outside every window.

const T0 = new Date('2030-03-15T10:30:00.000Z');
const clock = movableClock(T0);
const at = (ms: number) => new Date(T0.getTime() + ms).toISOString();
const HOUR = 3_600_000;

let ctx: TestContext;
let world: World;
let admin: SignedInUser;

beforeAll(async () => {
  ctx = await createTestContext({ clock });
  world = await createWorld(ctx);
  admin = world.people.admin;
}, 30_000);
afterAll(() => ctx?.close());
afterEach(() => clock.set(T0));

const get = (url: string, token: string | undefined = admin.token) => ctx.inject('GET', url, { token });
const dashboard = async () => {
  const response = await get('/api/admin/dashboard');
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};

async function person(name: string) {
  const now = timestamp();
  return ctx.db
    .insertInto('users')
    .values({ firstname: name, lastname: 'Seen', email: uniqueEmail(name), password_hash: 'x', email_verified_at: now, aup_accepted_at: now, admin: 0, enabled: 1, authority: null, locale: null, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
}

const tokenUsed = (userId: number, lastUsedAt: string) =>
  ctx.db
    .insertInto('access_tokens')
    .values({ user_id: userId, kind: 'session', name: 'login', token_hash: unique('hash'), abilities: '["*"]', last_used_at: lastUsedAt, expires_at: null, created_at: lastUsedAt })
    .execute();

const logged = (userId: number, description: string, createdAt: string) =>
  ctx.db.insertInto('activity_log').values({ causer_id: userId, description, subject_type: 'user', subject_id: userId, properties: '{"severity":"info"}', created_at: createdAt }).execute();

describe('GET /api/admin/dashboard: who may ask', () => {
  it('answers 401 anonymous and 403 to anyone but a platform admin', async () => {
    expect((await ctx.inject('GET', '/api/admin/dashboard')).statusCode).toBe(401);
    for (const somebody of [world.people.owner, world.people.manager, world.people.member, world.people.outsider]) {
      expect((await get('/api/admin/dashboard', somebody.token)).statusCode).toBe(403);
    }
  });
});

describe('active people', () => {
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    for (const name of ['token', 'login', 'logout', 'failed', 'both']) ids[name] = (await person(name)).id;
    await tokenUsed(ids.token!, at(-2 * HOUR));
    await logged(ids.login!, 'logged in', at(-3 * DAY_MS));
    await logged(ids.logout!, 'logged out', at(-20 * DAY_MS));
    // Someone else's failed attempt on this address, and a token last used long ago: not active.
    await logged(ids.failed!, 'failed login', at(-HOUR));
    await tokenUsed(ids.failed!, at(-40 * DAY_MS));
    await tokenUsed(ids.both!, at(-5 * DAY_MS));
    await logged(ids.both!, 'logged in', at(-HOUR));
  });

  const listed = async (days: number) => {
    const response = await get(`/api/admin/users?filter[active_within_days]=${days}&page=1&per_page=100`);
    expect(response.statusCode, response.body).toBe(200);
    return { total: response.json().meta.total as number, ids: (response.json().data as { id: number }[]).map((user) => user.id).sort((a, b) => a - b) };
  };
  const sorted = (...names: string[]) => names.map((name) => ids[name]!).sort((a, b) => a - b);

  it('counts people by token use and by sign-in or sign-out in the last day, week and month, each once', async () => {
    expect((await dashboard()).active_people).toEqual({ day: 2, week: 3, month: 4 });
    expect(await listed(1)).toEqual({ total: 2, ids: sorted('token', 'both') });
    expect(await listed(7)).toEqual({ total: 3, ids: sorted('token', 'login', 'both') });
    expect(await listed(30)).toEqual({ total: 4, ids: sorted('token', 'login', 'logout', 'both') });
  });

  it('follows the clock', async () => {
    clock.set(at(2 * DAY_MS));
    expect((await dashboard()).active_people).toEqual({ day: 0, week: 3, month: 4 });
    // Eleven days on, the sign-out of 20 days before is 31 days old.
    clock.set(at(11 * DAY_MS));
    expect((await dashboard()).active_people).toEqual({ day: 0, week: 0, month: 3 });
    expect(await listed(30)).toEqual({ total: 3, ids: sorted('token', 'login', 'both') });
    clock.set(at(30 * DAY_MS));
    expect((await dashboard()).active_people).toEqual({ day: 0, week: 0, month: 0 });
  });

  it('the CSV export and the bulk action take the same filter', async () => {
    const csv = await get('/api/admin/users.csv?filter[active_within_days]=7');
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.body.trim().split('\n')).toHaveLength(1 + 3);
    const bulk = await ctx.inject('POST', '/api/admin/users/bulk', { token: admin.token, body: { filter: { active_within_days: 7 }, action: 'disable', dry_run: true } });
    expect(bulk.statusCode, bulk.body).toBe(200);
    expect(bulk.json().matched).toBe(3);
  });

  it('refuses a window that is not a whole number of days from 1 to 3650 (422 on the field)', async () => {
    for (const bad of ['0', '-1', '1.5', 'abc', '3651']) {
      const response = await get(`/api/admin/users?filter[active_within_days]=${bad}`);
      expect(response.statusCode, bad).toBe(422);
      expect(Object.keys(response.json().errors)).toEqual(['filter[active_within_days]']);
    }
    const bulk = await ctx.inject('POST', '/api/admin/users/bulk', { token: admin.token, body: { filter: { active_within_days: 0 }, action: 'disable', dry_run: true } });
    expect(bulk.statusCode).toBe(422);
  });
});

describe('pending requests, nodes, expiry', () => {
  const request = (type: RequestType, status: 'Pending' | 'Approved') =>
    ctx.db
      .insertInto('requests')
      .values({ type, status, user_id: world.people.outsider.user.id, team_id: null, workspace_id: null, object_name: unique('r'), dedupe_key: unique('key'), data: '{}', message: null, decision_message: null, decided_by: null, decided_at: null, created_at: timestamp(), updated_at: timestamp() })
      .execute();

  const node = (status: NodeStatus, capacity: Record<string, string> | null, disabled = false) =>
    ctx.db
      .insertInto('nodes')
      .values({
        owner_id: null, name: unique('node'), type: 'x86-64', dhcp: 1, hostname: null, ipv4: null, ip_v6: null, notes: null, status,
        disabled_at: disabled ? timestamp() : null, secret_hash: unique('secret'), secret_salt: 'salt', claim_code: null, claim_code_expires_at: null,
        info: JSON.stringify(capacity ? { cluster: { capacity } } : {}), last_active_at: null, created_at: timestamp(), updated_at: timestamp(),
      })
      .execute();

  beforeAll(async () => {
    await request('JoinTeam', 'Pending');
    await request('JoinTeam', 'Pending');
    await request('CreateTeam', 'Pending');
    await request('CreateTeam', 'Approved');
    await node('ok', { cpu: '4', memory: '8Gi' });
    await node('warning', { cpu: '2500m', memory: '4096Mi' });
    await node('error', { cpu: '16', memory: '64Gi' });
    await node('ok', { cpu: '8', memory: '16Gi' }, true);
    await node('to install', null);
  });

  it('counts the pending requests per type, every type named', async () => {
    const { pending_requests } = await dashboard();
    expect(pending_requests.total).toBe(3);
    expect(pending_requests.by_type).toContainEqual({ type: 'JoinTeam', count: 2 });
    expect(pending_requests.by_type).toContainEqual({ type: 'CreateTeam', count: 1 });
    expect(pending_requests.by_type).toContainEqual({ type: 'RenewWorkspace', count: 0 });
    const list = await get('/api/requests?filter[status]=Pending&filter[type]=JoinTeam&page=1&per_page=10');
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().meta.total).toBe(2);
  });

  it('counts nodes per status as the admin list names them, and the Ready ones’ capacity in cores and GiB', async () => {
    const answer = await dashboard();
    expect(answer.nodes_by_status).toEqual([
      { status: 'disabled', count: 1 },
      { status: 'error', count: 1 },
      { status: 'ok', count: 1 },
      { status: 'to install', count: 1 },
      { status: 'warning', count: 1 },
    ]);
    expect(answer.capacity.contributed).toEqual({ nodes: 2, cpu: 6.5, memory: 12 });
  });

  it('counts the teams and workspaces ending within 30 days, as the lists’ filter does', async () => {
    const before = (await dashboard()).expiring_soon;
    const soon = await insertTeam(ctx);
    const later = await insertTeam(ctx);
    const ended = await insertTeam(ctx);
    await ctx.db.updateTable('teams').set({ expires_at: at(10 * DAY_MS) }).where('id', '=', soon.id).execute();
    await ctx.db.updateTable('teams').set({ expires_at: at(40 * DAY_MS) }).where('id', '=', later.id).execute();
    await ctx.db.updateTable('teams').set({ expires_at: at(-DAY_MS) }).where('id', '=', ended.id).execute();
    // Ending soon: its own date, or its team's; not the one ending later nor the one ended.
    const own = await insertWorkspace(ctx, later);
    await insertWorkspace(ctx, soon);
    const far = await insertWorkspace(ctx, later);
    const gone = await insertWorkspace(ctx, later);
    await ctx.db.updateTable('workspaces').set({ expires_at: at(29 * DAY_MS) }).where('id', '=', own.id).execute();
    await ctx.db.updateTable('workspaces').set({ expires_at: at(31 * DAY_MS) }).where('id', '=', far.id).execute();
    await ctx.db.updateTable('workspaces').set({ expires_at: at(2 * DAY_MS), suspended_at: at(-DAY_MS) }).where('id', '=', gone.id).execute();

    const { expiring_soon } = await dashboard();
    expect(expiring_soon).toEqual({ days: 30, teams: before.teams + 1, workspaces: before.workspaces + 2 });
    const teams = await get('/api/admin/teams?filter[expiring_within_days]=30&page=1&per_page=10');
    expect(teams.json().meta.total).toBe(expiring_soon.teams);
    const workspaces = await get('/api/admin/workspaces?filter[expiring_within_days]=30&page=1&per_page=10');
    expect(workspaces.json().meta.total).toBe(expiring_soon.workspaces);

    // Ten days on, the team has ended: neither it nor its workspace is "soon" any more; the later team is.
    clock.set(at(11 * DAY_MS));
    expect((await dashboard()).expiring_soon).toEqual({ days: 30, teams: before.teams + 1, workspaces: before.workspaces + 2 });
  });
});

describe('usage: top teams this month and capacity used', () => {
  it('says nothing is used before any hour is accounted', async () => {
    const answer = await dashboard();
    expect(answer.capacity.used).toBeNull();
    expect(answer.top_teams).toEqual({ from: '2030-03-01T00:00:00.000Z', to: '2030-04-01T00:00:00.000Z', teams: [] });
  });

  it('sums this calendar month per team, the five with most core-hours, and the last complete hour', async () => {
    const teams: Awaited<ReturnType<typeof insertTeam>>[] = [];
    for (let index = 0; index < 6; index += 1) teams.push(await insertTeam(ctx));
    const usage = (teamId: number, workspaceId: number, hourStart: string, cpu: number, memory: number) =>
      addUsage(ctx.db, [{ team_id: teamId, workspace_id: workspaceId, hour_start: hourStart, cpu_core_hours: cpu, memory_gib_hours: memory }]);
    // Team i used i + 1 core-hours this month, over two workspaces and two hours.
    for (const [index, team] of teams.entries()) {
      await usage(team.id, 10_000 + index, '2030-03-01T00:00:00.000Z', index + 0.5, 2 * index);
      await usage(team.id, 20_000 + index, '2030-03-15T09:00:00.000Z', 0.5, 1);
    }
    // February, April and a deleted team's usage in March.
    await usage(teams[0]!.id, 10_000, '2030-02-28T23:00:00.000Z', 100, 100);
    await usage(teams[0]!.id, 10_000, '2030-04-01T00:00:00.000Z', 100, 100);
    await usage(999_999, 30_000, '2030-03-10T00:00:00.000Z', 4.5, 3);
    // The hour being accounted is not complete.
    await usage(teams[1]!.id, 40_000, '2030-03-15T10:00:00.000Z', 7, 7);
    await ctx.db.insertInto('usage_accounting').values({ id: 1, accounted_until: at(0) }).execute();

    const answer = await dashboard();
    const named = (index: number, cpu: number, memory: number) => ({ id: teams[index]!.id, name: teams[index]!.name, fullname: teams[index]!.fullname, cpu_core_hours: cpu, memory_gib_hours: memory });
    // Team 1 has the hour being accounted too (it is this month's all the same).
    expect(answer.top_teams.teams).toEqual([
      named(1, 9, 10),
      named(5, 6, 11),
      named(4, 5, 9),
      { id: 999_999, name: null, fullname: null, cpu_core_hours: 4.5, memory_gib_hours: 3 },
      named(3, 4, 7),
    ]);
    // 09:00–10:00: six workspaces at half a core and 1 GiB on average.
    expect(answer.capacity.used).toEqual({ hour_start: '2030-03-15T09:00:00.000Z', cpu: 3, memory: 6 });

    // An hour of the open day counts at once (the days the cursor has passed are summed once a
    // day), and still when the cursor passes that day too.
    await usage(teams[0]!.id, 50_000, '2030-03-15T08:00:00.000Z', 10, 1);
    expect((await dashboard()).top_teams.teams[0]).toEqual(named(0, 11, 2));
    await ctx.db.updateTable('usage_accounting').set({ accounted_until: '2030-03-16T01:00:00.000Z' }).execute();
    clock.set('2030-03-16T01:30:00.000Z');
    const nextDay = await dashboard();
    expect(nextDay.top_teams.teams.slice(0, 2)).toEqual([named(0, 11, 2), named(1, 9, 10)]);
    expect(nextDay.capacity.used).toEqual({ hour_start: '2030-03-16T00:00:00.000Z', cpu: 0, memory: 0 });
    await ctx.db.updateTable('usage_accounting').set({ accounted_until: at(0) }).execute();
    clock.set(T0);

    // The accounting lags: the last hour it completed is shown, not a later one.
    clock.set(at(5 * HOUR));
    expect((await dashboard()).capacity.used).toEqual({ hour_start: '2030-03-15T09:00:00.000Z', cpu: 3, memory: 6 });
    // The next month: nothing yet.
    clock.set('2030-04-02T00:00:00.000Z');
    expect((await dashboard()).top_teams.teams).toEqual([{ id: teams[0]!.id, name: teams[0]!.name, fullname: teams[0]!.fullname, cpu_core_hours: 100, memory_gib_hours: 100 }]);
  });
});
