import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMITS, INVITATIONS_PER_INVITER_PER_TEAM } from '../src/config/config.js';
import { timestamp } from '../src/db/database.js';
import type { TeamRole } from '../src/db/schema.js';
import { grantRefusal, INVITER_CANNOT_GRANT, TEAM_GONE, TEAM_SUSPENDED } from '../src/invitations/rights.js';
import { createTestContext, linkIn, type SignedInUser, type TestContext, uniqueEmail } from './helpers.js';
import { addTeamMember, insertTeam } from './teamFixtures.js';

// An invitation grants its role on its inviter's word: accepting it checks that the word still
// holds (the team enabled; the inviter still an enabled owner or manager of it with a role at
// least the invitation's, or an enabled platform admin). And invitation mails are budgeted per
// team, per inviter in a team, per inviter overall, and per platform admin. Both databases.

describe('the grant rule', () => {
  const enabledTeam = { enabled: true };
  const person = { admin: false, enabled: true };
  const state = (inviterRole: TeamRole | null, inviter: { admin: boolean; enabled: boolean } | null = person, team = enabledTeam) => ({ team, inviter, inviterRole });

  it('holds for an owner or manager within their role, and an enabled platform admin', () => {
    expect(grantRefusal('owner', state('owner'))).toBeNull();
    expect(grantRefusal('manager', state('manager'))).toBeNull();
    expect(grantRefusal('member', state('manager'))).toBeNull();
    expect(grantRefusal('owner', state(null, { admin: true, enabled: true }))).toBeNull();
  });

  it('fails for a role above the inviter’s, a member, a former member, a disabled or deleted account', () => {
    expect(grantRefusal('owner', state('manager'))).toBe(INVITER_CANNOT_GRANT);
    expect(grantRefusal('member', state('member'))).toBe(INVITER_CANNOT_GRANT);
    expect(grantRefusal('member', state(null))).toBe(INVITER_CANNOT_GRANT);
    expect(grantRefusal('member', state('owner', { admin: false, enabled: false }))).toBe(INVITER_CANNOT_GRANT);
    expect(grantRefusal('member', state(null, { admin: true, enabled: false }))).toBe(INVITER_CANNOT_GRANT);
    expect(grantRefusal('member', state('owner', null))).toBe(INVITER_CANNOT_GRANT);
  });

  it('fails for a suspended or deleted team, whoever invited', () => {
    expect(grantRefusal('member', state(null, { admin: true, enabled: true }, { enabled: false }))).toBe(TEAM_SUSPENDED);
    expect(grantRefusal('member', { team: null, inviter: person, inviterRole: 'owner' })).toBe(TEAM_GONE);
  });
});

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx?.close());

/** A team with an owner, and `inviter` in it with `role` (or not in it: null). */
async function teamWith(role: TeamRole | null, options: { admin?: boolean } = {}) {
  const team = await insertTeam(ctx);
  const [owner, inviter] = await Promise.all([ctx.signedInUser(), ctx.signedInUser({ admin: options.admin ?? false })]);
  await addTeamMember(ctx, team.id, owner.user.id, 'owner');
  if (role) await addTeamMember(ctx, team.id, inviter.user.id, role);
  return { team, owner, inviter };
}

/** `by` invites a new signed-in person with `role`; answers the link's API path and the person. */
async function invitedBy(by: SignedInUser, teamId: number, role: TeamRole) {
  const guest = await ctx.signedInUser({ email: uniqueEmail('guest') });
  const response = await ctx.inject('POST', `/api/tenants/${teamId}/invitations`, { token: by.token, body: { email: guest.user.email, role } });
  expect(response.statusCode, response.body).toBe(201);
  await ctx.idle();
  const link = linkIn(await ctx.mailbox.waitFor(guest.user.email, { subject: /invites you/ }), '/invitations/');
  return { guest, invitation: response.json(), path: `/api${link.pathname}` };
}

const membership = (teamId: number, userId: number) =>
  ctx.db.selectFrom('team_members').select(['role']).where('team_id', '=', teamId).where('user_id', '=', userId).executeTakeFirst();

const statusOf = async (id: number) => (await ctx.db.selectFrom('invitations').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

/** The link and the acceptance both refuse with `message` (and its French), leaving the invitation pending and nobody joined. */
async function expectRefused(invited: Awaited<ReturnType<typeof invitedBy>>, teamId: number, message: string, french: string) {
  const preview = await ctx.inject('GET', invited.path);
  expect(preview.statusCode, preview.body).toBe(403);
  expect(preview.json().message).toBe(message);
  const accepted = await ctx.inject('POST', `${invited.path}/accept`, { token: invited.guest.token });
  expect(accepted.statusCode, accepted.body).toBe(403);
  expect(accepted.json().message).toBe(message);
  const inFrench = await ctx.inject('POST', `${invited.path}/accept`, { token: invited.guest.token, headers: { 'accept-language': 'fr' } });
  expect(inFrench.json().message).toBe(french);
  expect(await statusOf(invited.invitation.id)).toBe('pending');
  expect(await membership(teamId, invited.guest.user.id)).toBeUndefined();
}

const CANNOT_GRANT_FR =
  'La personne qui a envoyé cette invitation ne peut plus inviter quelqu’un dans cette équipe avec ce rôle. Demandez à l’équipe de vous la renvoyer.';
const SUSPENDED_FR = 'Cette équipe est suspendue : ses invitations ne peuvent pas être acceptées tant qu’elle n’est pas réactivée.';

describe('accepting checks the inviter’s rights as they are now', () => {
  it('refuses a manager’s invitation as manager once the manager is demoted to member; an owner’s resend makes it good', async () => {
    const { team, owner, inviter } = await teamWith('manager');
    const invited = await invitedBy(inviter, team.id, 'manager');
    await ctx.db.updateTable('team_members').set({ role: 'member' }).where('team_id', '=', team.id).where('user_id', '=', inviter.user.id).execute();
    await expectRefused(invited, team.id, INVITER_CANNOT_GRANT, CANNOT_GRANT_FR);

    // The team page tells its owners and managers which invitations lost their inviter's word.
    const list = await ctx.inject('GET', `/api/tenants/${team.id}/invitations`, { token: owner.token });
    expect(list.json().find((entry: { id: number }) => entry.id === invited.invitation.id)).toMatchObject({ inviter_can_grant: false });

    const resent = await ctx.inject('POST', `/api/tenants/${team.id}/invitations/${invited.invitation.id}/resend`, { token: owner.token });
    expect(resent.statusCode, resent.body).toBe(200);
    expect(resent.json()).toMatchObject({ inviter_can_grant: true, invited_by: { id: owner.user.id } });
    await ctx.idle();
    const link = linkIn(await ctx.mailbox.waitFor(invited.guest.user.email, { subject: /invites you/ }), '/invitations/');
    const accepted = await ctx.inject('POST', `/api${link.pathname}/accept`, { token: invited.guest.token });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect((await membership(team.id, invited.guest.user.id))?.role).toBe('manager');
  });

  it('refuses an owner-role invitation of an owner demoted to manager, but not their member-role one', async () => {
    const { team, inviter } = await teamWith('owner');
    const asOwner = await invitedBy(inviter, team.id, 'owner');
    const asMember = await invitedBy(inviter, team.id, 'member');
    await ctx.db.updateTable('team_members').set({ role: 'manager' }).where('team_id', '=', team.id).where('user_id', '=', inviter.user.id).execute();
    await expectRefused(asOwner, team.id, INVITER_CANNOT_GRANT, CANNOT_GRANT_FR);
    const accepted = await ctx.inject('POST', `${asMember.path}/accept`, { token: asMember.guest.token });
    expect(accepted.statusCode, accepted.body).toBe(200);
  });

  it('refuses the invitations of an inviter removed from the team', async () => {
    const { team, owner, inviter } = await teamWith('manager');
    const invited = await invitedBy(inviter, team.id, 'member');
    const removed = await ctx.inject('DELETE', `/api/tenants/${team.id}/users/${inviter.user.id}`, { token: owner.token });
    expect(removed.statusCode, removed.body).toBeLessThan(300);
    await expectRefused(invited, team.id, INVITER_CANNOT_GRANT, CANNOT_GRANT_FR);
  });

  it('refuses the invitations of an inviter whose membership or account is disabled, or whose account is gone', async () => {
    const { team, inviter } = await teamWith('manager');
    const first = await invitedBy(inviter, team.id, 'member');
    const second = await invitedBy(inviter, team.id, 'member');
    const third = await invitedBy(inviter, team.id, 'member');
    await ctx.db.updateTable('team_members').set({ enabled: 0 }).where('team_id', '=', team.id).where('user_id', '=', inviter.user.id).execute();
    await expectRefused(first, team.id, INVITER_CANNOT_GRANT, CANNOT_GRANT_FR);

    await ctx.db.updateTable('team_members').set({ enabled: 1 }).where('team_id', '=', team.id).where('user_id', '=', inviter.user.id).execute();
    await ctx.db.updateTable('users').set({ enabled: 0 }).where('id', '=', inviter.user.id).execute();
    await expectRefused(second, team.id, INVITER_CANNOT_GRANT, CANNOT_GRANT_FR);

    // A deleted account leaves invited_by empty (ON DELETE SET NULL): nobody vouches any more.
    await ctx.db.updateTable('invitations').set({ invited_by: null }).where('id', '=', third.invitation.id).execute();
    await ctx.db.updateTable('users').set({ enabled: 1 }).where('id', '=', inviter.user.id).execute();
    await expectRefused(third, team.id, INVITER_CANNOT_GRANT, CANNOT_GRANT_FR);

    // Rights given back: the others are acceptable again.
    expect((await ctx.inject('POST', `${first.path}/accept`, { token: first.guest.token })).statusCode).toBe(200);
  });

  it('accepts a platform admin’s invitation (no membership needed) while the admin is enabled', async () => {
    const { team, inviter: admin } = await teamWith(null, { admin: true });
    const first = await invitedBy(admin, team.id, 'owner');
    const second = await invitedBy(admin, team.id, 'owner');
    expect((await ctx.inject('POST', `${first.path}/accept`, { token: first.guest.token })).statusCode).toBe(200);
    await ctx.db.updateTable('users').set({ enabled: 0 }).where('id', '=', admin.user.id).execute();
    await expectRefused(second, team.id, INVITER_CANNOT_GRANT, CANNOT_GRANT_FR);
  });
});

describe('a suspended team', () => {
  it('refuses its invitations, even a platform admin’s, until it is enabled again', async () => {
    const { team, owner } = await teamWith(null);
    const admin = await ctx.signedInUser({ admin: true });
    const byOwner = await invitedBy(owner, team.id, 'member');
    const byAdmin = await invitedBy(admin, team.id, 'member');
    const suspended = await ctx.inject('PATCH', `/api/admin/teams/${team.id}`, { token: admin.token, body: { enabled: false } });
    expect(suspended.statusCode, suspended.body).toBe(200);
    await expectRefused(byOwner, team.id, TEAM_SUSPENDED, SUSPENDED_FR);
    await expectRefused(byAdmin, team.id, TEAM_SUSPENDED, SUSPENDED_FR);

    await ctx.db.updateTable('teams').set({ enabled: 1, updated_at: timestamp() }).where('id', '=', team.id).execute();
    expect((await ctx.inject('POST', `${byOwner.path}/accept`, { token: byOwner.guest.token })).statusCode).toBe(200);
    expect((await ctx.inject('POST', `${byAdmin.path}/accept`, { token: byAdmin.guest.token })).statusCode).toBe(200);
  });
});

describe('invitation budgets', () => {
  let limited: TestContext;
  const budgets = {
    invitationTeam: { max: 4, windowSeconds: 86400 },
    invitationTeamInviter: { max: 2, windowSeconds: 86400 },
    invitationInviter: { max: 10, windowSeconds: 3600 },
    invitationAdmin: { max: 3, windowSeconds: 86400 },
  };
  beforeAll(async () => {
    limited = await createTestContext({ config: { rateLimits: { ...DEFAULT_RATE_LIMITS, ...budgets } } });
  });
  afterAll(async () => limited?.close());

  const send = (who: SignedInUser, teamId: number, headers?: Record<string, string>) =>
    limited.inject('POST', `/api/tenants/${teamId}/invitations`, { token: who.token, body: { email: uniqueEmail(), role: 'member' }, headers });

  it('gives each owner or manager a share of the team’s daily budget, the team’s total kept; platform admins are outside it, with a cap of their own', async () => {
    const team = await insertTeam(limited);
    const [owner, manager, coOwner, admin] = await Promise.all([
      limited.signedInUser(),
      limited.signedInUser(),
      limited.signedInUser(),
      limited.signedInUser({ admin: true }),
    ]);
    await addTeamMember(limited, team.id, owner.user.id, 'owner');
    await addTeamMember(limited, team.id, manager.user.id, 'manager');
    await addTeamMember(limited, team.id, coOwner.user.id, 'owner');

    // The admin's mails do not spend the team's budget (4): all the others still fit after them.
    for (let i = 0; i < 3; i++) expect((await send(admin, team.id)).statusCode).toBe(201);
    const adminCapped = await send(admin, team.id);
    expect(adminCapped.statusCode).toBe(429);
    expect(adminCapped.json().message).toMatch(/^As a platform admin you may send 3 invitations per 24 h, whatever the team, and have reached that limit\. Try again in (\d+ minutes|1 minute|less than a minute)\.$/);
    expect(Number(adminCapped.headers['retry-after'])).toBeGreaterThan(3600);

    // One owner spends their share (2), not the team's whole budget.
    expect((await send(owner, team.id)).statusCode).toBe(201);
    expect((await send(owner, team.id)).statusCode).toBe(201);
    const share = await send(owner, team.id);
    expect(share.statusCode).toBe(429);
    expect(share.json().message).toMatch(/^You may send 2 invitations per 24 h for this team and have reached that limit\. Try again in (\d+ minutes|1 minute|less than a minute)\.$/);
    const shareFr = await send(owner, team.id, { 'accept-language': 'fr' });
    expect(shareFr.json().message).toMatch(/^Vous pouvez envoyer 2 invitations par 24 h pour cette équipe et avez atteint cette limite\. Réessayez dans (\d+ minutes|1 minute|moins d’une minute)\.$/);

    // The manager has their own share; then the team's total (4) is reached for everyone.
    expect((await send(manager, team.id)).statusCode).toBe(201);
    const resend = await limited.inject('POST', `/api/tenants/${team.id}/invitations/${(await send(manager, team.id)).json().id}/resend`, { token: coOwner.token });
    expect(resend.statusCode).toBe(429);
    expect(resend.json().message).toMatch(/^This team may send 4 invitations per 24 h and has reached that limit\. Try again in (\d+ minutes|1 minute|less than a minute)\.$/);
    const teamFr = await send(coOwner, team.id, { 'accept-language': 'fr' });
    expect(teamFr.statusCode).toBe(429);
    expect(teamFr.json().message).toMatch(/^Cette équipe peut envoyer 4 invitations par 24 h et a atteint cette limite\. Réessayez dans (\d+ minutes|1 minute|moins d’une minute)\.$/);
    // A refusal by the team's budget gives back the co-owner's share: it spent nothing.
    const shareRow = await limited.db.selectFrom('throttles').select('hits').where('key', '=', `invitation-team-inviter:${team.id}:${coOwner.user.id}`).executeTakeFirst();
    expect(Number(shareRow?.hits ?? 0)).toBe(0);
  });

  it('keeps the hourly cap per person across teams, naming it', async () => {
    const person = await limited.signedInUser();
    const teams = await Promise.all(Array.from({ length: 6 }, () => insertTeam(limited)));
    for (const team of teams) await addTeamMember(limited, team.id, person.user.id, 'owner');
    for (let i = 0; i < 10; i++) expect((await send(person, teams[i % 5]!.id)).statusCode).toBe(201);
    const capped = await send(person, teams[5]!.id);
    expect(capped.statusCode).toBe(429);
    expect(capped.json().message).toMatch(/^You may send 10 invitations per 1 h, whatever the team, and have reached that limit\. Try again in (\d+ minutes|1 minute|less than a minute)\.$/);
  });

  it('defaults to a share of half the team’s budget', () => {
    expect(DEFAULT_RATE_LIMITS.invitationTeamInviter).toEqual({ max: INVITATIONS_PER_INVITER_PER_TEAM, windowSeconds: 86400 });
    expect(INVITATIONS_PER_INVITER_PER_TEAM * 2).toBe(DEFAULT_RATE_LIMITS.invitationTeam.max);
    expect(DEFAULT_RATE_LIMITS.invitationAdmin.windowSeconds).toBe(86400);
  });
});
