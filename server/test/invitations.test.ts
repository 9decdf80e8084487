import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMITS } from '../src/config/config.js';
import {
  ABOVE_OWN_ROLE,
  ALREADY_INVITED,
  ALREADY_MEMBER,
  INVALID_INVITATION,
  INVITATION_EXPIRED,
  INVITATION_REVOKED,
  INVITATION_USED,
  NOT_AN_INVITER,
} from '../src/invitations/invitations.js';
import { createTestContext, DEFAULT_PASSWORD, linkIn, type SignedInUser, type TestContext, uniqueEmail } from './helpers.js';
import { createWorld, insertTeam, insertWorkspace, addTeamMember, type World } from './teamFixtures.js';

// Invitations: POST/GET /api/tenants/{id}/invitations, resend, revoke, and the mailed
// link (GET /api/invitations/{id}/{token}, POST …/accept), on the real database and SMTP.

let ctx: TestContext;
let world: World;

beforeAll(async () => {
  ctx = await createTestContext();
  world = await createWorld(ctx);
});
afterAll(async () => ctx?.close());

const invite = (token: string | undefined, body: Record<string, unknown>, teamId = world.team.id) =>
  ctx.inject('POST', `/api/tenants/${teamId}/invitations`, { token, body });

/** Invites `email` as the owner and answers the invitation and the mailed link's path parts. */
async function invited(email = uniqueEmail('guest'), body: Record<string, unknown> = {}, by: SignedInUser = world.people.owner) {
  const response = await invite(by.token, { email, role: 'member', ...body });
  expect(response.statusCode, response.body).toBe(201);
  await ctx.idle();
  const mail = await ctx.mailbox.waitFor(email, { subject: /invites you/ });
  const link = linkIn(mail, '/invitations/');
  const [, , id, token] = link.pathname.split('/');
  return { invitation: response.json(), email, mail, link, id, token, path: `/api/invitations/${id}/${token}` };
}

/** A person registered through the console (unverified, policy not accepted), logged in. */
async function registered(email: string): Promise<{ token: string; id: number }> {
  const response = await ctx.register({ email });
  expect(response.statusCode, response.body).toBe(201);
  return { token: await ctx.login(email, DEFAULT_PASSWORD), id: response.json().user.id };
}

describe('inviting', () => {
  it('mails a link that a person without an account follows after registering: team and workspaces at once, email verified', async () => {
    const { invitation, mail, link, path, email } = await invited(undefined, { role: 'manager', workspace_ids: [world.workspace.id] });
    expect(invitation).toMatchObject({ email, role: 'manager', status: 'pending', expired: false, workspaces: [{ id: world.workspace.id }] });
    expect(invitation.invited_by.name).toBe('Olivia Owner');
    expect(link.origin).toBe('http://console.test');
    expect(mail.text).toContain('Olivia Owner invites you to join the team');
    expect(mail.text).toContain('valid for 7 days');
    expect(Date.parse(invitation.expires_at) - Date.parse(invitation.sent_at)).toBe(7 * 86_400_000);

    const preview = await ctx.inject('GET', path);
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toMatchObject({ email, role: 'manager', team: { id: world.team.id }, invited_by: 'Olivia Owner' });

    expect((await ctx.inject('POST', `${path}/accept`)).statusCode).toBe(401);
    const person = await registered(email);
    const accepted = await ctx.inject('POST', `${path}/accept`, { token: person.token });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ team: { id: world.team.id }, role: 'manager', workspaces: [{ id: world.workspace.id }] });

    const membership = await ctx.db.selectFrom('team_members').selectAll().where('team_id', '=', world.team.id).where('user_id', '=', person.id).executeTakeFirstOrThrow();
    expect(membership).toMatchObject({ role: 'manager', enabled: 1 });
    const workspaceMembership = await ctx.db
      .selectFrom('workspace_members')
      .selectAll()
      .where('workspace_id', '=', world.workspace.id)
      .where('user_id', '=', person.id)
      .executeTakeFirstOrThrow();
    // Handed to the cluster reconciler exactly as an approved JoinWorkspace is.
    expect(workspaceMembership).toMatchObject({ role: 'member', cluster_state: 'pending' });
    const user = await ctx.db.selectFrom('users').selectAll().where('id', '=', person.id).executeTakeFirstOrThrow();
    expect(user.email_verified_at).not.toBeNull();
    const activity = await ctx.db.selectFrom('activity_log').selectAll().where('causer_id', '=', person.id).execute();
    expect(activity.map((entry) => entry.description)).toEqual(
      expect.arrayContaining(['invitation accepted', 'team member added', 'workspace member added', 'email verified']),
    );

    // Once only.
    const again = await ctx.inject('POST', `${path}/accept`, { token: person.token });
    expect(again.statusCode).toBe(403);
    expect(again.json().message).toBe(INVITATION_USED);
    expect((await ctx.inject('GET', path)).json().message).toBe(INVITATION_USED);
    const list = await ctx.inject('GET', `/api/tenants/${world.team.id}/invitations`, { token: world.people.owner.token });
    expect(list.json().map((entry: { id: number }) => entry.id)).not.toContain(invitation.id);
  });

  it('lets a signed-in, onboarded person with the address join at once', async () => {
    const person = await ctx.signedInUser();
    const { path } = await invited(person.user.email);
    const accepted = await ctx.inject('POST', `${path}/accept`, { token: person.token });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const team = await ctx.inject('GET', `/api/tenants/${world.team.id}`, { token: person.token });
    expect(team.json()).toMatchObject({ member: true, role: 'member' });
  });

  it('refuses another address with a clear 403, leaving the invitation usable by the right person', async () => {
    const other = await ctx.signedInUser();
    const { path, email, invitation } = await invited();
    const refused = await ctx.inject('POST', `${path}/accept`, { token: other.token });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toContain(`sent to ${email}`);
    expect(refused.json().message).toContain(`signed in as ${other.user.email}`);
    const row = await ctx.db.selectFrom('invitations').selectAll().where('id', '=', invitation.id).executeTakeFirstOrThrow();
    expect(row.status).toBe('pending');
    const person = await registered(email);
    expect((await ctx.inject('POST', `${path}/accept`, { token: person.token })).statusCode).toBe(200);
  });

  it('refuses an expired link; a resend gives a new link (the old one stops working) for 7 more days', async () => {
    const { path, email, invitation, id } = await invited();
    await ctx.db.updateTable('invitations').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('id', '=', invitation.id).execute();
    const person = await registered(email);
    const expired = await ctx.inject('POST', `${path}/accept`, { token: person.token });
    expect(expired.statusCode).toBe(403);
    expect(expired.json().message).toBe(INVITATION_EXPIRED);
    const list = await ctx.inject('GET', `/api/tenants/${world.team.id}/invitations`, { token: world.people.manager.token });
    expect(list.json().find((entry: { id: number }) => entry.id === invitation.id)).toMatchObject({ expired: true });

    const resent = await ctx.inject('POST', `/api/tenants/${world.team.id}/invitations/${id}/resend`, { token: world.people.manager.token });
    expect(resent.statusCode, resent.body).toBe(200);
    expect(resent.json()).toMatchObject({ id: invitation.id, expired: false });
    await ctx.idle();
    const newLink = linkIn(await ctx.mailbox.waitFor(email, { subject: /invites you/ }), '/invitations/');
    const old = await ctx.inject('POST', `${path}/accept`, { token: person.token });
    expect(old.statusCode).toBe(403);
    expect(old.json().message).toBe(INVALID_INVITATION);
    expect((await ctx.inject('POST', `/api${newLink.pathname}/accept`, { token: person.token })).statusCode).toBe(200);
  });

  it('refuses a revoked link, and a tampered or malformed one', async () => {
    const { path, email, id, token } = await invited();
    const revoked = await ctx.inject('DELETE', `/api/tenants/${world.team.id}/invitations/${id}`, { token: world.people.owner.token });
    expect(revoked.statusCode, revoked.body).toBe(204);
    expect((await ctx.inject('DELETE', `/api/tenants/${world.team.id}/invitations/${id}`, { token: world.people.owner.token })).statusCode).toBe(409);
    const person = await registered(email);
    const refused = await ctx.inject('POST', `${path}/accept`, { token: person.token });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(INVITATION_REVOKED);
    expect((await ctx.inject('GET', path)).json().message).toBe(INVITATION_REVOKED);

    const tampered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    for (const bad of [`/api/invitations/${id}/${tampered}`, `/api/invitations/99999/${token}`, `/api/invitations/x/${token}`, `/api/invitations/${id}/short`]) {
      const answer = await ctx.inject('GET', bad);
      expect(answer.statusCode, bad).toBe(403);
      expect(answer.json().message).toBe(INVALID_INVITATION);
      expect((await ctx.inject('POST', `${bad}/accept`, { token: person.token })).statusCode).toBe(403);
    }
  });

  it('keeps the role within the inviter’s own (platform admins excepted)', async () => {
    const { owner, manager, admin } = world.people;
    const above = await invite(manager.token, { email: uniqueEmail('boss'), role: 'owner' });
    expect(above.statusCode).toBe(403);
    expect(above.json().message).toBe(ABOVE_OWN_ROLE);
    expect((await invite(manager.token, { email: uniqueEmail('peer'), role: 'manager' })).statusCode).toBe(201);
    expect((await invite(owner.token, { email: uniqueEmail('co'), role: 'owner' })).statusCode).toBe(201);
    expect((await invite(admin.token, { email: uniqueEmail('adm'), role: 'owner' })).statusCode).toBe(201);
    // A manager cannot resend an owner's invitation either (it would grant owner).
    const ownerInvite = (await invite(owner.token, { email: uniqueEmail('co2'), role: 'owner' })).json();
    const resend = await ctx.inject('POST', `/api/tenants/${world.team.id}/invitations/${ownerInvite.id}/resend`, { token: manager.token });
    expect(resend.statusCode).toBe(403);
  });

  it('validates the invitation: 422 with field messages, 409 for a pending duplicate', async () => {
    const { owner, member } = world.people;
    const bad = await invite(owner.token, { email: 'not an email', role: 'chief', workspace_ids: ['x'] });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(expect.arrayContaining(['email', 'role']));
    const missing = await invite(owner.token, {});
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors.email).toBeDefined();

    const otherTeam = await insertTeam(ctx);
    const foreign = await insertWorkspace(ctx, otherTeam);
    const wrongSpace = await invite(owner.token, { email: uniqueEmail(), role: 'member', workspace_ids: [foreign.id] });
    expect(wrongSpace.statusCode).toBe(422);
    expect(wrongSpace.json().errors.workspace_ids).toBeDefined();

    const already = await invite(owner.token, { email: member.user.email, role: 'member' });
    expect(already.statusCode).toBe(422);
    expect(already.json().errors.email).toEqual([ALREADY_MEMBER]);

    const email = uniqueEmail('twice');
    expect((await invite(owner.token, { email, role: 'member' })).statusCode).toBe(201);
    const twice = await invite(owner.token, { email: email.toUpperCase(), role: 'member' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe(ALREADY_INVITED);
  });
});

describe('who may do what', () => {
  type Who = 'anonymous' | 'admin' | 'owner' | 'manager' | 'member' | 'outsider' | 'disabledManager';
  const allowed: Record<Who, boolean> = {
    anonymous: false,
    admin: true,
    owner: true,
    manager: true,
    member: false,
    outsider: false,
    disabledManager: false,
  };
  const callers = Object.keys(allowed) as Who[];
  const tokenOf = (who: Who) => (who === 'anonymous' ? undefined : world.people[who].token);
  const refusal = (who: Who) => (who === 'anonymous' ? 401 : 403);

  it.each(callers)('lists, invites, resends and revokes: %s', async (who) => {
    const token = tokenOf(who);
    const base = `/api/tenants/${world.team.id}/invitations`;
    const list = await ctx.inject('GET', base, { token });
    const created = await ctx.inject('POST', base, { token, body: { email: uniqueEmail(who), role: 'member' } });
    const target = (await invite(world.people.owner.token, { email: uniqueEmail('target'), role: 'member' })).json();
    const resent = await ctx.inject('POST', `${base}/${target.id}/resend`, { token });
    const revoked = await ctx.inject('DELETE', `${base}/${target.id}`, { token });
    if (allowed[who]) {
      expect(list.statusCode, list.body).toBe(200);
      expect(created.statusCode, created.body).toBe(201);
      expect(resent.statusCode, resent.body).toBe(200);
      expect(revoked.statusCode, revoked.body).toBe(204);
    } else {
      for (const answer of [list, created, resent, revoked]) {
        expect(answer.statusCode, answer.body).toBe(refusal(who));
        if (who !== 'anonymous') expect(answer.json().message).toBe(NOT_AN_INVITER);
      }
    }
  });

  it('answers 404 for an unknown team or an invitation of another team', async () => {
    const { owner, admin } = world.people;
    expect((await ctx.inject('GET', '/api/tenants/999999/invitations', { token: admin.token })).statusCode).toBe(404);
    const otherTeam = await insertTeam(ctx);
    await addTeamMember(ctx, otherTeam.id, owner.user.id, 'owner');
    const elsewhere = (await invite(owner.token, { email: uniqueEmail(), role: 'member' }, otherTeam.id)).json();
    expect((await ctx.inject('DELETE', `/api/tenants/${world.team.id}/invitations/${elsewhere.id}`, { token: owner.token })).statusCode).toBe(404);
    expect((await ctx.inject('POST', `/api/tenants/${world.team.id}/invitations/${elsewhere.id}/resend`, { token: owner.token })).statusCode).toBe(404);
  });
});

describe('throttling', () => {
  let limited: TestContext;
  beforeAll(async () => {
    limited = await createTestContext({
      config: {
        rateLimits: {
          ...DEFAULT_RATE_LIMITS,
          invitationTeam: { max: 3, windowSeconds: 600 },
          invitationInviter: { max: 2, windowSeconds: 600 },
        },
      },
    });
  });
  afterAll(async () => limited?.close());

  it('limits mails per inviter (whatever the team) and per team (whoever invites), resends included', async () => {
    const teamA = await insertTeam(limited);
    const teamB = await insertTeam(limited);
    const [first, second] = await Promise.all([limited.signedInUser(), limited.signedInUser()]);
    await addTeamMember(limited, teamA.id, first.user.id, 'owner');
    await addTeamMember(limited, teamB.id, first.user.id, 'owner');
    await addTeamMember(limited, teamA.id, second.user.id, 'owner');
    const send = (who: SignedInUser, teamId: number) =>
      limited.inject('POST', `/api/tenants/${teamId}/invitations`, { token: who.token, body: { email: uniqueEmail(), role: 'member' } });

    const a1 = await send(first, teamA.id);
    expect(a1.statusCode).toBe(201);
    expect((await limited.inject('POST', `/api/tenants/${teamA.id}/invitations/${a1.json().id}/resend`, { token: first.token })).statusCode).toBe(200);
    const perInviter = await send(first, teamB.id);
    expect(perInviter.statusCode).toBe(429);
    expect(Number(perInviter.headers['retry-after'])).toBeGreaterThan(0);
    expect(await limited.db.selectFrom('invitations').select('id').where('team_id', '=', teamB.id).execute()).toEqual([]);

    // The team has had 2 mails; the other owner may send one more, then the team is at its limit.
    expect((await send(second, teamA.id)).statusCode).toBe(201);
    expect((await send(second, teamA.id)).statusCode).toBe(429);
    // A refused validation does not count.
    const invalid = await limited.inject('POST', `/api/tenants/${teamB.id}/invitations`, { token: first.token, body: { email: 'nope', role: 'member' } });
    expect(invalid.statusCode).toBe(422);
  });
});
