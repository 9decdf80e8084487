import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS, movableClock } from '../src/clock.js';
import { createTestContext, type SignedInUser, type TestContext, lifecycleRunner } from './helpers.js';

// Workspaces and teams over time (docs/lifecycle.md): the end date set at approval, the status
// the API answers, the warnings (once, as one digest per person, after downtime), the
// suspension, renewals and the retention's deletion, each moved along by a movable clock.

let ctx: TestContext;
let admin: SignedInUser;
let owner: SignedInUser;
let member: SignedInUser;
let outsider: SignedInUser;
const start = new Date('2030-01-01T10:00:00.000Z');
const clock = movableClock(start);
const runner = () => lifecycleRunner(ctx, clock);

beforeAll(async () => {
  ctx = await createTestContext({ clock });
  [admin, owner, member, outsider] = await Promise.all([ctx.signedInUser({ admin: true }), ctx.signedInUser(), ctx.signedInUser(), ctx.signedInUser()]);
});
afterAll(() => ctx.close());

let counter = 0;
async function team(): Promise<number> {
  const shortname = `exp${process.pid % 1000}${++counter}${Date.now() % 10000}`;
  const asked = await ctx.inject('POST', '/api/requests/teams', {
    token: owner.token,
    body: { fullname: `Team ${shortname}`, shortname, affiliation: 'Uni', country: 'FR', url: 'https://example.org', joining_reason: 'research', joining_category: 'Research' },
  });
  expect(asked.statusCode).toBe(201);
  const decided = await ctx.inject('PATCH', `/api/requests/${asked.json().id}`, { token: admin.token, body: { action: 'approve' } });
  expect(decided.statusCode).toBe(200);
  const teamId = decided.json().team.id as number;
  await ctx.db.insertInto('team_members').values({ team_id: teamId, user_id: member.user.id, role: 'member', enabled: 1, created_at: new Date().toISOString() }).execute();
  return teamId;
}

async function workspace(teamId: number, name = `ws${++counter}`): Promise<number> {
  const asked = await ctx.inject('POST', '/api/requests/workspaces', { token: owner.token, body: { label: `Space ${name}`, name, team_id: teamId } });
  expect(asked.statusCode).toBe(201);
  const id = asked.json().object.id as number;
  await ctx.db.insertInto('workspace_members').values({ workspace_id: id, user_id: member.user.id, role: 'member', created_at: new Date().toISOString() }).execute();
  // As the reconciler would leave them once applied.
  await ctx.db.updateTable('workspaces').set({ cluster_state: 'ready' }).where('id', '=', id).execute();
  await ctx.db.updateTable('workspace_members').set({ cluster_state: 'ready' }).where('workspace_id', '=', id).execute();
  return id;
}

const show = async (id: number, token = member.token) => (await ctx.inject('GET', `/api/subnamespaces/${id}`, { token })).json();
const outboxTo = (email: string) => ctx.db.selectFrom('mail_outbox').select(['subject', 'text']).where('recipient', '=', email).orderBy('id').execute();
const noticesOf = (id: number) => ctx.db.selectFrom('lifecycle_notices').selectAll().where('subject_type', '=', 'workspace').where('subject_id', '=', id).execute();

describe('a workspace over time', () => {
  it('ends a lifetime after approval, never after its team, and says so; warns once, suspends, renews', async () => {
    clock.set(start);
    const teamId = await team();
    const teamRow = await ctx.db.selectFrom('teams').select('expires_at').where('id', '=', teamId).executeTakeFirstOrThrow();
    expect(teamRow.expires_at).toBe(new Date(start.getTime() + 365 * DAY_MS).toISOString());
    const id = await workspace(teamId);
    const shown = await show(id);
    expect(shown).toMatchObject({ status: 'active', expires_at: new Date(start.getTime() + 180 * DAY_MS).toISOString(), suspension: null });

    // 31 days before: nothing; 29 days before: the first warning, once, even from two runners.
    const end = new Date(shown.expires_at).getTime();
    clock.set(new Date(end - 31 * DAY_MS));
    await runner().runOnce();
    expect(await noticesOf(id)).toHaveLength(0);
    clock.set(new Date(end - 29 * DAY_MS));
    const mailsBefore = (await outboxTo(owner.user.email)).length;
    await Promise.all([runner().runOnce(), runner().runOnce()]);
    await runner().runOnce();
    expect((await noticesOf(id)).map((notice) => notice.kind)).toEqual(['workspace_warning']);
    const mails = await outboxTo(owner.user.email);
    expect(mails.length - mailsBefore).toBe(1);
    expect(mails.at(-1)!.text).toContain(`Space`);
    expect(await show(id)).toMatchObject({ status: 'expiring' });
    // A member (not a manager) is not mailed.
    expect((await outboxTo(member.user.email)).length).toBe(0);

    // 71 hours before: the last warning.
    clock.set(new Date(end - 71 * HOUR_MS));
    await runner().runOnce();
    expect((await noticesOf(id)).map((notice) => notice.kind).sort()).toEqual(['workspace_last_warning', 'workspace_warning']);

    // At the end: suspended, and "suspending" until the reconciler applied it.
    clock.set(new Date(end + HOUR_MS));
    await runner().runOnce();
    const row = await ctx.db.selectFrom('workspaces').select(['suspended_at', 'cluster_state']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ suspended_at: clock.now().toISOString(), cluster_state: 'pending' });
    expect(await show(id)).toMatchObject({ status: 'expired', suspension: 'suspending' });
    const pending = await ctx.db.selectFrom('workspace_members').select('cluster_state').where('workspace_id', '=', id).execute();
    expect(pending.every((membership) => membership.cluster_state === 'pending')).toBe(true);
    await ctx.db.updateTable('workspaces').set({ cluster_state: 'ready' }).where('id', '=', id).execute();
    expect(await show(id)).toMatchObject({ status: 'expired', suspension: 'suspended' });
    const logged = await ctx.db.selectFrom('activity_log').select('properties').where('description', '=', 'workspace suspended').where('subject_id', '=', id).executeTakeFirstOrThrow();
    expect(JSON.parse(logged.properties)).toMatchObject({ cause: 'workspace end date passed' });

    // Renewing: bad input and strangers change nothing; the team owner's renewal is approved at once.
    for (const body of [{ days: 0, reason: 'x' }, { days: -3, reason: 'x' }, { days: 100000, reason: 'x' }, { days: 30 }, { until: '2020-01-01T00:00:00Z', reason: 'x' }, { days: 'ten', reason: 'x' }]) {
      const refused = await ctx.inject('POST', `/api/requests/workspaces/${id}/renewal`, { token: owner.token, body });
      expect(refused.statusCode, JSON.stringify(body)).toBe(422);
    }
    expect((await ctx.inject('POST', `/api/requests/workspaces/${id}/renewal`, { token: member.token, body: { days: 30, reason: 'more' } })).statusCode).toBe(403);
    expect((await ctx.inject('POST', `/api/requests/workspaces/999999/renewal`, { token: owner.token, body: { days: 30, reason: 'more' } })).statusCode).toBe(404);
    const renewed = await ctx.inject('POST', `/api/requests/workspaces/${id}/renewal`, { token: owner.token, body: { days: 60, reason: 'Thesis' } });
    expect(renewed.statusCode).toBe(201);
    expect(renewed.json()).toMatchObject({ type: 'RenewWorkspace', status: 'Approved' });
    const after = await ctx.db.selectFrom('workspaces').select(['suspended_at', 'cluster_state', 'expires_at']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(after).toMatchObject({ suspended_at: null, cluster_state: 'pending', expires_at: new Date(clock.now().getTime() + 60 * DAY_MS).toISOString() });
    expect(await show(id)).toMatchObject({ status: 'active', suspension: null });
  });

  it('sends a longer renewal to platform admins, refuses a second one while it is pending', async () => {
    clock.set(start);
    const id = await workspace(await team());
    const asked = await ctx.inject('POST', `/api/requests/workspaces/${id}/renewal`, { token: owner.token, body: { days: 400, reason: 'long project' } });
    expect(asked.statusCode).toBe(201);
    expect(asked.json()).toMatchObject({ type: 'RenewWorkspace', status: 'Pending' });
    const again = await ctx.inject('POST', `/api/requests/workspaces/${id}/renewal`, { token: owner.token, body: { days: 10, reason: 'again' } });
    expect(again.statusCode).toBe(409);
    const before = await ctx.db.selectFrom('workspaces').select('expires_at').where('id', '=', id).executeTakeFirstOrThrow();
    const approved = await ctx.inject('PATCH', `/api/requests/${asked.json().id}`, { token: admin.token, body: { action: 'approve' } });
    expect(approved.statusCode).toBe(200);
    const after = await ctx.db.selectFrom('workspaces').select('expires_at').where('id', '=', id).executeTakeFirstOrThrow();
    expect(after.expires_at).toBe(new Date(new Date(before.expires_at!).getTime() + 400 * DAY_MS).toISOString());
  });

  it('mails one digest to a person with several ending workspaces, and after downtime only the last warning', async () => {
    clock.set(start);
    const teamId = await team();
    const ids = [await workspace(teamId), await workspace(teamId), await workspace(teamId)];
    const end = new Date((await show(ids[0])).expires_at).getTime();
    const mailsBefore = (await outboxTo(owner.user.email)).length;
    // Off from 40 days before the end until 2 days before it.
    clock.set(new Date(end - 2 * DAY_MS));
    await runner().runOnce();
    const mails = await outboxTo(owner.user.email);
    expect(mails.length - mailsBefore).toBe(1);
    for (const id of ids) expect((await noticesOf(id)).map((notice) => notice.kind)).toEqual(['workspace_last_warning']);
    expect(mails.at(-1)!.subject).toMatch(/3 ends coming up/);
  });

  it('suspends the workspaces of a team past its review date until the team is renewed', async () => {
    clock.set(start);
    const teamId = await team();
    const id = await workspace(teamId);
    const review = await ctx.db.selectFrom('teams').select('expires_at').where('id', '=', teamId).executeTakeFirstOrThrow();
    // The team's review date before the workspace's end:
    await ctx.db.updateTable('teams').set({ expires_at: new Date(start.getTime() + 10 * DAY_MS).toISOString() }).where('id', '=', teamId).execute();
    expect(review.expires_at).not.toBeNull();
    clock.set(new Date(start.getTime() + 11 * DAY_MS));
    await runner().runOnce();
    expect(await show(id)).toMatchObject({ status: 'expired' });
    const notices = await ctx.db.selectFrom('lifecycle_notices').select('kind').where('subject_type', '=', 'team').where('subject_id', '=', teamId).execute();
    expect(notices.map((notice) => notice.kind)).toEqual(['team_last_warning']);
    const logged = await ctx.db.selectFrom('activity_log').select('properties').where('description', '=', 'workspace suspended').where('subject_id', '=', id).executeTakeFirstOrThrow();
    expect(JSON.parse(logged.properties)).toMatchObject({ cause: 'team review date passed' });

    expect((await ctx.inject('POST', `/api/requests/teams/${teamId}/renewal`, { token: member.token, body: { reason: 'x' } })).statusCode).toBe(403);
    const asked = await ctx.inject('POST', `/api/requests/teams/${teamId}/renewal`, { token: owner.token, body: { reason: 'Another year' } });
    expect(asked.statusCode).toBe(201);
    expect(asked.json()).toMatchObject({ type: 'RenewTeam', status: 'Pending', can_decide: false });
    expect((await ctx.inject('POST', `/api/requests/teams/${teamId}/renewal`, { token: owner.token, body: { reason: 'again' } })).statusCode).toBe(409);
    expect((await ctx.inject('PATCH', `/api/requests/${asked.json().id}`, { token: admin.token, body: { action: 'approve' } })).statusCode).toBe(200);
    expect(await show(id)).toMatchObject({ status: 'active', suspension: null });
  });

  it('deletes a suspended workspace after the retention period, with a notice before and its members told', async () => {
    clock.set(start);
    const id = await workspace(await team());
    const end = new Date((await show(id)).expires_at).getTime();
    clock.set(new Date(end + 1000));
    await runner().runOnce();
    // 30 days of retention, the notice 7 days before.
    clock.set(new Date(end + 24 * DAY_MS));
    await runner().runOnce();
    expect((await noticesOf(id)).map((notice) => notice.kind)).toContain('workspace_deletion');
    expect(await ctx.db.selectFrom('workspaces').select('id').where('id', '=', id).executeTakeFirst()).toBeDefined();
    clock.set(new Date(end + 31 * DAY_MS));
    await runner().runOnce();
    expect(await ctx.db.selectFrom('workspaces').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
    expect(await ctx.db.selectFrom('cluster_deletions').select('id').where('workspace_id', '=', id).executeTakeFirst()).toBeDefined();
    const mails = await outboxTo(member.user.email);
    expect(mails.some((mail) => /Workspace deleted/.test(mail.subject))).toBe(true);
    const logged = await ctx.db.selectFrom('activity_log').select('properties').where('description', '=', 'suspended workspace deleted').where('subject_id', '=', id).executeTakeFirstOrThrow();
    expect(JSON.parse(logged.properties)).toMatchObject({ cause: 'retention period ended' });
  });

  it('keeps a workspace that outsiders may not renew', async () => {
    clock.set(start);
    const id = await workspace(await team());
    expect((await ctx.inject('POST', `/api/requests/workspaces/${id}/renewal`, { token: outsider.token, body: { days: 30, reason: 'x' } })).statusCode).toBe(403);
  });

  it('lets platform admins set or clear the end date, and preview what ends next', async () => {
    clock.set(start);
    const id = await workspace(await team());
    const soon = new Date(start.getTime() + 5 * DAY_MS).toISOString();
    expect((await ctx.inject('PATCH', `/api/admin/workspaces/${id}`, { token: owner.token, body: { expires_at: soon } })).statusCode).toBe(403);
    for (const body of [{}, { expires_at: 'tomorrow' }, { expires_at: 5 }]) {
      expect((await ctx.inject('PATCH', `/api/admin/workspaces/${id}`, { token: admin.token, body })).statusCode, JSON.stringify(body)).toBe(422);
    }
    const set = await ctx.inject('PATCH', `/api/admin/workspaces/${id}`, { token: admin.token, body: { expires_at: soon } });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({ expires_at: soon, suspended_at: null });
    expect(await show(id)).toMatchObject({ status: 'expiring', expires_at: soon });

    const preview = await ctx.inject('GET', `/api/admin/lifecycle/preview?until=${encodeURIComponent(new Date(start.getTime() + 6 * DAY_MS).toISOString())}`, { token: admin.token });
    expect(preview.statusCode).toBe(200);
    expect(preview.json().suspensions).toContainEqual(expect.objectContaining({ workspace_id: id, date: soon }));
    expect(preview.json().warnings).toContainEqual(expect.objectContaining({ subject_id: id, kind: 'workspace_last_warning' }));
    expect((await ctx.inject('GET', '/api/admin/lifecycle/preview?until=2001-01-01T00:00:00Z', { token: admin.token })).statusCode).toBe(422);
    expect((await ctx.inject('GET', '/api/admin/lifecycle/preview', { token: owner.token })).statusCode).toBe(403);

    const cleared = await ctx.inject('PATCH', `/api/admin/workspaces/${id}`, { token: admin.token, body: { expires_at: null } });
    expect(cleared.json()).toMatchObject({ expires_at: null });
    expect(await show(id)).toMatchObject({ expires_at: null });
  });
});

/** A team member who manages the workspace without managing the team. */
async function workspaceManager(teamId: number, workspaceId: number): Promise<SignedInUser> {
  const person = await ctx.signedInUser();
  await ctx.db.insertInto('team_members').values({ team_id: teamId, user_id: person.user.id, role: 'member', enabled: 1, created_at: new Date().toISOString() }).execute();
  await ctx.db.insertInto('workspace_members').values({ workspace_id: workspaceId, user_id: person.user.id, role: 'manager', created_at: new Date().toISOString() }).execute();
  return person;
}

const setRetention = async (retention_days: number | null) =>
  expect((await ctx.inject('PATCH', '/api/admin/settings', { token: admin.token, body: { retention_days } })).statusCode).toBe(200);

describe("a workspace's end capped by its team's review date", () => {
  it('is the review date when that comes before the lifetime, on the owner’s own request and on an approval', async () => {
    clock.set(start);
    const teamId = await team();
    const review = new Date(start.getTime() + 20 * DAY_MS).toISOString();
    await ctx.db.updateTable('teams').set({ expires_at: review }).where('id', '=', teamId).execute();

    const own = await workspace(teamId);
    expect(await show(own)).toMatchObject({ expires_at: review, ends_at: review, status: 'expiring' });

    const asked = await ctx.inject('POST', '/api/requests/workspaces', { token: member.token, body: { label: 'Space asked', name: `asked${++counter}`, team_id: teamId } });
    expect(asked.json()).toMatchObject({ status: 'Pending' });
    const approved = await ctx.inject('PATCH', `/api/requests/${asked.json().id}`, { token: owner.token, body: { action: 'approve' } });
    expect(approved.statusCode, approved.body).toBe(200);
    const row = await ctx.db.selectFrom('workspaces').select('expires_at').where('team_id', '=', teamId).where('label', '=', 'Space asked').executeTakeFirstOrThrow();
    expect(row.expires_at).toBe(review);
  });
});

describe('renewals refused', () => {
  const renewalsOf = (id: number) => ctx.db.selectFrom('requests').select(['id', 'status']).where('type', '=', 'RenewWorkspace').where('workspace_id', '=', id).execute();
  const endOf = async (id: number) => (await ctx.db.selectFrom('workspaces').select('expires_at').where('id', '=', id).executeTakeFirstOrThrow()).expires_at;
  const renew = (id: number, token: string, body: unknown) => ctx.inject('POST', `/api/requests/workspaces/${id}/renewal`, { token, body });

  it('leave no request behind and the end where it was (422, 403, 409)', async () => {
    clock.set(start);
    const id = await workspace(await team());
    const end = await endOf(id);
    expect((await renew(id, owner.token, { days: 0, reason: 'x' })).statusCode).toBe(422);
    expect((await renew(id, member.token, { days: 30, reason: 'x' })).statusCode).toBe(403);
    expect(await renewalsOf(id)).toEqual([]);
    expect(await endOf(id)).toBe(end);

    // One for platform admins pending; a second one (which the owner could otherwise approve at once) is a 409.
    const pending = await renew(id, owner.token, { days: 400, reason: 'long project' });
    expect(pending.json()).toMatchObject({ status: 'Pending' });
    expect((await renew(id, owner.token, { days: 10, reason: 'again' })).statusCode).toBe(409);
    expect(await renewalsOf(id)).toEqual([{ id: pending.json().id, status: 'Pending' }]);
    expect(await endOf(id)).toBe(end);
  });

  it('longer than the lifetime: the team owner may not decide it, platform admins do', async () => {
    clock.set(start);
    const teamId = await team();
    const id = await workspace(teamId);
    const wsManager = await workspaceManager(teamId, id);
    const end = await endOf(id);

    const long = await renew(id, wsManager.token, { days: 400, reason: 'long project' });
    expect(long.json()).toMatchObject({ status: 'Pending', data: { days: 400, admins_decide: true } });
    // Not the team owner's to decide, nor to see (docs/api-contract.md: 404 not visible).
    expect((await ctx.inject('PATCH', `/api/requests/${long.json().id}`, { token: owner.token, body: { action: 'approve' } })).statusCode).toBe(404);
    expect(await renewalsOf(id)).toEqual([{ id: long.json().id, status: 'Pending' }]);
    expect(await endOf(id)).toBe(end);
    expect((await ctx.inject('PATCH', `/api/requests/${long.json().id}`, { token: admin.token, body: { action: 'deny' } })).statusCode).toBe(200);

    // Asked by the team owner: not approved at once, and theirs but not theirs to decide (403).
    const own = await renew(id, owner.token, { days: 181, reason: 'long project' });
    expect(own.json()).toMatchObject({ status: 'Pending', can_decide: false, data: { admins_decide: true } });
    expect((await ctx.inject('PATCH', `/api/requests/${own.json().id}`, { token: owner.token, body: { action: 'approve' } })).statusCode).toBe(403);
    expect(await endOf(id)).toBe(end);
    expect((await ctx.inject('PATCH', `/api/requests/${own.json().id}`, { token: admin.token, body: { action: 'deny' } })).statusCode).toBe(200);

    // Within the lifetime, the same request is the team owner's to decide.
    const short = await renew(id, wsManager.token, { days: 60, reason: 'a term' });
    expect(short.json()).toMatchObject({ status: 'Pending' });
    expect((await ctx.inject('PATCH', `/api/requests/${short.json().id}`, { token: owner.token, body: { action: 'approve' } })).statusCode).toBe(200);
    expect(await endOf(id)).toBe(new Date(Date.parse(end!) + 60 * DAY_MS).toISOString());
  });
});

describe('retention', () => {
  it('set to "never", keeps a suspended workspace long after its end', async () => {
    clock.set(start);
    const id = await workspace(await team());
    const end = new Date((await show(id)).expires_at).getTime();
    await setRetention(null);
    try {
      clock.set(new Date(end + HOUR_MS));
      await runner().runOnce();
      expect(await show(id)).toMatchObject({ status: 'expired' });
      // Well past the default 30 days.
      clock.set(new Date(end + 100 * DAY_MS));
      await runner().runOnce();
      expect(await ctx.db.selectFrom('workspaces').select('suspended_at').where('id', '=', id).executeTakeFirst()).toEqual({ suspended_at: new Date(end + HOUR_MS).toISOString() });
      expect((await noticesOf(id)).map((notice) => notice.kind)).not.toContain('workspace_deletion');
      const preview = await ctx.inject('GET', `/api/admin/lifecycle/preview?until=${encodeURIComponent(new Date(end + 1000 * DAY_MS).toISOString())}`, { token: admin.token });
      expect(preview.json().deletions).not.toContainEqual(expect.objectContaining({ workspace_id: id }));
    } finally {
      await setRetention(30);
    }
  });

  it('by default, warns the managers and team owners 7 days before the deletion, which the preview lists', async () => {
    clock.set(start);
    const teamId = await team();
    const id = await workspace(teamId);
    const wsManager = await workspaceManager(teamId, id);
    // The shared member manages workspaces of other tests ending at the same time: a member of this one only.
    const plain = await ctx.signedInUser();
    await ctx.db.insertInto('team_members').values({ team_id: teamId, user_id: plain.user.id, role: 'member', enabled: 1, created_at: new Date().toISOString() }).execute();
    // The owner manages the workspace they asked for: a second owner is told as the team's owner only.
    const coOwner = await ctx.signedInUser();
    await ctx.db.insertInto('team_members').values({ team_id: teamId, user_id: coOwner.user.id, role: 'owner', enabled: 1, created_at: new Date().toISOString() }).execute();
    await ctx.db.insertInto('workspace_members').values({ workspace_id: id, user_id: plain.user.id, role: 'member', created_at: new Date().toISOString() }).execute();
    const { label, expires_at } = await show(id);
    const end = Date.parse(expires_at);
    clock.set(new Date(end + 1000));
    await runner().runOnce();
    // Suspended at 2030-06-30T10:00:01Z, so deleted 30 days after.
    const deletion = new Date(end + 1000 + 30 * DAY_MS).toISOString();
    expect(deletion).toBe('2030-07-30T10:00:01.000Z');

    const preview = async (until: number) =>
      (await ctx.inject('GET', `/api/admin/lifecycle/preview?until=${encodeURIComponent(new Date(until).toISOString())}`, { token: admin.token })).json().deletions;
    expect(await preview(Date.parse(deletion) - DAY_MS)).not.toContainEqual(expect.objectContaining({ workspace_id: id }));
    expect(await preview(Date.parse(deletion) + HOUR_MS)).toContainEqual({ workspace_id: id, label, team: expect.stringMatching(/^Team /), date: deletion });

    // The suspending pass sent its own last warning: only what follows counts.
    const before = { owner: (await outboxTo(owner.user.email)).length, plain: (await outboxTo(plain.user.email)).length, manager: (await outboxTo(wsManager.user.email)).length, coOwner: (await outboxTo(coOwner.user.email)).length };
    clock.set(new Date(Date.parse(deletion) - 7 * DAY_MS + HOUR_MS));
    await runner().runOnce();
    await runner().runOnce();
    const line = `will be deleted on 2030-07-30 10:00 UTC, with everything in it.`;
    const toOwner = (await outboxTo(owner.user.email)).slice(before.owner);
    const toManager = (await outboxTo(wsManager.user.email)).slice(before.manager);
    const toCoOwner = (await outboxTo(coOwner.user.email)).slice(before.coOwner);
    for (const mails of [toOwner, toManager, toCoOwner]) {
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toBe('Workspaces are about to be deleted');
      expect(mails[0]!.text).toContain(`The suspended workspace “${label}”`);
      expect(mails[0]!.text).toContain(line);
    }
    // A plain member of the workspace hears of it when it is deleted, not before.
    expect((await outboxTo(plain.user.email)).slice(before.plain)).toEqual([]);
    const logged = await ctx.db.selectFrom('activity_log').select('properties').where('description', '=', 'lifecycle notice sent').where('subject_type', '=', 'workspace').where('subject_id', '=', id).execute();
    const deletionNotice = logged.map((entry) => JSON.parse(entry.properties)).find((entry) => entry.kind === 'workspace_deletion');
    expect(deletionNotice).toMatchObject({ date: deletion, cause: 'retention period ends' });
    expect([...deletionNotice.recipients].sort()).toEqual([owner.user.id, coOwner.user.id, wsManager.user.id].sort());
  });
});
