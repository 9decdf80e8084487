import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS, movableClock } from '../src/clock.js';
import { APP_NAME } from '../src/config/config.js';
import { timestamp } from '../src/db/database.js';
import { createTestContext, type SignedInUser, type TestContext, lifecycleRunner } from './helpers.js';
import { addTeamMember, addWorkspaceMember, insertTeam, insertWorkspace } from './teamFixtures.js';

// The lifecycle pass's warnings (docs/lifecycle.md): who gets them (a team's review warnings go
// to its owners only), that each is sent once and recorded in the activity log with its cause and
// recipients, and that they are written in each recipient's language (the digest of workspace
// ends and the mail of memberships that end, in French for a French account).

let ctx: TestContext;
const start = new Date('2030-01-01T10:00:00.000Z');
const clock = movableClock(start);
const runner = () => lifecycleRunner(ctx, clock);

beforeAll(async () => {
  ctx = await createTestContext({ clock });
});
afterAll(() => ctx.close());

const at = (ms: number) => timestamp(new Date(start.getTime() + ms));
const outboxTo = (person: SignedInUser) => ctx.db.selectFrom('mail_outbox').select(['subject', 'text']).where('recipient', '=', person.user.email).orderBy('id').execute();
const noticeEntries = (type: 'workspace' | 'team', id: number) =>
  ctx.db.selectFrom('activity_log').selectAll().where('description', '=', 'lifecycle notice sent').where('subject_type', '=', type).where('subject_id', '=', id).orderBy('id').execute();
const ids = (...people: SignedInUser[]) => people.map((person) => person.user.id).sort((a, b) => a - b);
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);

async function french(person: SignedInUser) {
  const answer = await ctx.inject('PATCH', '/user', { token: person.token, body: { locale: 'fr' } });
  expect(answer.statusCode, answer.body).toBe(200);
}

describe('workspace warnings', () => {
  it('records each one in the activity log, once, with its cause and the people mailed', async () => {
    clock.set(start);
    const team = await insertTeam(ctx);
    const workspace = await insertWorkspace(ctx, team);
    const [owner, manager, wsManager, wsMember] = await Promise.all([ctx.signedInUser(), ctx.signedInUser(), ctx.signedInUser(), ctx.signedInUser()]);
    await addTeamMember(ctx, team.id, owner.user.id, 'owner');
    await addTeamMember(ctx, team.id, manager.user.id, 'manager');
    await addTeamMember(ctx, team.id, wsManager.user.id, 'member');
    await addTeamMember(ctx, team.id, wsMember.user.id, 'member');
    await addWorkspaceMember(ctx, workspace.id, wsManager.user.id, 'manager');
    await addWorkspaceMember(ctx, workspace.id, wsMember.user.id, 'member');
    const end = at(20 * DAY_MS);
    await ctx.db.updateTable('workspaces').set({ expires_at: end }).where('id', '=', workspace.id).execute();

    await runner().runOnce();
    await runner().runOnce();
    const entries = await noticeEntries('workspace', workspace.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]!.causer_id).toBeNull();
    const logged = JSON.parse(entries[0]!.properties);
    expect(logged).toEqual({ kind: 'workspace_warning', date: end, cause: 'workspace end date', recipients: expect.any(Array), severity: 'info' });
    expect(sorted(logged.recipients)).toEqual(ids(owner, manager, wsManager));
    // The log names exactly the people mailed: the workspace's member was not.
    for (const person of [owner, manager, wsManager]) expect(await outboxTo(person)).toHaveLength(1);
    expect(await outboxTo(wsMember)).toEqual([]);
  });
});

describe("a team's review warnings", () => {
  it('go to its owners, not its members, 30 days and 72 hours before, each once', async () => {
    clock.set(start);
    const team = await insertTeam(ctx);
    const [owner, coOwner, manager, member] = await Promise.all([ctx.signedInUser(), ctx.signedInUser(), ctx.signedInUser(), ctx.signedInUser()]);
    await addTeamMember(ctx, team.id, owner.user.id, 'owner');
    await addTeamMember(ctx, team.id, coOwner.user.id, 'owner');
    await addTeamMember(ctx, team.id, manager.user.id, 'manager');
    await addTeamMember(ctx, team.id, member.user.id, 'member');
    const review = at(100 * DAY_MS);
    await ctx.db.updateTable('teams').set({ expires_at: review }).where('id', '=', team.id).execute();
    const notices = async () =>
      (await ctx.db.selectFrom('lifecycle_notices').select('kind').where('subject_type', '=', 'team').where('subject_id', '=', team.id).execute()).map((notice) => notice.kind).sort();
    const line = `The team “${team.fullname}” reaches its review date on 2030-04-11 10:00 UTC: unless it is renewed, its workspaces will be suspended.`;

    // 31 days before: too early.
    clock.set(new Date(Date.parse(review) - 31 * DAY_MS));
    await runner().runOnce();
    expect(await notices()).toEqual([]);

    // 29 days before: the first warning, to each owner once, however many passes.
    clock.set(new Date(Date.parse(review) - 29 * DAY_MS));
    await runner().runOnce();
    await runner().runOnce();
    expect(await notices()).toEqual(['team_warning']);
    for (const person of [owner, coOwner]) {
      const mails = await outboxTo(person);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toBe(`Ending soon: ${team.fullname}`);
      expect(mails[0]!.text).toContain(line);
    }
    // A team's review is its owners' business (docs/lifecycle.md): neither its managers nor its members are mailed.
    expect(await outboxTo(member)).toEqual([]);
    expect(await outboxTo(manager)).toEqual([]);

    // 71 hours before: the last warning, once.
    clock.set(new Date(Date.parse(review) - 71 * HOUR_MS));
    await runner().runOnce();
    await runner().runOnce();
    expect(await notices()).toEqual(['team_last_warning', 'team_warning']);
    for (const person of [owner, coOwner]) {
      const mails = await outboxTo(person);
      expect(mails).toHaveLength(2);
      expect(mails[1]!.text).toContain(line);
    }
    expect(await outboxTo(member)).toEqual([]);
    expect(await outboxTo(manager)).toEqual([]);

    const entries = (await noticeEntries('team', team.id)).map((entry) => JSON.parse(entry.properties));
    expect(entries.map((entry) => [entry.kind, entry.cause, entry.date, sorted(entry.recipients)])).toEqual([
      ['team_warning', 'team review date', review, ids(owner, coOwner)],
      ['team_last_warning', 'team review date', review, ids(owner, coOwner)],
    ]);
  });
});

describe('in French for a French account', () => {
  it("the digest of a workspace's end", async () => {
    clock.set(start);
    const team = await insertTeam(ctx);
    const workspace = await insertWorkspace(ctx, team);
    const [owner, englishOwner] = await Promise.all([ctx.signedInUser(), ctx.signedInUser()]);
    await addTeamMember(ctx, team.id, owner.user.id, 'owner');
    await addTeamMember(ctx, team.id, englishOwner.user.id, 'owner');
    await french(owner);
    await ctx.db.updateTable('workspaces').set({ expires_at: at(10 * DAY_MS) }).where('id', '=', workspace.id).execute();

    await runner().runOnce();
    const [mail] = await outboxTo(owner);
    expect(mail!.subject).toBe(`Fin prochaine : ${workspace.label}`);
    expect(mail!.text).toContain(`L’espace de travail « ${workspace.label} » (équipe « ${team.fullname} ») sera suspendu le 2030-01-11 10:00 UTC.`);
    expect(mail!.text).toContain('Pour continuer, demandez un renouvellement');
    // Each recipient in their own language.
    const [english] = await outboxTo(englishOwner);
    expect(english!.subject).toBe(`Ending soon: ${workspace.label}`);
  });

  it('the warning of a membership that ends, to the member and to the team’s owner', async () => {
    clock.set(start);
    const team = await insertTeam(ctx);
    const [owner, manager, member] = await Promise.all([
      ctx.signedInUser(),
      ctx.signedInUser(),
      ctx.signedInUser({ firstname: 'Sam', lastname: 'Student' }),
    ]);
    await addTeamMember(ctx, team.id, owner.user.id, 'owner');
    await addTeamMember(ctx, team.id, manager.user.id, 'manager');
    await addTeamMember(ctx, team.id, member.user.id, 'member');
    await french(member);
    await french(owner);
    await ctx.db.updateTable('team_members').set({ expires_at: at(3 * DAY_MS) }).where('team_id', '=', team.id).where('user_id', '=', member.user.id).execute();

    await runner().runOnce();
    const [toMember] = await outboxTo(member);
    expect(toMember!.subject).toBe(`Des adhésions à des équipes se terminent bientôt sur ${APP_NAME}`);
    expect(toMember!.text).toContain(`Votre adhésion à l’équipe ${team.name} se termine le 2030-01-04 10:00 UTC.`);
    const [toOwner] = await outboxTo(owner);
    expect(toOwner!.subject).toBe(`Des adhésions à des équipes se terminent bientôt sur ${APP_NAME}`);
    expect(toOwner!.text).toContain(`L’adhésion de Sam Student (${member.user.email}) à l’équipe ${team.name} se termine le 2030-01-04 10:00 UTC.`);
    const [toManager] = await outboxTo(manager);
    expect(toManager!.subject).toBe(`Team memberships ending soon on ${APP_NAME}`);
  });
});
