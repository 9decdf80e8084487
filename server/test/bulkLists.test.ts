import { parse } from 'csv-parse/sync';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { timestamp } from '../src/db/database.js';
import { createTestContext, type SignedInUser, type TestContext, unique } from './helpers.js';
import { FAST, nodeUser } from './nodesFixtures.js';
import { addTeamMember, addWorkspaceMember, createWorld, insertTeam, insertWorkspace, type World } from './teamFixtures.js';

// Bulk actions on every admin list: POST /api/requests/bulk by filter (past 1,000
// matches, dry runs), POST /api/admin/teams/bulk (suspend / enable by ids or filter),
// POST /api/admin/workspaces/bulk (delete), and filter[ids] on /api/admin/activity.csv and
// /api/admin/nodes.csv (Export selected), for every kind of caller.

let ctx: TestContext;
let world: World;
let admin: SignedInUser;
let owner: SignedInUser;
let outsider: SignedInUser;

const post = (url: string, token: string | undefined, body: unknown) => ctx.inject('POST', url, { token, body });

beforeAll(async () => {
  ctx = await createTestContext();
  world = await createWorld(ctx);
  ({ admin, owner, outsider } = world.people);
});
afterAll(() => ctx.close());
afterEach(() => vi.restoreAllMocks());

/** Pending JoinTeam requests made directly in the database, oldest first, `count` of them spread over `requesters`. */
async function seedJoinRequests(team: { id: number; name: string }, requesters: number[], count: number): Promise<number[]> {
  const base = Date.now() - 86_400_000;
  const ids: number[] = [];
  const tag = unique('seed');
  for (let start = 0; start < count; start += 400) {
    const rows = Array.from({ length: Math.min(400, count - start) }, (_, offset) => {
      const n = start + offset;
      const at = new Date(base + n).toISOString();
      return {
        type: 'JoinTeam' as const,
        status: 'Pending' as const,
        user_id: requesters[n % requesters.length]!,
        team_id: team.id,
        workspace_id: null,
        object_name: team.name,
        dedupe_key: `${tag}:${n}`,
        data: '{}',
        message: `Seeded ${n}`,
        decision_message: null,
        decided_by: null,
        decided_at: null,
        created_at: at,
        updated_at: at,
      };
    });
    ids.push(...(await ctx.db.insertInto('requests').values(rows).returning('id').execute()).map((row) => row.id));
  }
  return ids;
}

const statusesOf = async (ids: number[]) => {
  const rows = await ctx.db.selectFrom('requests').select(['id', 'status']).where('id', 'in', ids).execute();
  return new Set(rows.map((row) => row.status));
};

describe('POST /api/requests/bulk with a filter', () => {
  it('denies every match past 1,000 (not a page), after a dry run that counts them and decides nothing', async () => {
    const big = await insertTeam(ctx);
    // Disabled requesters: nobody to mail, so the test measures the decisions.
    const requesters = await Promise.all([1, 2, 3].map(async (n) => (await ctx.createUser({ firstname: `Req${n}`, lastname: 'Bulk', enabled: false })).user.id));
    const ids = await seedJoinRequests(big, requesters, 1100);
    const filter = { status: 'Pending', team_id: big.id };

    const preview = await post('/api/requests/bulk', admin.token, { filter, action: 'deny', dry_run: true });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().totals).toEqual({ requested: 1100, decided: 1100, forbidden: 0, not_found: 0, conflict: 0 });
    expect(preview.json().results[0]).toEqual({ id: ids[0], status: 'decided', http: 200, request_status: 'Denied' });
    expect(await statusesOf(ids)).toEqual(new Set(['Pending']));
    expect(
      await ctx.db.selectFrom('activity_log').select('id').where('description', '=', 'requests denied in bulk').where('causer_id', '=', admin.user.id).execute(),
    ).toHaveLength(0);

    const started = Date.now();
    const response = await post('/api/requests/bulk', admin.token, { filter, action: 'deny', message: 'Closed for the term' });
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json();
    expect(answer.totals).toEqual({ requested: 1100, decided: 1100, forbidden: 0, not_found: 0, conflict: 0 });
    // Oldest first, each once.
    expect(answer.results.map((item: { id: number }) => item.id)).toEqual(ids);
    console.info(`1,100 requests denied by filter in ${Date.now() - started} ms`);
    expect(await statusesOf(ids)).toEqual(new Set(['Denied']));

    // As one at a time: one entry per decision, and one for the call with the filter.
    const perRequest = await ctx.db
      .selectFrom('activity_log')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('description', '=', 'request denied')
      .where('subject_id', 'in', ids)
      .executeTakeFirstOrThrow();
    expect(Number(perRequest.count)).toBe(1100);
    const summary = await ctx.db.selectFrom('activity_log').select('properties').where('description', '=', 'requests denied in bulk').where('causer_id', '=', admin.user.id).executeTakeFirstOrThrow();
    expect(JSON.parse(summary.properties)).toMatchObject({ action: 'deny', requested: 1100, decided: 1100, filter, severity: 'info' });

    // Nothing pending is left to match.
    const again = await post('/api/requests/bulk', admin.token, { filter, action: 'deny', dry_run: true });
    expect(again.json()).toEqual({ results: [], totals: { requested: 0, decided: 0, forbidden: 0, not_found: 0, conflict: 0 } });
  }, 120_000);

  it('a team owner decides only what they may decide; the filter narrows (q), their own requests never match', async () => {
    const [ann, bob] = await Promise.all([ctx.signedInUser({ firstname: 'Annika', lastname: 'Filterbulk' }), ctx.signedInUser({ firstname: 'Bob', lastname: 'Filterbulk' })]);
    const annRequest = (await ctx.inject('PATCH', '/api/requests/teams', { token: ann.token, body: { team_id: world.team.id } })).json();
    const bobRequest = (await ctx.inject('PATCH', '/api/requests/teams', { token: bob.token, body: { team_id: world.team.id } })).json();
    // Another team's request: not the owner's to decide, so never matched.
    const elsewhere = await insertTeam(ctx);
    const [foreign] = await seedJoinRequests(elsewhere, [ann.user.id], 1);

    const preview = await post('/api/requests/bulk', owner.token, { filter: { status: 'Pending', q: 'filterbulk' }, action: 'approve', dry_run: true });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().results.map((item: { id: number }) => item.id)).toEqual([annRequest.id, bobRequest.id]);

    const narrowed = await post('/api/requests/bulk', owner.token, { filter: { q: 'annika' }, action: 'approve', message: 'Welcome' });
    expect(narrowed.json()).toEqual({
      results: [{ id: annRequest.id, status: 'decided', http: 200, request_status: 'Approved' }],
      totals: { requested: 1, decided: 1, forbidden: 0, not_found: 0, conflict: 0 },
    });
    const mail = await ctx.mailbox.waitFor(ann.user.email, { subject: /approved/ });
    expect(mail.text).toContain('Welcome');
    expect(await statusesOf([bobRequest.id, foreign!])).toEqual(new Set(['Pending']));

    // The other team's, asked for by its id: nothing matches for this owner.
    const other = await post('/api/requests/bulk', owner.token, { filter: { team_id: elsewhere.id }, action: 'approve' });
    expect(other.json().totals.requested).toBe(0);
    expect(await statusesOf([foreign!])).toEqual(new Set(['Pending']));
  });

  it('an outsider (no team to manage) matches nothing and changes nothing', async () => {
    const pending = await ctx.db.selectFrom('requests').select('id').where('status', '=', 'Pending').execute();
    const response = await post('/api/requests/bulk', outsider.token, { filter: {}, action: 'approve' });
    expect(response.statusCode).toBe(200);
    expect(response.json().totals.requested).toBe(0);
    expect(await statusesOf(pending.map((row) => row.id))).toEqual(new Set(['Pending']));
    expect((await post('/api/requests/bulk', undefined, { filter: {}, action: 'approve' })).statusCode).toBe(401);
  });

  it('a dry run by ids says what would be refused (403, 404, 409) and decides nothing', async () => {
    const team = await insertTeam(ctx);
    const people = await Promise.all([1, 2].map(() => ctx.createUser({ enabled: false })));
    const [open, decided] = await seedJoinRequests(team, people.map((person) => person.user.id), 2);
    await ctx.db.updateTable('requests').set({ status: 'Approved' }).where('id', '=', decided!).execute();
    const own = (await ctx.inject('PATCH', '/api/requests/teams', { token: owner.token, body: { team_id: team.id } })).json();
    const response = await post('/api/requests/bulk', admin.token, { ids: [open, decided, 2_000_000_000], action: 'approve', dry_run: true });
    expect(response.json()).toEqual({
      results: [
        { id: open, status: 'decided', http: 200, request_status: 'Approved' },
        { id: decided, status: 'conflict', http: 409, message: 'This request has already been decided.' },
        { id: 2_000_000_000, status: 'not_found', http: 404, message: 'Not found.' },
      ],
      totals: { requested: 3, decided: 1, forbidden: 0, not_found: 1, conflict: 1 },
    });
    // The world's owner decides nothing in this team: their own request is visible (403), the other is not (404).
    const ownPreview = await post('/api/requests/bulk', owner.token, { ids: [own.id, open], action: 'deny', dry_run: true });
    expect(ownPreview.json().results.map((item: { status: string }) => item.status)).toEqual(['forbidden', 'not_found']);
    expect(await statusesOf([open!, own.id])).toEqual(new Set(['Pending']));
  });

  it.each([
    [{ action: 'approve' }, 'ids', 'The ids field is required.'],
    [{ ids: [1], filter: {}, action: 'approve' }, 'ids', 'Give either ids or filter, not both.'],
    [{ filter: 'all', action: 'approve' }, 'filter', 'The filter field must be an object.'],
    [{ filter: { status: 'Maybe' }, action: 'approve' }, 'filter.status', 'The selected filter.status is invalid.'],
    [{ filter: { type: 'Other' }, action: 'approve' }, 'filter.type', 'The selected filter.type is invalid.'],
    [{ filter: { team_id: 'x' }, action: 'approve' }, 'filter.team_id', 'The filter.team_id field must be an integer.'],
    [{ filter: { q: 'a'.repeat(256) }, action: 'approve' }, 'filter.q', 'The filter.q field must not be greater than 255 characters.'],
    [{ filter: {}, action: 'approve', dry_run: 'yes' }, 'dry_run', 'The dry_run field must be true or false.'],
    [{ filter: {}, action: 'maybe' }, 'action', 'The selected action is invalid.'],
  ])('%j is a 422 on %s', async (body, field, message) => {
    const response = await post('/api/requests/bulk', admin.token, body);
    expect(response.statusCode).toBe(422);
    expect(response.json().errors[field]).toEqual([message]);
  });
});

describe('POST /api/admin/teams/bulk', () => {
  /** Teams of their own, each with an owner, a member, and a workspace with two members. */
  async function teamsWithPeople(count: number, prefix = unique('bulkteam')) {
    const made = [];
    for (let n = 0; n < count; n++) {
      const team = await insertTeam(ctx, `${prefix}${n}`);
      const workspace = await insertWorkspace(ctx, team);
      const [teamOwner, member] = await Promise.all([ctx.signedInUser({ firstname: 'Tea', lastname: `Owner${n}` }), ctx.createUser()]);
      await addTeamMember(ctx, team.id, teamOwner.user.id, 'owner');
      await addTeamMember(ctx, team.id, member.user.id, 'member');
      await addWorkspaceMember(ctx, workspace.id, teamOwner.user.id, 'manager');
      await addWorkspaceMember(ctx, workspace.id, member.user.id, 'member');
      made.push({ team, workspace, owner: teamOwner, member: member.user });
    }
    return { prefix, teams: made };
  }

  const enabledOf = async (ids: number[]) =>
    Object.fromEntries((await ctx.db.selectFrom('teams').select(['id', 'enabled']).where('id', 'in', ids).execute()).map((row) => [row.id, row.enabled]));

  it('is for platform admins only: 403 for a team owner and an outsider, 401 without a token', async () => {
    const body = { ids: [world.team.id], action: 'suspend' };
    expect((await post('/api/admin/teams/bulk', owner.token, body)).statusCode).toBe(403);
    expect((await post('/api/admin/teams/bulk', outsider.token, body)).statusCode).toBe(403);
    expect((await post('/api/admin/teams/bulk', undefined, body)).statusCode).toBe(401);
    expect((await enabledOf([world.team.id]))[world.team.id]).toBe(1);
  });

  it('suspends by ids as PATCH {enabled: false} does, per team; a missing id is not_found, the others done', async () => {
    const { teams } = await teamsWithPeople(3);
    const ids = teams.map((entry) => entry.team.id);
    const rights = vi.spyOn(ctx.broadcaster, 'rightsChanged');

    const preview = await post('/api/admin/teams/bulk', admin.token, { ids: [...ids, 2_000_000_000], action: 'suspend', dry_run: true });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toMatchObject({
      action: 'suspend',
      dry_run: true,
      matched: 4,
      totals: { done: 3, unchanged: 0, not_found: 1 },
      reach: { members: 6, workspaces: 3, workspace_memberships: 6 },
    });
    expect(Object.values(await enabledOf(ids))).toEqual([1, 1, 1]);
    expect(rights).not.toHaveBeenCalled();

    const response = await post('/api/admin/teams/bulk', admin.token, { ids: [ids[0], 2_000_000_000, ids[1], ids[2]], action: 'suspend' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      action: 'suspend',
      dry_run: false,
      matched: 4,
      totals: { done: 3, unchanged: 0, not_found: 1 },
      reach: { members: 6, workspaces: 3, workspace_memberships: 6 },
      results: [
        { id: ids[0], status: 'done' },
        { id: 2_000_000_000, status: 'not_found', message: 'Not found.' },
        { id: ids[1], status: 'done' },
        { id: ids[2], status: 'done' },
      ],
    });
    expect(Object.values(await enabledOf(ids))).toEqual([0, 0, 0]);

    // What PATCH does: memberships pending for the reconciler, rights re-checked, an entry per team.
    const memberships = await ctx.db.selectFrom('workspace_members').select('cluster_state').where('workspace_id', 'in', teams.map((entry) => entry.workspace.id)).execute();
    expect(memberships.map((row) => row.cluster_state)).toEqual(Array(6).fill('pending'));
    expect(new Set(rights.mock.calls.flatMap(([userIds]) => userIds))).toEqual(new Set(teams.flatMap((entry) => [entry.owner.user.id, entry.member.id])));
    const entries = await ctx.db.selectFrom('activity_log').select(['subject_id', 'properties']).where('description', '=', 'team suspended').where('subject_id', 'in', ids).execute();
    expect(entries.map((entry) => [entry.subject_id, JSON.parse(entry.properties)])).toEqual(
      ids.map((id) => [id, { members: 2, bulk: true, severity: 'warning' }]),
    );
    const summary = await ctx.db.selectFrom('activity_log').select(['causer_id', 'properties']).where('description', '=', 'teams suspended in bulk').executeTakeFirstOrThrow();
    expect(summary.causer_id).toBe(admin.user.id);
    expect(JSON.parse(summary.properties)).toMatchObject({ matched: 4, done: 3, not_found: 1, members: 6, workspaces: 3, severity: 'warning' });

    // The owner has no rights left in the team: it answers the public part, suspended.
    const seen = await ctx.inject('GET', `/api/tenants/${ids[0]}`, { token: teams[0]!.owner.token });
    expect(seen.json()).toMatchObject({ enabled: false, role: null });

    // Again: unchanged.
    const again = await post('/api/admin/teams/bulk', admin.token, { ids, action: 'suspend' });
    expect(again.json().totals).toEqual({ done: 0, unchanged: 3, not_found: 0 });
  });

  it('enables everything the teams list filter matches (q, has_workspaces), not only a page', async () => {
    const { prefix, teams } = await teamsWithPeople(3);
    const empty = await insertTeam(ctx, `${prefix}empty`);
    const all = [...teams.map((entry) => entry.team.id), empty.id];
    await ctx.db.updateTable('teams').set({ enabled: 0 }).where('id', 'in', all).execute();

    const preview = await post('/api/admin/teams/bulk', admin.token, { filter: { q: prefix, has_workspaces: true }, action: 'enable', dry_run: true });
    expect(preview.json()).toMatchObject({ matched: 3, totals: { done: 3, unchanged: 0, not_found: 0 }, reach: { members: 6, workspaces: 3 } });

    const response = await post('/api/admin/teams/bulk', admin.token, { filter: { q: prefix, has_workspaces: true }, action: 'enable' });
    expect(response.json().totals).toEqual({ done: 3, unchanged: 0, not_found: 0 });
    expect(await enabledOf(all)).toEqual({ ...Object.fromEntries(teams.map((entry) => [entry.team.id, 1])), [empty.id]: 0 });
    const summary = await ctx.db.selectFrom('activity_log').select('properties').where('description', '=', 'teams enabled in bulk').executeTakeFirstOrThrow();
    expect(JSON.parse(summary.properties).filter).toEqual({ q: prefix, has_workspaces: true });

    // Dates as the list takes them: none of these teams was made tomorrow.
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const none = await post('/api/admin/teams/bulk', admin.token, { filter: { q: prefix, from: tomorrow }, action: 'suspend', dry_run: true });
    expect(none.json().matched).toBe(0);
  });

  it.each([
    [{ action: 'suspend' }, 'ids', 'Give either ids or filter.'],
    [{ ids: [1], filter: {}, action: 'suspend' }, 'ids', 'Give either ids or filter.'],
    [{ ids: [], action: 'suspend' }, 'ids', 'The ids field must have at least 1 item.'],
    [{ ids: ['x'], action: 'suspend' }, 'ids.0', 'Each id must be an integer.'],
    [{ ids: [1] }, 'action', 'The action field is required.'],
    [{ ids: [1], action: 'delete' }, 'action', 'The action field must be suspend, enable or extend.'],
    [{ filter: { has_workspaces: 'yes' }, action: 'enable' }, 'filter.has_workspaces', 'The filter.has_workspaces field must be true or false.'],
    [{ filter: { from: 'yesterday' }, action: 'enable' }, 'filter.from', 'The from filter must be an ISO 8601 date (YYYY-MM-DD, or a date and time with a time zone).'],
    [{ ids: [1], action: 'enable', dry_run: 1 }, 'dry_run', 'The dry_run field must be true or false.'],
  ])('%j is a 422 on %s', async (body, field, message) => {
    const response = await post('/api/admin/teams/bulk', admin.token, body);
    expect(response.statusCode).toBe(422);
    expect(response.json().errors[field]).toEqual([message]);
  });
});

describe('POST /api/admin/workspaces/bulk', () => {
  it('is for platform admins only: 403 for a team owner and an outsider, 401 without a token', async () => {
    const body = { ids: [world.workspace.id], action: 'delete' };
    expect((await post('/api/admin/workspaces/bulk', owner.token, body)).statusCode).toBe(403);
    expect((await post('/api/admin/workspaces/bulk', outsider.token, body)).statusCode).toBe(403);
    expect((await post('/api/admin/workspaces/bulk', undefined, body)).statusCode).toBe(401);
    expect(await ctx.db.selectFrom('workspaces').select('id').where('id', '=', world.workspace.id).executeTakeFirst()).toBeDefined();
  });

  it('deletes each as DELETE does, after a dry run that counts what goes; a missing id is not_found, the others deleted', async () => {
    const team = await insertTeam(ctx);
    const [first, second] = [await insertWorkspace(ctx, team), await insertWorkspace(ctx, team)];
    const [ada, bea] = await Promise.all([ctx.createUser({ firstname: 'Ada', lastname: 'Wsbulk' }), ctx.createUser({ firstname: 'Bea', lastname: 'Wsbulk' })]);
    await addWorkspaceMember(ctx, first.id, ada.user.id, 'manager');
    await addWorkspaceMember(ctx, first.id, bea.user.id, 'member');
    await addWorkspaceMember(ctx, second.id, ada.user.id, 'member');
    const now = timestamp();
    const pending = await ctx.db
      .insertInto('requests')
      .values({
        type: 'JoinWorkspace',
        status: 'Pending',
        user_id: outsider.user.id,
        team_id: team.id,
        workspace_id: second.id,
        object_name: second.name,
        dedupe_key: unique('wsreq'),
        data: '{}',
        message: null,
        decision_message: null,
        decided_by: null,
        decided_at: null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();

    const preview = await post('/api/admin/workspaces/bulk', admin.token, { ids: [first.id, 2_000_000_000, second.id], action: 'delete', dry_run: true });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toEqual({
      action: 'delete',
      dry_run: true,
      matched: 3,
      totals: { done: 2, not_found: 1 },
      reach: { workspaces: 2, members: 2, memberships: 3 },
      results: [
        { id: first.id, status: 'done', name: first.name, namespace: first.namespace, members: 2 },
        { id: 2_000_000_000, status: 'not_found', message: 'Not found.' },
        { id: second.id, status: 'done', name: second.name, namespace: second.namespace, members: 1 },
      ],
    });
    expect(await ctx.db.selectFrom('workspaces').select('id').where('id', 'in', [first.id, second.id]).execute()).toHaveLength(2);

    const response = await post('/api/admin/workspaces/bulk', admin.token, { ids: [first.id, 2_000_000_000, second.id, first.id], action: 'delete' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ dry_run: false, matched: 3, totals: { done: 2, not_found: 1 }, reach: { workspaces: 2, members: 2, memberships: 3 } });
    expect(await ctx.db.selectFrom('workspaces').select('id').where('id', 'in', [first.id, second.id]).execute()).toHaveLength(0);
    // The reconciler's work, the closed request, the entries and the members' mails: as one DELETE each.
    const deletions = await ctx.db.selectFrom('cluster_deletions').select('namespace').where('workspace_id', 'in', [first.id, second.id]).execute();
    expect(deletions.map((row) => row.namespace).sort()).toEqual([first.namespace, second.namespace].sort());
    expect(await ctx.db.selectFrom('cluster_revocations').select('user_id').where('workspace_id', 'in', [first.id, second.id]).execute()).toHaveLength(3);
    const closed = await ctx.db.selectFrom('requests').select(['status', 'decision_message']).where('id', '=', pending.id).executeTakeFirstOrThrow();
    expect(closed).toEqual({ status: 'Denied', decision_message: 'The workspace was deleted.' });
    const entries = await ctx.db.selectFrom('activity_log').select('subject_id').where('description', '=', 'workspace deleted').where('subject_id', 'in', [first.id, second.id]).execute();
    expect(entries).toHaveLength(2);
    const summary = await ctx.db.selectFrom('activity_log').select('properties').where('description', '=', 'workspaces deleted in bulk').executeTakeFirstOrThrow();
    expect(JSON.parse(summary.properties)).toMatchObject({ matched: 3, done: 2, not_found: 1, members: 2, namespaces: [first.namespace, second.namespace] });
    await ctx.mailbox.waitFor(ada.user.email, { subject: new RegExp(`Workspace deleted: .*\\(${first.namespace}\\)`) });
    await ctx.mailbox.waitFor(ada.user.email, { subject: new RegExp(`Workspace deleted: .*\\(${second.namespace}\\)`) });
    await ctx.mailbox.waitFor(bea.user.email, { subject: /Workspace deleted/ });
  });

  it('DELETE /api/admin/workspaces/{id} still deletes one (the same function) and answers 404 after', async () => {
    const workspace = await insertWorkspace(ctx, await insertTeam(ctx));
    expect((await ctx.inject('DELETE', `/api/admin/workspaces/${workspace.id}`, { token: admin.token })).statusCode).toBe(204);
    expect((await ctx.inject('DELETE', `/api/admin/workspaces/${workspace.id}`, { token: admin.token })).statusCode).toBe(404);
  });

  it.each([
    [{ action: 'delete' }, 'ids', 'The ids field is required.'],
    [{ ids: [], action: 'delete' }, 'ids', 'The ids field must have at least 1 item.'],
    [{ ids: Array.from({ length: 1001 }, (_, n) => n + 1), action: 'delete' }, 'ids', 'The ids field must not have more than 1000 items.'],
    [{ ids: [0], action: 'delete' }, 'ids.0', 'Each id must be an integer.'],
    [{ ids: [1], action: 'suspend' }, 'action', 'The action field must be delete or extend.'],
    [{ ids: [1] }, 'action', 'The action field is required.'],
    [{ ids: [1], action: 'delete', dry_run: 'no' }, 'dry_run', 'The dry_run field must be true or false.'],
  ])('%j is a 422 on %s', async (body, field, message) => {
    const response = await post('/api/admin/workspaces/bulk', admin.token, body);
    expect(response.statusCode).toBe(422);
    expect(response.json().errors[field]).toEqual([message]);
  });
});

describe('GET /api/admin/activity.csv?filter[ids]=…', () => {
  const rowsOf = (body: string) => (parse(body) as string[][]).slice(1);

  it('exports just the entries named (comma-separated or repeated), newest first; 422 for anything else; admins only', async () => {
    const entries = await ctx.db.selectFrom('activity_log').select('id').orderBy('id').limit(4).execute();
    const [a, b, c] = entries.map((entry) => entry.id);
    const commas = await ctx.inject('GET', `/api/admin/activity.csv?filter[ids]=${a},${c}`, { token: admin.token });
    expect(commas.statusCode, commas.body).toBe(200);
    expect(rowsOf(commas.body).map((row) => Number(row[0]))).toEqual([c, a]);
    const repeated = await ctx.inject('GET', `/api/admin/activity.csv?filter[ids]=${a}&filter[ids]=${b}`, { token: admin.token });
    expect(rowsOf(repeated.body).map((row) => Number(row[0]))).toEqual([b, a]);
    // With the list's other filters too.
    const both = await ctx.inject('GET', `/api/admin/activity.csv?filter[ids]=${a},${b}&filter[severity]=error`, { token: admin.token });
    expect(rowsOf(both.body)).toEqual([]);

    for (const bad of ['x', '1,,x', '0', '-1', '99999999999', Array.from({ length: 1001 }, (_, n) => n + 1).join(',')]) {
      const response = await ctx.inject('GET', `/api/admin/activity.csv?filter[ids]=${bad}`, { token: admin.token });
      expect(response.statusCode, bad).toBe(422);
      expect(Object.keys(response.json().errors)).toEqual(['filter[ids]']);
    }
    expect((await ctx.inject('GET', `/api/admin/activity.csv?filter[ids]=${a}`, { token: owner.token })).statusCode).toBe(403);
    expect((await ctx.inject('GET', `/api/admin/activity.csv?filter[ids]=${a}`)).statusCode).toBe(401);
  });
});

describe('GET /api/admin/nodes.csv?filter[ids]=…', () => {
  let nodes: TestContext;

  beforeAll(async () => {
    nodes = await createTestContext({ cluster: { timings: FAST } });
  }, 60_000);
  afterAll(async () => {
    await nodes?.close();
  });

  it('exports just the nodes named (their names are the list rows’ ids); admins only', async () => {
    const nodeAdmin = await nodeUser(nodes, { admin: true });
    const someone = await nodeUser(nodes);
    const listed = (await nodes.inject('GET', '/api/admin/nodes', { token: nodeAdmin.token })).json() as { name: string }[];
    expect(listed.length).toBeGreaterThanOrEqual(2);
    const picked = [listed[1]!.name, listed[0]!.name];
    const response = await nodes.inject('GET', `/api/admin/nodes.csv?filter[ids]=${picked.map(encodeURIComponent).join(',')}`, { token: nodeAdmin.token });
    expect(response.statusCode, response.body).toBe(200);
    expect((parse(response.body) as string[][]).slice(1).map((row) => row[0])).toEqual([listed[0]!.name, listed[1]!.name]);
    const unknown = await nodes.inject('GET', '/api/admin/nodes.csv?filter[ids]=no-such-node', { token: nodeAdmin.token });
    expect((parse(unknown.body) as string[][]).slice(1)).toEqual([]);
    expect((await nodes.inject('GET', '/api/admin/nodes.csv?filter[ids]=', { token: nodeAdmin.token })).statusCode).toBe(422);
    expect((await nodes.inject('GET', `/api/admin/nodes.csv?filter[ids]=${picked[0]}`, { token: someone.token })).statusCode).toBe(403);
  });
});
