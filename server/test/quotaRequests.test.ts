import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, movableClock } from '../src/clock.js';
import { createTestContext, type TestContext, lifecycleRunner } from './helpers.js';
import { addTeamMember, addWorkspaceMember, insertTeam, insertWorkspace } from './teamFixtures.js';

// Requests for more quota (POST /api/requests/workspaces/{id}/quota, type QuotaIncrease): who
// may ask, what is refused, who decides (the team's managers within what the team has left,
// platform admins beyond, who may raise the team quota in the same decision), and what an
// approval or a refusal changes.

let ctx: TestContext;
let admin: Awaited<ReturnType<TestContext['signedInUser']>>;
const clock = movableClock(new Date());
let clusterSyncs = 0;
const runner = () => lifecycleRunner(ctx, clock, { clusterSync: { request: () => clusterSyncs++, listen: () => () => {} } });
const outboxTo = (email: string) => ctx.db.selectFrom('mail_outbox').select(['subject', 'text']).where('recipient', '=', email).execute();

beforeAll(async () => {
  ctx = await createTestContext({ clock });
  admin = await ctx.signedInUser({ admin: true });
});
afterAll(() => ctx.close());

/** A team (cpu capped at `teamCpu`) with one default workspace (8 CPUs), a manager, a workspace member, a team member outside the workspace. */
async function world(teamCpu: string | null = '16') {
  const team = await insertTeam(ctx);
  const workspace = await insertWorkspace(ctx, team);
  const [manager, wsMember, teamMember, outsider] = await Promise.all([ctx.signedInUser(), ctx.signedInUser(), ctx.signedInUser(), ctx.signedInUser()]);
  await addTeamMember(ctx, team.id, manager.user.id, 'manager');
  await addTeamMember(ctx, team.id, wsMember.user.id, 'member');
  await addTeamMember(ctx, team.id, teamMember.user.id, 'member');
  await addWorkspaceMember(ctx, workspace.id, wsMember.user.id, 'member');
  if (teamCpu !== null) await ctx.db.updateTable('teams').set({ quota_cpu: teamCpu }).where('id', '=', team.id).execute();
  return { team, workspace, manager, wsMember, teamMember, outsider };
}

const ask = (workspaceId: number, body: unknown, token?: string, headers?: Record<string, string>) =>
  ctx.inject('POST', `/api/requests/workspaces/${workspaceId}/quota`, { token, body, headers });
const decide = (id: number, body: unknown, token: string) => ctx.inject('PATCH', `/api/requests/${id}`, { token, body });
const quotaOf = async (workspaceId: number) =>
  ctx.db.selectFrom('workspaces').select(['quota_cpu', 'quota_memory', 'quota_until', 'quota_previous', 'cluster_state']).where('id', '=', workspaceId).executeTakeFirstOrThrow();

describe('POST /api/requests/workspaces/{id}/quota', () => {
  it('401 without a session; 403 for a team member outside the workspace and for an outsider', async () => {
    const w = await world();
    expect((await ask(w.workspace.id, { quota: { cpu: '12' }, reason: 'More' })).statusCode).toBe(401);
    expect((await ask(w.workspace.id, { quota: { cpu: '12' }, reason: 'More' }, w.teamMember.token)).statusCode).toBe(403);
    expect((await ask(w.workspace.id, { quota: { cpu: '12' }, reason: 'More' }, w.outsider.token)).statusCode).toBe(403);
    expect((await ask(999999, { quota: { cpu: '12' }, reason: 'More' }, w.wsMember.token)).statusCode).toBe(404);
  });

  it('422 per field: not a quantity, negative, lower than now, until in the past, no reason; nothing stored', async () => {
    const w = await world();
    const token = w.wsMember.token;
    const bad = await ask(w.workspace.id, { quota: { cpu: 'lots', pods: -3 }, reason: '' }, token);
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors['quota.cpu'][0]).toBe('The quota.cpu field must be a CPU quantity such as 4, 0.5 or 500m.');
    expect(bad.json().errors['quota.pods']).toEqual(['The quota.pods field must be at least 1.']);
    expect(bad.json().errors.reason).toBeDefined();
    const lower = await ask(w.workspace.id, { quota: { cpu: '4', memory: '32Gi' }, reason: 'More' }, token);
    expect(lower.statusCode).toBe(422);
    expect(lower.json().errors).toEqual({ 'quota.cpu': ['The quota.cpu field must not be lower than the current 8.'] });
    const french = await ask(w.workspace.id, { quota: { cpu: '4' }, reason: 'More' }, token, { 'accept-language': 'fr' });
    expect(french.json().errors['quota.cpu']).toEqual(['Le champ quota.cpu ne doit pas être inférieur à la valeur actuelle, 8.']);
    const past = await ask(w.workspace.id, { quota: { cpu: '10' }, reason: 'More', until: '2001-01-01T00:00:00Z' }, token);
    expect(past.json().errors).toEqual({ until: ['The until date must be in the future.'] });
    const nothing = await ask(w.workspace.id, { quota: {}, reason: 'More' }, token);
    expect(nothing.json().errors).toEqual({ quota: ['Ask for at least one of cpu, memory, pods and storage.'] });
    expect(await ctx.db.selectFrom('requests').select('id').where('workspace_id', '=', w.workspace.id).execute()).toEqual([]);
  });

  it("within what the team has left: the team's managers decide, approval sets the quota for the reconciler", async () => {
    const w = await world('16');
    const asked = await ask(w.workspace.id, { quota: { cpu: '12' }, reason: 'Bigger runs' }, w.wsMember.token);
    expect(asked.statusCode, asked.body).toBe(201);
    const request = asked.json();
    expect(request).toMatchObject({ type: 'QuotaIncrease', status: 'Pending', data: { quota: { cpu: '12' }, current: { cpu: '8' } } });
    expect(request.data.admins_decide).toBeUndefined();
    // The manager sees it among the requests to decide, and is mailed.
    const list = await ctx.inject('GET', '/api/requests?filter[type]=QuotaIncrease', { token: w.manager.token });
    expect(list.json().map((item: { id: number }) => item.id)).toContain(request.id);
    // A workspace member may not decide it.
    expect((await decide(request.id, { action: 'approve' }, w.teamMember.token)).statusCode).toBe(404);
    expect((await decide(request.id, { action: 'approve', raise_team_quota: true }, w.manager.token)).json().errors).toEqual({
      raise_team_quota: ['Only platform admins may raise the team quota.'],
    });
    const approved = await decide(request.id, { action: 'approve' }, w.manager.token);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().status).toBe('Approved');
    expect(await quotaOf(w.workspace.id)).toMatchObject({ quota_cpu: '12', cluster_state: 'pending', quota_until: null });
  });

  it('beyond what the team has left: platform admins decide and may raise the team quota in the same decision', async () => {
    const w = await world('16');
    const asked = (await ask(w.workspace.id, { quota: { cpu: '24' }, reason: 'Much bigger' }, w.wsMember.token)).json();
    expect(asked.data.admins_decide).toBe(true);
    const managerList = await ctx.inject('GET', '/api/requests?filter[type]=QuotaIncrease', { token: w.manager.token });
    expect(managerList.json().map((item: { id: number }) => item.id)).not.toContain(asked.id);
    expect((await decide(asked.id, { action: 'approve' }, w.manager.token)).statusCode).toBe(404);
    // Without raising the team quota the approval does not fit: what is needed and what is left.
    const refused = await decide(asked.id, { action: 'approve' }, admin.token);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual({ 'quota.cpu': ['The team has 16 CPUs left of 16; this workspace needs 24.'] });
    const approved = await decide(asked.id, { action: 'approve', raise_team_quota: true }, admin.token);
    expect(approved.statusCode, approved.body).toBe(200);
    expect((await quotaOf(w.workspace.id)).quota_cpu).toBe('24');
    const team = await ctx.db.selectFrom('teams').select('quota_cpu').where('id', '=', w.team.id).executeTakeFirstOrThrow();
    expect(team.quota_cpu).toBe('24');
  });

  it('a refusal changes nothing; a manager asking within the team quota is approved at once', async () => {
    const w = await world('40');
    const asked = (await ask(w.workspace.id, { quota: { memory: '32Gi' }, reason: 'Data' }, w.wsMember.token)).json();
    const denied = await decide(asked.id, { action: 'deny', message: 'Not now' }, w.manager.token);
    expect(denied.json().status).toBe('Denied');
    expect((await quotaOf(w.workspace.id)).quota_memory).toBeNull();
    const own = await ask(w.workspace.id, { quota: { cpu: '10' }, reason: 'Mine' }, w.manager.token);
    expect(own.json().status).toBe('Approved');
    expect((await quotaOf(w.workspace.id)).quota_cpu).toBe('10');
  });

  it('a grant with until keeps the former quota to return to; a second pending request is a duplicate', async () => {
    const w = await world(null);
    const until = new Date(clock.now().getTime() + 30 * DAY_MS).toISOString();
    const asked = (await ask(w.workspace.id, { quota: { cpu: '9' }, reason: 'A month', until }, w.wsMember.token)).json();
    expect((await ask(w.workspace.id, { quota: { cpu: '10' }, reason: 'Again' }, w.wsMember.token)).statusCode).toBe(409);
    await decide(asked.id, { action: 'approve' }, w.manager.token);
    const stored = await quotaOf(w.workspace.id);
    expect(stored.quota_cpu).toBe('9');
    expect(new Date(String(stored.quota_until)).toISOString()).toBe(until);
    expect(JSON.parse(String(stored.quota_previous))).toEqual({ cpu: null, memory: null, pods: null, storage: null });
  });

  it('at the until date the workspace returns to its former quota; its members are mailed 72 h before, once, in their language', async () => {
    const w = await world('64');
    await ctx.db.updateTable('users').set({ locale: 'fr' }).where('id', '=', w.wsMember.user.id).execute();
    await ctx.db.updateTable('workspaces').set({ quota_memory: '20Gi' }).where('id', '=', w.workspace.id).execute();
    const until = new Date(clock.now().getTime() + 5 * DAY_MS).toISOString();
    const asked = (await ask(w.workspace.id, { quota: { cpu: '16', memory: '24Gi' }, reason: 'A sprint', until }, w.wsMember.token)).json();
    expect((await decide(asked.id, { action: 'approve' }, w.manager.token)).statusCode).toBe(200);
    expect(await quotaOf(w.workspace.id)).toMatchObject({ quota_cpu: '16', quota_memory: '24Gi' });

    await runner().runOnce();
    const grantMails = async () => (await outboxTo(w.wsMember.user.email)).filter((mail) => mail.subject.includes('quota supplémentaire'));
    expect(await grantMails()).toEqual([]);
    clock.advance(2.5 * DAY_MS);
    const pass = await runner().runOnce();
    expect(pass.steps.every((step) => step.error === undefined)).toBe(true);
    const mails = await grantMails();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain('Le quota supplémentaire de Label');
    expect(mails[0]!.text).toContain(until.slice(0, 10));
    await runner().runOnce();
    expect(await grantMails()).toHaveLength(1);
    expect(await quotaOf(w.workspace.id)).toMatchObject({ quota_cpu: '16' });

    clock.advance(3 * DAY_MS);
    const syncsBefore = clusterSyncs;
    await runner().runOnce();
    expect(await quotaOf(w.workspace.id)).toMatchObject({ quota_cpu: null, quota_memory: '20Gi', quota_until: null, quota_previous: null, cluster_state: 'pending' });
    expect(clusterSyncs).toBeGreaterThan(syncsBefore);
    const entry = await ctx.db.selectFrom('activity_log').select('description').where('subject_type', '=', 'workspace').where('subject_id', '=', w.workspace.id).where('description', '=', 'workspace quota grant ended').executeTakeFirst();
    expect(entry).toBeDefined();
  });
});
