import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMITS } from '../src/config/config.js';
import { ABOVE_OWN_ROLE, ALREADY_INVITED, ALREADY_MEMBER, NOT_AN_INVITER } from '../src/invitations/invitations.js';
import { createTestContext, type SignedInUser, type TestContext, uniqueEmail } from './helpers.js';
import { addTeamMember, createWorld, insertTeam, insertWorkspace, type World } from './teamFixtures.js';

// Many addresses in one invitation call (POST /api/tenants/{id}/invitations {emails}): a class
// invited until the end of term. One outcome per distinct address; a refusal of what they share
// refuses the call with nothing sent; the invitation budgets hold, and say when they are spent.

let ctx: TestContext;
let world: World;

beforeAll(async () => {
  ctx = await createTestContext();
  world = await createWorld(ctx);
});
afterAll(async () => ctx?.close());

const inviteMany = (token: string, body: Record<string, unknown>, teamId = world.team.id, headers?: Record<string, string>) =>
  ctx.inject('POST', `/api/tenants/${teamId}/invitations`, { token, body, headers });

const invitationsTo = (teamId: number, emails: string[]) =>
  ctx.db.selectFrom('invitations').selectAll().where('team_id', '=', teamId).where('email', 'in', emails).where('status', '=', 'pending').execute();

const endOfTerm = () => new Date(Date.now() + 120 * 86_400_000).toISOString();

describe('inviting many addresses at once', () => {
  it('answers one outcome per distinct address, in order, invites the new ones and mails each', async () => {
    const { owner, member } = world.people;
    const pending = uniqueEmail('pending');
    expect((await inviteMany(owner.token, { email: pending, role: 'member' })).statusCode).toBe(201);
    const [first, second, third] = [uniqueEmail('student'), uniqueEmail('student'), uniqueEmail('student')];
    const until = endOfTerm();

    const response = await inviteMany(owner.token, {
      emails: [first, `  ${second.toUpperCase()} `, member.user.email, 'not an address', pending, first, third],
      role: 'member',
      workspace_ids: [world.workspace.id],
      membership_expires_at: until,
    });
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json();
    expect(answer.results.map((result: { email: string; status: string; message: string | null }) => [result.email, result.status, result.message])).toEqual([
      [first, 'created', null],
      [second, 'created', null],
      [member.user.email, 'already_member', ALREADY_MEMBER],
      ['not an address', 'invalid', 'Invalid email'],
      [pending, 'already_invited', ALREADY_INVITED],
      [third, 'created', null],
    ]);
    expect(answer.totals).toEqual({ requested: 6, created: 3, already_member: 1, already_invited: 1, invalid: 1, limited: 0 });
    expect(answer.retry_after).toBeNull();
    expect(answer.results[0].invitation).toMatchObject({
      email: first,
      role: 'member',
      status: 'pending',
      workspaces: [{ id: world.workspace.id }],
      membership_expires_at: new Date(until).toISOString(),
      invited_by: { id: owner.user.id },
    });
    expect(answer.results[2].invitation).toBeNull();

    const stored = await invitationsTo(world.team.id, [first, second, third]);
    expect(stored).toHaveLength(3);
    for (const invitation of stored) expect(invitation.membership_expires_at).toBe(new Date(until).toISOString());
    // Each new address gets its own mail, through the outbox.
    await ctx.idle();
    for (const address of [first, second, third]) {
      const mail = await ctx.mailbox.waitFor(address, { subject: /invites you/ });
      expect(mail.text).toContain('/invitations/');
    }
    const sent = await ctx.db.selectFrom('activity_log').select('properties').where('description', '=', 'invitation sent').where('subject_id', '=', world.team.id).execute();
    expect(sent.filter((entry) => [first, second, third].some((address) => String(entry.properties).includes(address)))).toHaveLength(3);
  });

  it('in French, says why each address was not invited in French', async () => {
    const response = await inviteMany(world.people.owner.token, { emails: [world.people.member.user.email, 'nope'], role: 'member' }, world.team.id, {
      'Accept-Language': 'fr',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().results.map((result: { message: string }) => result.message)).toEqual(['Cette personne est déjà membre de cette équipe.', 'Adresse e-mail invalide']);
  });

  it('refuses the whole call on a bad shape or terms, with nothing sent', async () => {
    const { owner, manager } = world.people;
    const fresh = uniqueEmail('untouched');
    const otherTeam = await insertTeam(ctx);
    const foreign = await insertWorkspace(ctx, otherTeam);
    const refusals: [Record<string, unknown>, number, string][] = [
      [{ emails: 'a@b.example', role: 'member' }, 422, 'emails'],
      [{ emails: [], role: 'member' }, 422, 'emails'],
      [{ emails: Array.from({ length: 201 }, (_, index) => `s${index}@class.example`), role: 'member' }, 422, 'emails'],
      [{ emails: [fresh, 42], role: 'member' }, 422, 'emails.1'],
      [{ email: fresh, emails: [fresh], role: 'member' }, 422, 'emails'],
      [{ emails: [fresh], role: 'chief' }, 422, 'role'],
      [{ emails: [fresh], role: 'member', workspace_ids: [foreign.id] }, 422, 'workspace_ids'],
      [{ emails: [fresh], role: 'member', membership_expires_at: '2001-01-01T00:00:00Z' }, 422, 'membership_expires_at'],
    ];
    for (const [body, status, field] of refusals) {
      const response = await inviteMany(owner.token, body);
      expect(response.statusCode, `${JSON.stringify(body).slice(0, 80)}: ${response.body}`).toBe(status);
      expect(Object.keys(response.json().errors ?? {}), JSON.stringify(body).slice(0, 80)).toContain(field);
    }
    const above = await inviteMany(manager.token, { emails: [fresh], role: 'owner' });
    expect(above.statusCode).toBe(403);
    expect(above.json().message).toBe(ABOVE_OWN_ROLE);
    const notAllowed = await inviteMany(world.people.member.token, { emails: [fresh], role: 'member' });
    expect(notAllowed.statusCode).toBe(403);
    expect(notAllowed.json().message).toBe(NOT_AN_INVITER);
    expect((await inviteMany(owner.token, { emails: [fresh], role: 'member' }, 999_999)).statusCode).toBe(404);
    expect(await invitationsTo(world.team.id, [fresh])).toEqual([]);
  });

  it('takes 200 addresses in one call, each with its mail in the outbox', async () => {
    const emails = Array.from({ length: 200 }, (_, index) => uniqueEmail(`class${index}`));
    // This context has no rate limits: the budgets are the next test's.
    const response = await inviteMany(world.people.admin.token, { emails, role: 'member', membership_expires_at: endOfTerm() });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().totals).toEqual({ requested: 200, created: 200, already_member: 0, already_invited: 0, invalid: 0, limited: 0 });
    expect(await invitationsTo(world.team.id, emails)).toHaveLength(200);
    const mails = await ctx.db.selectFrom('mail_outbox').select('recipient').where('recipient', 'in', emails).execute();
    expect(new Set(mails.map((mail) => mail.recipient)).size).toBe(200);
  });
});

describe('a class under the default budgets', () => {
  let withBudgets: TestContext;
  beforeAll(async () => {
    withBudgets = await createTestContext({ config: { rateLimits: DEFAULT_RATE_LIMITS } });
  });
  afterAll(async () => withBudgets?.close());

  it('lets a team manager invite sixty students until the end of term in one call', async () => {
    const team = await insertTeam(withBudgets);
    const manager = await withBudgets.signedInUser();
    await addTeamMember(withBudgets, team.id, manager.user.id, 'manager');
    const emails = Array.from({ length: 60 }, (_, index) => uniqueEmail(`student${index}`));
    const until = endOfTerm();
    const response = await withBudgets.inject('POST', `/api/tenants/${team.id}/invitations`, {
      token: manager.token,
      body: { emails, role: 'member', membership_expires_at: until },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().totals).toMatchObject({ requested: 60, created: 60, limited: 0 });
    const rows = await withBudgets.db.selectFrom('invitations').select(['email', 'membership_expires_at']).where('team_id', '=', team.id).execute();
    expect(rows).toHaveLength(60);
    expect(new Set(rows.map((row) => new Date(row.membership_expires_at!).toISOString()))).toEqual(new Set([new Date(until).toISOString()]));
  });
});

describe('budgets', () => {
  let limited: TestContext;
  beforeAll(async () => {
    limited = await createTestContext({
      config: {
        rateLimits: {
          ...DEFAULT_RATE_LIMITS,
          invitationTeam: { max: 5, windowSeconds: 600 },
          invitationTeamInviter: { max: 3, windowSeconds: 600 },
          invitationInviter: { max: 50, windowSeconds: 600 },
        },
      },
    });
  });
  afterAll(async () => limited?.close());

  it("sends up to the inviter's share and the team's budget, then says which is spent and when to try again", async () => {
    const team = await insertTeam(limited);
    const [first, second]: SignedInUser[] = await Promise.all([limited.signedInUser(), limited.signedInUser()]);
    await addTeamMember(limited, team.id, first.user.id, 'owner');
    await addTeamMember(limited, team.id, second.user.id, 'manager');
    const send = (who: SignedInUser, emails: string[]) =>
      limited.inject('POST', `/api/tenants/${team.id}/invitations`, { token: who.token, body: { emails, role: 'member' } });

    const class1 = Array.from({ length: 5 }, () => uniqueEmail('pupil'));
    const one = await send(first, [...class1, 'bad address']);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json().results.map((result: { status: string }) => result.status)).toEqual(['created', 'created', 'created', 'limited', 'limited', 'invalid']);
    expect(one.json().results[3].message).toMatch(/^You may send 3 invitations per 0\.17 h for this team and have reached that limit\. Try again in (\d+ minutes|1 minute|less than a minute)\.$/);
    expect(one.json().retry_after).toBeGreaterThan(0);
    expect(await limited.db.selectFrom('invitations').select('email').where('team_id', '=', team.id).execute()).toHaveLength(3);

    // The other manager has a share of their own, but the team has 2 mails left.
    const class2 = Array.from({ length: 3 }, () => uniqueEmail('pupil'));
    const two = await send(second, class2);
    expect(two.json().totals).toMatchObject({ created: 2, limited: 1 });
    expect(two.json().results[2].message).toMatch(/^This team may send 5 invitations per 0\.17 h and has reached that limit\./);

    // Nothing left to send: addresses that would not be mailed anyway do not count.
    const three = await send(second, [class1[0]!, 'again bad']);
    expect(three.json().results.map((result: { status: string }) => result.status)).toEqual(['already_invited', 'invalid']);
    expect(three.json().retry_after).toBeNull();
  });
});
