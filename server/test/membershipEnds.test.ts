import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS, movableClock } from '../src/clock.js';
import { createTestContext, type TestContext, unique, lifecycleRunner } from './helpers.js';
import { addTeamMember, addWorkspaceMember, insertTeam, insertWorkspace, submit } from './teamFixtures.js';

// Memberships that end (docs/lifecycle.md): the end date set by managers, on an invitation and on
// the approval of a join; the warning membership_warning_days before (one digest mail per
// person, once, whatever the passes and runners); the removal at the end exactly as a manager's
// (workspaces, cluster access through the reconciler's revocations, realtime rights), recorded as
// "team membership ended"; a pass after downtime catching up. Every transition with a movable
// clock; on SQLite and, with DATABASE_URL, on PostgreSQL.

let ctx: TestContext;
const clock = movableClock(new Date());
const rightsChanged: number[][] = [];
let clusterSyncs = 0;

const runner = () =>
  lifecycleRunner(ctx, clock, {
    broadcaster: { toUser() {}, toWorkspace() {}, rightsChanged: (ids) => rightsChanged.push(ids) },
    clusterSync: { request: () => clusterSyncs++, listen: () => () => {} },
  });

const iso = (ms: number) => new Date(clock.now().getTime() + ms).toISOString();
const outboxTo = (email: string) => ctx.db.selectFrom('mail_outbox').select(['subject', 'text']).where('recipient', '=', email).execute();
const membership = (teamId: number, userId: number) =>
  ctx.db.selectFrom('team_members').select(['role', 'expires_at']).where('team_id', '=', teamId).where('user_id', '=', userId).executeTakeFirst();

async function smallTeam() {
  const team = await insertTeam(ctx);
  const workspace = await insertWorkspace(ctx, team);
  const [owner, manager, member] = await Promise.all([
    ctx.signedInUser({ firstname: 'Olivia', lastname: 'Owner' }),
    ctx.signedInUser({ firstname: 'Manu', lastname: 'Manager' }),
    ctx.signedInUser({ firstname: 'Sam', lastname: 'Student' }),
  ]);
  await addTeamMember(ctx, team.id, owner.user.id, 'owner');
  await addTeamMember(ctx, team.id, manager.user.id, 'manager');
  await addTeamMember(ctx, team.id, member.user.id, 'member');
  await addWorkspaceMember(ctx, workspace.id, member.user.id, 'member');
  return { team, workspace, owner, manager, member };
}

const setEnd = (token: string, teamId: number, userId: number, body: unknown) => ctx.inject('PATCH', `/api/tenants/${teamId}/users/${userId}`, { token, body });

beforeAll(async () => {
  ctx = await createTestContext({ clock });
});
afterAll(() => ctx.close());

describe('PATCH /api/tenants/{id}/users/{userId} {expires_at}', () => {
  it("sets, shows and clears a membership's end, by the team's owners and managers", async () => {
    const { team, manager, member, owner } = await smallTeam();
    const end = iso(30 * DAY_MS);
    const answer = await setEnd(manager.token, team.id, member.user.id, { expires_at: end });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({ id: member.user.id, team_id: team.id, role: 'member', previous: 'member', expires_at: end });
    const page = (await ctx.inject('GET', `/api/tenants/${team.id}`, { token: owner.token })).json();
    expect(page.users.find((user: { id: number }) => user.id === member.user.id).pivot).toEqual({ role: 'member', expires_at: end });
    const entry = await ctx.db.selectFrom('activity_log').selectAll().where('description', '=', 'team membership end changed').where('causer_id', '=', manager.user.id).executeTakeFirstOrThrow();
    expect(JSON.parse(entry.properties)).toMatchObject({ user_id: member.user.id, from: null, to: end });

    // A role and an end in one call; then the end removed.
    const both = await setEnd(owner.token, team.id, member.user.id, { role: 'manager', expires_at: null });
    expect(both.json()).toMatchObject({ role: 'manager', previous: 'member', expires_at: null });
    // An offset is normalised to UTC.
    const offset = await setEnd(owner.token, team.id, member.user.id, { expires_at: '2030-01-01T12:00:00+02:00' });
    expect(offset.json().expires_at).toBe('2030-01-01T10:00:00.000Z');
  });

  it('refuses past, malformed and absurd dates (422), and people who may not (403), changing nothing', async () => {
    const { team, manager, member, owner } = await smallTeam();
    for (const expires_at of [iso(-HOUR_MS), clock.now().toISOString(), 'tomorrow', '2030-13-01T00:00:00Z', 12, iso(11 * 366 * DAY_MS), '2030-06-01']) {
      const answer = await setEnd(manager.token, team.id, member.user.id, { expires_at, role: 'manager' });
      expect(answer.statusCode, String(expires_at)).toBe(422);
      expect(answer.json().errors.expires_at, String(expires_at)).toBeDefined();
    }
    const french = await ctx.inject('PATCH', `/api/tenants/${team.id}/users/${member.user.id}`, { token: manager.token, body: { expires_at: iso(-HOUR_MS) }, headers: { 'accept-language': 'fr' } });
    expect(french.json().errors.expires_at).toEqual(['La date de fin doit être dans le futur.']);
    expect((await setEnd(manager.token, team.id, member.user.id, {})).statusCode).toBe(422);
    // A member may not; a manager may not act on an owner.
    expect((await setEnd(member.token, team.id, manager.user.id, { expires_at: iso(DAY_MS) })).statusCode).toBe(403);
    expect((await setEnd(manager.token, team.id, owner.user.id, { expires_at: iso(DAY_MS) })).statusCode).toBe(403);
    expect((await setEnd(manager.token, team.id, 999999, { expires_at: iso(DAY_MS) })).statusCode).toBe(404);
    expect(await membership(team.id, member.user.id)).toEqual({ role: 'member', expires_at: null });
    expect(await membership(team.id, owner.user.id)).toEqual({ role: 'owner', expires_at: null });
  });
});

describe('end dates given on joining', () => {
  it('an invitation carries membership_expires_at to the membership it gives', async () => {
    const { team, manager } = await smallTeam();
    const student = await ctx.signedInUser();
    const bad = await ctx.inject('POST', `/api/tenants/${team.id}/invitations`, { token: manager.token, body: { email: student.user.email, role: 'member', membership_expires_at: iso(-DAY_MS) } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.membership_expires_at).toBeDefined();
    expect(await ctx.db.selectFrom('invitations').select('id').where('email', '=', student.user.email).execute()).toEqual([]);

    const end = iso(120 * DAY_MS);
    const sent = await ctx.inject('POST', `/api/tenants/${team.id}/invitations`, { token: manager.token, body: { email: student.user.email, role: 'member', membership_expires_at: end } });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json().membership_expires_at).toBe(end);
    const mail = await ctx.mailbox.waitFor(student.user.email);
    const link = new URL(mail.text.match(/https?:\/\/\S+\/invitations\/\S+/)![0]);
    const [, , id, token] = link.pathname.split('/');
    const accepted = await ctx.inject('POST', `/api/invitations/${id}/${token}/accept`, { token: student.token });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(await membership(team.id, student.user.id)).toEqual({ role: 'member', expires_at: end });
  });

  it('the approval of a JoinTeam may give one; other requests refuse it', async () => {
    const { team, owner, workspace } = await smallTeam();
    const world = { team, workspace } as Parameters<typeof submit>[1];
    const joiner = await ctx.signedInUser();
    const request = (await submit(ctx, world, 'JoinTeam', joiner.token)).json();
    const decide = (body: unknown) => ctx.inject('PATCH', `/api/requests/${request.id}`, { token: owner.token, body });
    expect((await decide({ action: 'approve', membership_expires_at: iso(-DAY_MS) })).statusCode).toBe(422);
    expect((await decide({ action: 'approve', membership_expires_at: 'soon' })).statusCode).toBe(422);
    expect(await membership(team.id, joiner.user.id)).toBeUndefined();
    const end = iso(90 * DAY_MS);
    const approved = await decide({ action: 'approve', membership_expires_at: end });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(await membership(team.id, joiner.user.id)).toEqual({ role: 'member', expires_at: end });

    const creator = await ctx.signedInUser();
    await addTeamMember(ctx, team.id, creator.user.id, 'member');
    const create = (await ctx.inject('POST', '/api/requests/workspaces', { token: creator.token, body: { label: 'Space', name: unique('space-'), team_id: team.id } })).json();
    const refused = await ctx.inject('PATCH', `/api/requests/${create.id}`, { token: owner.token, body: { action: 'approve', membership_expires_at: end } });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.membership_expires_at).toBeDefined();
  });
});

describe('the lifecycle pass', () => {
  it('warns the member and the managers once (one mail each), then removes the membership as a manager would', async () => {
    const { team, workspace, owner, manager, member } = await smallTeam();
    const classmate = await ctx.signedInUser({ firstname: 'Cleo', lastname: 'Classmate' });
    await addTeamMember(ctx, team.id, classmate.user.id, 'member');
    const end = iso(10 * DAY_MS);
    await setEnd(manager.token, team.id, member.user.id, { expires_at: end });
    await setEnd(manager.token, team.id, classmate.user.id, { expires_at: end });

    await runner().runOnce();
    expect(await outboxTo(member.user.email)).toEqual([]);

    clock.advance(3 * DAY_MS + HOUR_MS); // within the 7 days
    const first = await runner().runOnce();
    expect(first.steps.every((step) => !step.error), JSON.stringify(first)).toBe(true);
    // A second pass, and another replica's runner: nothing more.
    await runner().runOnce();
    await Promise.all([runner().runOnce(), runner().runOnce()]);
    const toMember = await outboxTo(member.user.email);
    expect(toMember).toHaveLength(1);
    expect(toMember[0].subject).toMatch(/Team memberships ending soon/);
    expect(toMember[0].text).toContain(`Your membership of the team ${team.name} ends on ${end.slice(0, 10)}`);
    for (const person of [owner, manager]) {
      const mails = await outboxTo(person.user.email);
      expect(mails, person.user.email).toHaveLength(1);
      expect(mails[0].text).toContain('Sam Student');
      expect(mails[0].text).toContain('Cleo Classmate');
    }
    expect(await ctx.db.selectFrom('lifecycle_notices').select('id').where('kind', '=', 'membership_ending').execute()).toHaveLength(2);
    // Each warning in the activity log once, filed under the team, naming whose membership ends
    // and who was told (the member and the team's owner and manager, not the classmate).
    const noticed = await ctx.db.selectFrom('activity_log').selectAll().where('description', '=', 'lifecycle notice sent').where('subject_type', '=', 'team').where('subject_id', '=', team.id).execute();
    expect(noticed).toHaveLength(2);
    expect(noticed.every((entry) => entry.causer_id === null)).toBe(true);
    const logged = noticed.map((entry) => JSON.parse(entry.properties)).sort((a, b) => a.user_id - b.user_id);
    for (const [entry, person] of [member, classmate].sort((a, b) => a.user.id - b.user.id).map((person, index) => [logged[index], person] as const)) {
      expect(entry).toEqual({ kind: 'membership_ending', user_id: person.user.id, date: end, cause: 'membership end date', recipients: expect.any(Array), severity: 'info' });
      expect([...entry.recipients].sort()).toEqual([person.user.id, owner.user.id, manager.user.id].sort());
    }
    expect(await membership(team.id, member.user.id)).toBeDefined();

    clock.set(new Date(Date.parse(end) + 1000));
    rightsChanged.length = 0;
    clusterSyncs = 0;
    await Promise.all([runner().runOnce(), runner().runOnce()]);
    expect(await membership(team.id, member.user.id)).toBeUndefined();
    expect(await membership(team.id, classmate.user.id)).toBeUndefined();
    // Out of the team's workspaces, their cluster access withdrawn by the reconciler, realtime re-checked.
    expect(await ctx.db.selectFrom('workspace_members').select('id').where('workspace_id', '=', workspace.id).where('user_id', '=', member.user.id).execute()).toEqual([]);
    const revocations = await ctx.db.selectFrom('cluster_revocations').select(['namespace', 'user_id']).where('user_id', '=', member.user.id).execute();
    expect(revocations).toEqual([{ namespace: workspace.namespace, user_id: member.user.id }]);
    expect(rightsChanged.flat().sort()).toEqual([member.user.id, classmate.user.id].sort());
    expect(clusterSyncs).toBeGreaterThan(0);
    const ended = await ctx.db.selectFrom('activity_log').selectAll().where('description', '=', 'team membership ended').where('subject_id', '=', team.id).execute();
    expect(ended).toHaveLength(2);
    expect(ended[0].causer_id).toBeNull();
    expect(JSON.parse(ended[0].properties)).toMatchObject({ cause: 'membership ended', expires_at: end });
    // The ended member's API answers lose the team at once.
    expect((await ctx.inject('GET', `/api/tenants/${team.id}`, { token: member.token })).json().member).toBe(false);
    // Nothing more on the next pass.
    rightsChanged.length = 0;
    await runner().runOnce();
    expect(rightsChanged).toEqual([]);
    expect(await outboxTo(member.user.email)).toHaveLength(1);
  });

  it('catches up after downtime: a membership that ended while no server ran is warned of once and removed', async () => {
    const { team, manager, member } = await smallTeam();
    const end = iso(20 * DAY_MS);
    await setEnd(manager.token, team.id, member.user.id, { expires_at: end });
    clock.advance(40 * DAY_MS);
    await runner().runOnce();
    await runner().runOnce();
    expect(await membership(team.id, member.user.id)).toBeUndefined();
    expect(await outboxTo(member.user.email)).toHaveLength(1);
    expect(await outboxTo(manager.user.email)).toHaveLength(1);
  });

  it('a moved end date is warned of afresh; a cleared one is never removed', async () => {
    const { team, owner, manager, member } = await smallTeam();
    await setEnd(owner.token, team.id, member.user.id, { expires_at: iso(5 * DAY_MS) });
    await setEnd(owner.token, team.id, manager.user.id, { expires_at: iso(2 * DAY_MS) });
    await runner().runOnce();
    expect(await outboxTo(member.user.email)).toHaveLength(1);
    await setEnd(owner.token, team.id, member.user.id, { expires_at: iso(6 * DAY_MS) });
    await setEnd(owner.token, team.id, manager.user.id, { expires_at: null });
    await runner().runOnce();
    expect(await outboxTo(member.user.email)).toHaveLength(2);
    clock.advance(3 * DAY_MS);
    await runner().runOnce();
    expect(await membership(team.id, manager.user.id)).toEqual({ role: 'manager', expires_at: null });
  });

  it('warns of no suspended membership, nor of one in a suspended team, until it is enabled again', async () => {
    const { team, manager, member } = await smallTeam();
    const other = await smallTeam();
    await setEnd(manager.token, team.id, member.user.id, { expires_at: iso(3 * DAY_MS) });
    await setEnd(other.manager.token, other.team.id, other.member.user.id, { expires_at: iso(3 * DAY_MS) });
    // The first team's member suspended, and the whole of the other team.
    const setEnabled = async (enabled: 0 | 1) => {
      await ctx.db.updateTable('team_members').set({ enabled }).where('team_id', '=', team.id).where('user_id', '=', member.user.id).execute();
      await ctx.db.updateTable('teams').set({ enabled }).where('id', '=', other.team.id).execute();
    };
    const told = [member, manager, other.member, other.manager];
    await setEnabled(0);
    await runner().runOnce();
    for (const person of told) expect(await outboxTo(person.user.email), person.user.email).toEqual([]);

    await setEnabled(1);
    clock.advance(HOUR_MS);
    await runner().runOnce();
    for (const person of told) expect(await outboxTo(person.user.email), person.user.email).toHaveLength(1);
  });

  it("keeps a team's last owner until someone else is made owner", async () => {
    const { team, owner } = await smallTeam();
    const admin = await ctx.signedInUser({ admin: true });
    await setEnd(admin.token, team.id, owner.user.id, { expires_at: iso(HOUR_MS) });
    clock.advance(2 * HOUR_MS);
    const result = await runner().runOnce();
    expect(result.steps.every((step) => !step.error)).toBe(true);
    expect(await membership(team.id, owner.user.id)).toMatchObject({ role: 'owner' });
  });
});
