import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DAY_MS, movableClock } from '../src/clock.js';
import { createTestContext, type SignedInUser, type TestContext, unique } from './helpers.js';
import { addTeamMember, addWorkspaceMember, createWorld, insertTeam, insertWorkspace } from './teamFixtures.js';

// The platform admins' side of end dates (docs/lifecycle.md, "Admin lists" and "Extending in
// bulk"): the teams and workspaces lists answer each end date and status, filter on what ends
// within N days or has ended, sort by the end date (undated last both ways, on both databases);
// POST /api/admin/{teams,workspaces}/bulk {action: "extend", days} moves end dates with a dry run
// and a result per item, lifting suspensions through the path a renewal takes; the preview names
// the memberships that end. All by the app's clock, moved here.

const T0 = new Date('2030-03-01T10:00:00.000Z');
const clock = movableClock(T0);
const at = (days: number) => new Date(T0.getTime() + days * DAY_MS).toISOString();

let ctx: TestContext;
let admin: SignedInUser;
let owner: SignedInUser;
let outsider: SignedInUser;

beforeAll(async () => {
  ctx = await createTestContext({ clock });
  const world = await createWorld(ctx);
  ({ admin, owner, outsider } = world.people);
});
afterAll(() => ctx.close());
afterEach(() => {
  clock.set(T0);
  vi.restoreAllMocks();
});

const get = (url: string, token = admin.token) => ctx.inject('GET', url, { token });
/** As the admin, unless another token (or null: none) is given. */
const post = (url: string, body: unknown, token: string | null = admin.token) => ctx.inject('POST', url, { token: token ?? undefined, body });
const query = (params: Record<string, string | number>) => new URLSearchParams(Object.entries(params).map(([key, value]): [string, string] => [key, String(value)])).toString();

async function team(prefix: string, suffix: string, expiresAt: string | null) {
  const made = await insertTeam(ctx, `${prefix}${suffix}`);
  await ctx.db.updateTable('teams').set({ expires_at: expiresAt }).where('id', '=', made.id).execute();
  return { ...made, expires_at: expiresAt };
}

async function workspace(teamRow: { id: number; name: string }, name: string, expiresAt: string | null, suspended = false) {
  const made = await insertWorkspace(ctx, teamRow, name);
  await ctx.db
    .updateTable('workspaces')
    .set({ expires_at: expiresAt, suspended_at: suspended ? at(-1) : null, cluster_state: 'ready' })
    .where('id', '=', made.id)
    .execute();
  return made;
}

describe('GET /api/admin/teams: end dates', () => {
  let prefix: string;

  beforeAll(async () => {
    prefix = unique('tends');
    // In this order (ids ascending): soon, month, later, ended, none.
    for (const [name, end] of [['soon', at(3)], ['month', at(20)], ['later', at(200)], ['ended', at(-2)], ['none', null]] as const) await team(prefix, name, end);
  });

  const names = async (params: Record<string, string | number>) => {
    const response = await get(`/api/admin/teams?${query({ q: prefix, page: 1, per_page: 100, ...params })}`);
    expect(response.statusCode, response.body).toBe(200);
    return (response.json().data as { name: string }[]).map((row) => row.name.slice(prefix.length));
  };

  it('answers each team’s review date and where it stands (expiring from the warning time before)', async () => {
    const response = await get(`/api/admin/teams?${query({ q: prefix })}`);
    const rows = Object.fromEntries((response.json() as { name: string; expires_at: string | null; status: string }[]).map((row) => [row.name.slice(prefix.length), row]));
    expect(rows.soon).toMatchObject({ expires_at: at(3), status: 'expiring' });
    expect(rows.month).toMatchObject({ expires_at: at(20), status: 'expiring' });
    expect(rows.later).toMatchObject({ expires_at: at(200), status: 'active' });
    expect(rows.ended).toMatchObject({ expires_at: at(-2), status: 'expired' });
    expect(rows.none).toMatchObject({ expires_at: null, status: 'active' });
    // The clock moves, the status follows.
    clock.set(at(4));
    const later = (await get(`/api/admin/teams?${query({ q: `${prefix}soon` })}`)).json();
    expect(later[0]).toMatchObject({ status: 'expired' });
  });

  it('filters what ends within N days, what has ended, and what has not, with the other filters', async () => {
    expect((await names({ 'filter[expiring_within_days]': 7 })).sort()).toEqual(['soon']);
    expect((await names({ 'filter[expiring_within_days]': 30 })).sort()).toEqual(['month', 'soon']);
    expect((await names({ 'filter[expired]': 'true' })).sort()).toEqual(['ended']);
    expect((await names({ 'filter[expired]': '0' })).sort()).toEqual(['later', 'month', 'none', 'soon']);
    expect(await names({ 'filter[expiring_within_days]': 30, 'filter[expired]': 'true' })).toEqual([]);
    // With the other filters: a search narrower than the prefix, a creation date.
    expect(await names({ q: `${prefix}mon`, 'filter[expiring_within_days]': 30 })).toEqual(['month']);
    expect(await names({ 'filter[expiring_within_days]': 30, 'filter[from]': '2999-01-01' })).toEqual([]);
    // By the app's clock: three days on, "soon" has ended.
    clock.set(at(3.5));
    expect((await names({ 'filter[expired]': 'true' })).sort()).toEqual(['ended', 'soon']);
    expect((await names({ 'filter[expiring_within_days]': 30 })).sort()).toEqual(['month']);
  });

  it('sorts by the review date, undated last in both directions', async () => {
    expect(await names({ sort: 'expires_at', order: 'asc' })).toEqual(['ended', 'soon', 'month', 'later', 'none']);
    expect(await names({ sort: 'expires_at', order: 'desc' })).toEqual(['later', 'month', 'soon', 'ended', 'none']);
  });

  it('exports the rows the end filters match', async () => {
    const response = await get(`/api/admin/teams.csv?${query({ q: prefix, 'filter[expired]': 'true' })}`);
    expect(response.statusCode).toBe(200);
    const lines = response.body.trim().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`${prefix}ended`);
  });

  it.each([
    ['filter[expiring_within_days]', '-1', 'The expiring_within_days filter must be a whole number of days from 1 to 3650.'],
    ['filter[expiring_within_days]', '0', 'The expiring_within_days filter must be a whole number of days from 1 to 3650.'],
    ['filter[expiring_within_days]', 'ten', 'The expiring_within_days filter must be a whole number of days from 1 to 3650.'],
    ['filter[expiring_within_days]', '1.5', 'The expiring_within_days filter must be a whole number of days from 1 to 3650.'],
    ['filter[expiring_within_days]', '3651', 'The expiring_within_days filter must be a whole number of days from 1 to 3650.'],
    ['filter[expiring_within_days]', '99999999999999999999', 'The expiring_within_days filter must be a whole number of days from 1 to 3650.'],
    ['filter[expired]', 'yes', 'The expired filter must be true or false.'],
    ['sort', 'ends', 'The selected sort is invalid. Sort by name, fullname, created_at, expires_at.'],
  ])('%s=%s is a 422 with a field message', async (field, value, message) => {
    for (const path of ['/api/admin/teams', '/api/admin/teams.csv']) {
      if (path.endsWith('.csv') && field === 'sort') continue;
      const response = await get(`${path}?${query({ [field]: value })}`);
      expect(response.statusCode, `${path}: ${response.body}`).toBe(422);
      expect(response.json().errors[field]).toEqual([message]);
    }
  });

  it('is for platform admins only', async () => {
    expect((await get('/api/admin/teams?filter[expired]=true', owner.token)).statusCode).toBe(403);
    expect((await get('/api/admin/teams?filter[expired]=true', outsider.token)).statusCode).toBe(403);
  });
});

describe('GET /api/admin/workspaces: end dates', () => {
  let prefix: string;
  let ids: Record<string, number>;

  beforeAll(async () => {
    prefix = unique('wends');
    const open = await team(prefix, 'open', at(300));
    const ending = await team(prefix, 'ending', at(10));
    const ended = await team(prefix, 'gone', at(-1));
    ids = {
      soon: (await workspace(open, `${prefix}soon`, at(5))).id,
      later: (await workspace(open, `${prefix}later`, at(100))).id,
      none: (await workspace(open, `${prefix}none`, null)).id,
      own: (await workspace(open, `${prefix}own`, at(-3))).id,
      suspended: (await workspace(open, `${prefix}susp`, at(-10), true)).id,
      // Its team's review date comes first.
      byteam: (await workspace(ending, `${prefix}byteam`, at(100))).id,
      teamgone: (await workspace(ended, `${prefix}teamgone`, at(100))).id,
    };
  });

  const names = async (params: Record<string, string | number>) => {
    const response = await get(`/api/admin/workspaces?${query({ q: prefix, page: 1, per_page: 100, ...params })}`);
    expect(response.statusCode, response.body).toBe(200);
    return (response.json().data as { name: string }[]).map((row) => row.name.slice(prefix.length));
  };

  it('answers its own end date, when it ends (its team’s date may come first), its status and suspension', async () => {
    const rows = Object.fromEntries(((await get(`/api/admin/workspaces?${query({ q: prefix })}`)).json() as { name: string }[]).map((row) => [row.name.slice(prefix.length), row]));
    expect(rows.soon).toMatchObject({ expires_at: at(5), ends_at: at(5), status: 'expiring', suspension: null });
    expect(rows.later).toMatchObject({ expires_at: at(100), ends_at: at(100), status: 'active', suspension: null });
    expect(rows.none).toMatchObject({ expires_at: null, ends_at: at(300), status: 'active' });
    expect(rows.own).toMatchObject({ expires_at: at(-3), status: 'expired', suspension: 'suspending' });
    expect(rows.susp).toMatchObject({ expires_at: at(-10), status: 'expired', suspension: 'suspended' });
    expect(rows.byteam).toMatchObject({ expires_at: at(100), ends_at: at(10), status: 'expiring' });
    expect(rows.teamgone).toMatchObject({ expires_at: at(100), ends_at: at(-1), status: 'expired' });
  });

  it('filters by when it ends, as its status says, and combines with the team filter', async () => {
    expect((await names({ 'filter[expiring_within_days]': 7 })).sort()).toEqual(['soon']);
    expect((await names({ 'filter[expiring_within_days]': 30 })).sort()).toEqual(['byteam', 'soon']);
    expect((await names({ 'filter[expired]': 'true' })).sort()).toEqual(['own', 'susp', 'teamgone']);
    expect((await names({ 'filter[expired]': 'false' })).sort()).toEqual(['byteam', 'later', 'none', 'soon']);
    const byTeam = await ctx.db.selectFrom('workspaces').select('team_id').where('id', '=', ids.byteam!).executeTakeFirstOrThrow();
    expect(await names({ 'filter[expiring_within_days]': 30, 'filter[team_id]': byTeam.team_id })).toEqual(['byteam']);
  });

  it('sorts by its own end date, undated last in both directions', async () => {
    expect(await names({ sort: 'expires_at', order: 'asc' })).toEqual(['susp', 'own', 'soon', 'later', 'byteam', 'teamgone', 'none']);
    expect(await names({ sort: 'expires_at', order: 'desc' })).toEqual(['teamgone', 'byteam', 'later', 'soon', 'own', 'susp', 'none']);
  });

  it.each([
    ['filter[expiring_within_days]', '-7'],
    ['filter[expiring_within_days]', 'a week'],
    ['filter[expiring_within_days]', '100000'],
  ])('%s=%s is a 422 with a field message', async (field, value) => {
    const response = await get(`/api/admin/workspaces?${query({ [field]: value })}`);
    expect(response.statusCode).toBe(422);
    expect(response.json().errors[field]).toEqual(['The expiring_within_days filter must be a whole number of days from 1 to 3650.']);
  });
});

describe('POST /api/admin/teams/bulk {action: "extend"}', () => {
  const reviewOf = async (ids: number[]) =>
    Object.fromEntries((await ctx.db.selectFrom('teams').select(['id', 'expires_at']).where('id', 'in', ids).execute()).map((row) => [row.id, row.expires_at]));

  it('moves each review date `days` on (from now once passed), after a dry run; no end date is skipped; a missing id is not_found', async () => {
    const prefix = unique('text');
    const ahead = await team(prefix, 'ahead', at(10));
    const passed = await team(prefix, 'passed', at(-5));
    const none = await team(prefix, 'none', null);
    // The passed team's workspaces: one suspended by the team's date (its own still ahead), one by its own end.
    const byTeam = await workspace(passed, 'byteam', at(50), true);
    const byOwn = await workspace(passed, 'byown', at(-20), true);
    const ids = [ahead.id, passed.id, none.id, 2_000_000_000];

    const preview = await post('/api/admin/teams/bulk', { ids, action: 'extend', days: 90, dry_run: true });
    expect(preview.statusCode, preview.body).toBe(200);
    const expected = {
      action: 'extend',
      days: 90,
      matched: 4,
      totals: { done: 2, skipped: 1, not_found: 1 },
      reach: { resumed_workspaces: 1 },
      results: [
        { id: ahead.id, status: 'done', name: ahead.name, from: at(10), to: at(100), resumed_workspaces: 0 },
        { id: passed.id, status: 'done', name: passed.name, from: at(-5), to: at(90), resumed_workspaces: 1 },
        { id: none.id, status: 'skipped', name: none.name, message: 'No end date: it does not end, so there is nothing to extend.' },
        { id: 2_000_000_000, status: 'not_found', message: 'Not found.' },
      ],
    };
    expect(preview.json()).toEqual({ ...expected, dry_run: true });
    expect(await reviewOf(ids)).toEqual({ [ahead.id]: at(10), [passed.id]: at(-5), [none.id]: null });

    const response = await post('/api/admin/teams/bulk', { ids, action: 'extend', days: 90 });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ ...expected, dry_run: false });
    expect(await reviewOf(ids)).toEqual({ [ahead.id]: at(100), [passed.id]: at(90), [none.id]: null });

    // The team's renewal path: the workspace its date suspended comes back, the other stays.
    const rows = await ctx.db.selectFrom('workspaces').select(['id', 'suspended_at', 'cluster_state']).where('id', 'in', [byTeam.id, byOwn.id]).orderBy('id').execute();
    expect(rows).toEqual([
      { id: byTeam.id, suspended_at: null, cluster_state: 'pending' },
      { id: byOwn.id, suspended_at: at(-1), cluster_state: 'ready' },
    ]);

    // One entry per team with its cause, and one for the run.
    const entries = await ctx.db.selectFrom('activity_log').select(['subject_id', 'causer_id', 'properties']).where('description', '=', 'team review date changed').where('subject_id', 'in', ids).orderBy('id').execute();
    expect(entries.map((entry) => [entry.subject_id, entry.causer_id, JSON.parse(entry.properties)])).toEqual([
      [ahead.id, admin.user.id, expect.objectContaining({ cause: 'extended in bulk by a platform admin', from: at(10), to: at(100), resumed_workspaces: [] })],
      [passed.id, admin.user.id, expect.objectContaining({ cause: 'extended in bulk by a platform admin', from: at(-5), to: at(90), resumed_workspaces: [byTeam.id] })],
    ]);
    const summary = await ctx.db.selectFrom('activity_log').select(['causer_id', 'properties']).where('description', '=', 'teams extended in bulk').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(summary.causer_id).toBe(admin.user.id);
    expect(JSON.parse(summary.properties)).toMatchObject({ days: 90, matched: 4, done: 2, skipped: 1, not_found: 1, resumed_workspaces: 1 });
  });

  it('extends every team the list filter matches (ended ones, by a search), not only a page', async () => {
    const prefix = unique('tfilt');
    const ended = await Promise.all([team(prefix, 'a', at(-1)), team(prefix, 'b', at(-30))]);
    const open = await team(prefix, 'c', at(40));
    const filter = { q: prefix, expired: true };
    const preview = await post('/api/admin/teams/bulk', { filter, action: 'extend', days: 30, dry_run: true });
    expect(preview.json()).toMatchObject({ matched: 2, totals: { done: 2, skipped: 0, not_found: 0 } });
    const response = await post('/api/admin/teams/bulk', { filter, action: 'extend', days: 30 });
    expect(response.json().totals).toEqual({ done: 2, skipped: 0, not_found: 0 });
    expect(await reviewOf([...ended.map((row) => row.id), open.id])).toEqual({ [ended[0].id]: at(30), [ended[1].id]: at(30), [open.id]: at(40) });
    const summary = await ctx.db.selectFrom('activity_log').select('properties').where('description', '=', 'teams extended in bulk').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(JSON.parse(summary.properties).filter).toEqual(filter);
    // Nothing has ended in that search any more.
    expect((await post('/api/admin/teams/bulk', { filter, action: 'extend', days: 30, dry_run: true })).json().matched).toBe(0);
    // The end filters work for the other actions too.
    const suspend = await post('/api/admin/teams/bulk', { filter: { q: prefix, expiring_within_days: 35 }, action: 'suspend', dry_run: true });
    expect(suspend.json()).toMatchObject({ matched: 2 });
  });

  it.each([
    [{ ids: [1], action: 'extend' }, 'days', 'The days field is required to extend.'],
    [{ ids: [1], action: 'extend', days: 0 }, 'days', 'The days field must be a whole number of days from 1 to 3650.'],
    [{ ids: [1], action: 'extend', days: -30 }, 'days', 'The days field must be a whole number of days from 1 to 3650.'],
    [{ ids: [1], action: 'extend', days: 3651 }, 'days', 'The days field must be a whole number of days from 1 to 3650.'],
    [{ ids: [1], action: 'extend', days: 1e12 }, 'days', 'The days field must be a whole number of days from 1 to 3650.'],
    [{ ids: [1], action: 'extend', days: 1.5 }, 'days', 'The days field must be a whole number of days from 1 to 3650.'],
    [{ ids: [1], action: 'extend', days: '90' }, 'days', 'The days field must be a whole number of days from 1 to 3650.'],
    [{ action: 'extend', days: 90 }, 'ids', 'Give either ids or filter.'],
    [{ ids: [1], action: 'renew', days: 90 }, 'action', 'The action field must be suspend, enable or extend.'],
    [{ filter: { expiring_within_days: -1 }, action: 'extend', days: 90 }, 'filter.expiring_within_days', 'The filter.expiring_within_days field must be a whole number of days from 1 to 3650.'],
    [{ filter: { expired: 'yes' }, action: 'extend', days: 90 }, 'filter.expired', 'The filter.expired field must be true or false.'],
  ])('%j is a 422 on %s, nothing changed', async (body, field, message) => {
    const before = await ctx.db.selectFrom('activity_log').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    const response = await post('/api/admin/teams/bulk', body);
    expect(response.statusCode).toBe(422);
    expect(response.json().errors[field]).toEqual([message]);
    const after = await ctx.db.selectFrom('activity_log').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    expect(Number(after.count)).toBe(Number(before.count));
  });

  it('is for platform admins only: 403 for a team owner and an outsider, 401 without a token', async () => {
    const target = await team(unique('tdeny'), 'x', at(10));
    const body = { ids: [target.id], action: 'extend', days: 30 };
    expect((await post('/api/admin/teams/bulk', body, owner.token)).statusCode).toBe(403);
    expect((await post('/api/admin/teams/bulk', body, outsider.token)).statusCode).toBe(403);
    expect((await post('/api/admin/teams/bulk', body, null)).statusCode).toBe(401);
    expect(await reviewOf([target.id])).toEqual({ [target.id]: at(10) });
  });
});

describe('POST /api/admin/workspaces/bulk {action: "extend"}', () => {
  const endsOf = async (ids: number[]) =>
    Object.fromEntries((await ctx.db.selectFrom('workspaces').select(['id', 'expires_at']).where('id', 'in', ids).execute()).map((row) => [row.id, row.expires_at]));

  it('moves each end `days` on, lifts a suspension as a renewal does, says why one stays; dry run first', async () => {
    const prefix = unique('wext');
    const open = await team(prefix, 'open', at(400));
    const gone = await team(prefix, 'gone', at(-2));
    const ahead = await workspace(open, 'ahead', at(10));
    const suspended = await workspace(open, 'susp', at(-4), true);
    const held = await workspace(gone, 'held', at(-3), true);
    const none = await workspace(open, 'none', null);
    const member = await ctx.createUser();
    await addTeamMember(ctx, open.id, member.user.id, 'member');
    await addWorkspaceMember(ctx, suspended.id, member.user.id, 'member');
    await ctx.db.updateTable('workspace_members').set({ cluster_state: 'ready' }).where('workspace_id', '=', suspended.id).execute();
    const ids = [ahead.id, suspended.id, held.id, none.id, 2_000_000_000];

    const results = [
      { id: ahead.id, status: 'done', name: 'ahead', namespace: ahead.namespace, from: at(10), to: at(100), ends_at: at(100), resumed: false },
      { id: suspended.id, status: 'done', name: 'susp', namespace: suspended.namespace, from: at(-4), to: at(90), ends_at: at(90), resumed: true },
      {
        id: held.id,
        status: 'done',
        name: 'held',
        namespace: held.namespace,
        from: at(-3),
        to: at(90),
        ends_at: at(-2),
        resumed: false,
        message: "Its team's review date has passed: it stays suspended until the team is extended or renewed.",
      },
      { id: none.id, status: 'skipped', name: 'none', namespace: none.namespace, message: 'No end date: it does not end, so there is nothing to extend.' },
      { id: 2_000_000_000, status: 'not_found', message: 'Not found.' },
    ];
    const expected = { action: 'extend', days: 90, matched: 5, totals: { done: 3, skipped: 1, not_found: 1 }, reach: { resumed_workspaces: 1 }, results };

    const preview = await post('/api/admin/workspaces/bulk', { ids, action: 'extend', days: 90, dry_run: true });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toEqual({ ...expected, dry_run: true });
    expect(await endsOf(ids)).toEqual({ [ahead.id]: at(10), [suspended.id]: at(-4), [held.id]: at(-3), [none.id]: null });

    const response = await post('/api/admin/workspaces/bulk', { ids, action: 'extend', days: 90 });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ ...expected, dry_run: false });
    expect(await endsOf(ids)).toEqual({ [ahead.id]: at(100), [suspended.id]: at(90), [held.id]: at(90), [none.id]: null });

    // The suspension lifted: the workspace and its memberships pending, so the reconciler
    // restores its quota and its members' access; the one whose team ended stays as it was.
    const rows = await ctx.db.selectFrom('workspaces').select(['id', 'suspended_at', 'cluster_state']).where('id', 'in', [suspended.id, held.id]).orderBy('id').execute();
    expect(rows).toEqual([
      { id: suspended.id, suspended_at: null, cluster_state: 'pending' },
      { id: held.id, suspended_at: at(-1), cluster_state: 'ready' },
    ]);
    const memberships = await ctx.db.selectFrom('workspace_members').select('cluster_state').where('workspace_id', '=', suspended.id).execute();
    expect(memberships).toEqual([{ cluster_state: 'pending' }]);
    const shown = (await get(`/api/admin/workspaces?${query({ q: suspended.namespace })}`)).json();
    expect(shown[0]).toMatchObject({ status: 'active', suspension: null, expires_at: at(90) });

    const entries = await ctx.db.selectFrom('activity_log').select(['subject_id', 'properties']).where('description', '=', 'workspace end date changed').where('subject_id', 'in', ids).orderBy('id').execute();
    expect(entries.map((entry) => [entry.subject_id, JSON.parse(entry.properties)])).toEqual([
      [ahead.id, expect.objectContaining({ cause: 'extended in bulk by a platform admin', from: at(10), to: at(100), resumed: false })],
      [suspended.id, expect.objectContaining({ cause: 'extended in bulk by a platform admin', from: at(-4), to: at(90), resumed: true })],
      [held.id, expect.objectContaining({ cause: 'extended in bulk by a platform admin', resumed: false })],
    ]);
    const summary = await ctx.db.selectFrom('activity_log').select('properties').where('description', '=', 'workspaces extended in bulk').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(JSON.parse(summary.properties)).toMatchObject({ days: 90, matched: 5, done: 3, skipped: 1, not_found: 1, resumed_workspaces: 1 });
  });

  it('extends every workspace the list filter matches (ending within N days in a team), not only a page', async () => {
    const prefix = unique('wfilt');
    const owning = await team(prefix, 'team', at(400));
    const soon = await Promise.all([workspace(owning, 'one', at(2)), workspace(owning, 'two', at(6))]);
    const later = await workspace(owning, 'three', at(60));
    const filter = { team_id: owning.id, expiring_within_days: 7 };
    const preview = await post('/api/admin/workspaces/bulk', { filter, action: 'extend', days: 30, dry_run: true });
    expect(preview.json()).toMatchObject({ matched: 2, totals: { done: 2, skipped: 0, not_found: 0 } });
    const response = await post('/api/admin/workspaces/bulk', { filter, action: 'extend', days: 30 });
    expect(response.json()).toMatchObject({ dry_run: false, matched: 2, totals: { done: 2 } });
    expect(await endsOf([...soon.map((row) => row.id), later.id])).toEqual({ [soon[0].id]: at(32), [soon[1].id]: at(36), [later.id]: at(60) });
  });

  it.each([
    [{ ids: [1], action: 'extend' }, 'days', 'The days field is required to extend.'],
    [{ ids: [1], action: 'extend', days: -1 }, 'days', 'The days field must be a whole number of days from 1 to 3650.'],
    [{ ids: [1], action: 'extend', days: 100000 }, 'days', 'The days field must be a whole number of days from 1 to 3650.'],
    [{ ids: [1], action: 'extend', days: 'soon' }, 'days', 'The days field must be a whole number of days from 1 to 3650.'],
    [{ ids: [1], filter: {}, action: 'extend', days: 5 }, 'ids', 'Give either ids or filter.'],
    [{ filter: { team_id: 'x' }, action: 'extend', days: 5 }, 'filter.team_id', 'The filter.team_id field must be an id.'],
    [{ filter: { expiring_within_days: 0 }, action: 'extend', days: 5 }, 'filter.expiring_within_days', 'The filter.expiring_within_days field must be a whole number of days from 1 to 3650.'],
    [{ filter: { expired: true }, action: 'delete' }, 'filter', 'Workspaces are deleted by ids, not by a filter.'],
    [{ ids: [1], action: 'suspend' }, 'action', 'The action field must be delete or extend.'],
  ])('%j is a 422 on %s', async (body, field, message) => {
    const response = await post('/api/admin/workspaces/bulk', body);
    expect(response.statusCode).toBe(422);
    expect(response.json().errors[field]).toEqual([message]);
  });

  it('is for platform admins only: 403 for a team owner and an outsider, 401 without a token', async () => {
    const target = await workspace(await team(unique('wdeny'), 'x', null), 'x', at(10));
    const body = { ids: [target.id], action: 'extend', days: 30 };
    expect((await post('/api/admin/workspaces/bulk', body, owner.token)).statusCode).toBe(403);
    expect((await post('/api/admin/workspaces/bulk', body, outsider.token)).statusCode).toBe(403);
    expect((await post('/api/admin/workspaces/bulk', body, null)).statusCode).toBe(401);
    expect(await endsOf([target.id])).toEqual({ [target.id]: at(10) });
  });
});

describe('GET /api/admin/lifecycle/preview: memberships that end', () => {
  it('names the team memberships that end until the date (removed then), with the team and the person', async () => {
    const ending = await team(unique('pmem'), 'team', at(400));
    const person = await ctx.createUser({ firstname: 'Ending', lastname: 'Member' });
    const staying = await ctx.createUser({ firstname: 'Staying', lastname: 'Member' });
    await addTeamMember(ctx, ending.id, person.user.id, 'member');
    await addTeamMember(ctx, ending.id, staying.user.id, 'member');
    await ctx.db.updateTable('team_members').set({ expires_at: at(12) }).where('team_id', '=', ending.id).where('user_id', '=', person.user.id).execute();
    await ctx.db.updateTable('team_members').set({ expires_at: at(50) }).where('team_id', '=', ending.id).where('user_id', '=', staying.user.id).execute();

    const preview = await get(`/api/admin/lifecycle/preview?until=${encodeURIComponent(at(30))}`);
    expect(preview.statusCode, preview.body).toBe(200);
    const removals = (preview.json().removals as { team_id: number }[]).filter((removal) => removal.team_id === ending.id);
    expect(removals).toEqual([{ team_id: ending.id, team: ending.fullname, user_id: person.user.id, name: 'Ending Member', date: at(12) }]);
  });
});
