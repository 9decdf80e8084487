import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS, movableClock } from '../src/clock.js';
import { monthStart } from '../src/allocations/allocations.js';
import { WORKSPACE_DEFAULTS } from '../src/cluster/gateway.js';
import { createTestContext, type TestContext, lifecycleRunner } from './helpers.js';
import { FAST_SANDBOX_TIMINGS } from './kubectl.js';
import { teamWithWorkspace } from './kubeconfigFixtures.js';
import { addUsage } from '../src/usage/accounting.js';

// A team's monthly CPU allocation (docs/usage.md, "Allocations"): one mail to its owners and
// managers at 90 %, and at 100 % its workspaces admit no new pod (the running ones stay) until a
// new month or a larger allocation. Usage rows are written as the accounting would; the clock
// is moved; the quota is checked in the sandbox cluster after the reconciler's pass.

let ctx: TestContext;
// The 20th of a month, midday: the month has started, and ends in ten days.
const clock = movableClock(new Date('2031-03-20T12:00:00.000Z'));
let clusterSyncs = 0;

beforeAll(async () => {
  ctx = await createTestContext({ cluster: { timings: FAST_SANDBOX_TIMINGS }, reconciler: true, clock });
});
afterAll(async () => {
  await ctx?.close();
});

const runner = () => lifecycleRunner(ctx, clock, { clusterSync: { request: () => clusterSyncs++, listen: () => () => {} } });

const outboxTo = (email: string) => ctx.db.selectFrom('mail_outbox').select(['subject', 'text']).where('recipient', '=', email).execute();

async function use(workspace: { id: number; team_id: number }, hourStart: string, coreHours: number) {
  await addUsage(ctx.db, [{ workspace_id: workspace.id, team_id: workspace.team_id, hour_start: hourStart, cpu_core_hours: coreHours, memory_gib_hours: coreHours * 2 }]);
}

const podsHard = async (namespace: string) => (await ctx.cluster.gateway.readWorkspaceQuota(namespace))?.hard.pods;
/** Whether the namespace holds the quota of no pods whose name says the allocation is used up. */
const refusing = async (namespace: string) => ctx.cluster.sandbox.store.get('resourcequotas', namespace, WORKSPACE_DEFAULTS.allocationQuotaName) !== undefined;
const pod = (name: string) => ({ metadata: { name }, spec: { containers: [{ name, image: 'nginx' }] } });

describe('a team allocation', () => {
  it('warns at 90 % once, refuses new pods at 100 % and keeps the running ones, and comes back next month', async () => {
    const { team, workspace, people } = await teamWithWorkspace(ctx);
    await ctx.db.updateTable('teams').set({ allocation_core_hours: 100 }).where('id', '=', team.id).execute();
    const core = ctx.cluster.kube();
    await core.createNamespacedPod({ namespace: workspace.namespace, body: pod('running') });

    // Last month's usage does not count; this month's 89 core-hours do not warn.
    await use(workspace, '2031-02-27T10:00:00.000Z', 500);
    await use(workspace, '2031-03-02T10:00:00.000Z', 89);
    await runner().runOnce();
    expect(await outboxTo(people.owner.user.email)).toEqual([]);

    await use(workspace, '2031-03-10T10:00:00.000Z', 1);
    await runner().runOnce();
    await runner().runOnce();
    const warned = await outboxTo(people.owner.user.email);
    expect(warned.map((mail) => mail.subject)).toEqual([`${team.name}: 90% of the CPU allocation used on Testbed Console`]);
    expect(warned[0]!.text).toContain(`The team ${team.name} has used 90 of the 100 CPU core-hours of its allocation for 2031-03.`);
    // Only owners and managers are told.
    expect(await outboxTo(people.member.user.email)).toEqual([]);
    expect(await podsHard(workspace.namespace)).toBe('50');

    // Used up: one mail, the mark, and the reconciler adds a quota of no pods that says why.
    await use(workspace, '2031-03-15T10:00:00.000Z', 10);
    const before = clusterSyncs;
    await runner().runOnce();
    await runner().runOnce();
    expect(clusterSyncs).toBe(before + 1);
    const usedUp = (await outboxTo(people.owner.user.email)).map((mail) => mail.subject);
    expect(usedUp).toEqual([`${team.name}: 90% of the CPU allocation used on Testbed Console`, `${team.name}: CPU allocation used up on Testbed Console`]);
    const row = await ctx.db.selectFrom('teams').select('allocation_used_up_at').where('id', '=', team.id).executeTakeFirstOrThrow();
    expect(row.allocation_used_up_at).toBe(clock.now().toISOString());
    expect((await ctx.reconciler.reconcileOnce()).failed).toBe(0);
    expect(await refusing(workspace.namespace)).toBe(true);
    // The workspace's own quota is untouched: the page still shows what the workspace may hold.
    expect(await podsHard(workspace.namespace)).toBe('50');
    await expect(core.createNamespacedPod({ namespace: workspace.namespace, body: pod('refused') })).rejects.toThrow(
      'exceeded quota: cpu-allocation-used-up.ask-for-more-on-the-team-page, requested: pods=1, used: pods=1, limited: pods=0',
    );
    expect((await core.listNamespacedPod({ namespace: workspace.namespace })).items.map((item) => item.metadata?.name)).toEqual(['running']);

    // The team's page says so.
    const answer = await ctx.inject('GET', `/api/tenants/${team.name}/quota`, { token: people.member.token });
    expect(answer.json().allocation).toEqual({
      core_hours: 100,
      used: 100,
      period_start: '2031-03-01T00:00:00.000Z',
      period_end: '2031-04-01T00:00:00.000Z',
      used_up_at: row.allocation_used_up_at,
    });

    // A new month: pods come back, and the next warnings are the new month's.
    clock.set(new Date('2031-04-01T00:30:00.000Z'));
    await runner().runOnce();
    expect((await ctx.db.selectFrom('teams').select('allocation_used_up_at').where('id', '=', team.id).executeTakeFirstOrThrow()).allocation_used_up_at).toBeNull();
    expect((await ctx.reconciler.reconcileOnce()).failed).toBe(0);
    expect(await refusing(workspace.namespace)).toBe(false);
    await core.createNamespacedPod({ namespace: workspace.namespace, body: pod('back') });
    expect(monthStart(clock.now())).toBe('2031-04-01T00:00:00.000Z');
    expect(await outboxTo(people.owner.user.email)).toHaveLength(2);
  });

  it('comes back at once with a larger allocation; two passes at once do each thing once', async () => {
    clock.set(new Date('2031-05-20T12:00:00.000Z'));
    const { team, workspace, people } = await teamWithWorkspace(ctx);
    await ctx.db.updateTable('teams').set({ allocation_core_hours: 10 }).where('id', '=', team.id).execute();
    await use(workspace, '2031-05-02T10:00:00.000Z', 25);
    // Two runners, as two replicas that both think they lead for a moment.
    await Promise.all([runner().runOnce(), runner().runOnce()]);
    expect((await outboxTo(people.owner.user.email)).map((mail) => mail.subject)).toEqual([`${team.name}: CPU allocation used up on Testbed Console`]);
    expect((await ctx.reconciler.reconcileOnce()).failed).toBe(0);
    expect(await refusing(workspace.namespace)).toBe(true);

    await ctx.db.updateTable('teams').set({ allocation_core_hours: 50 }).where('id', '=', team.id).execute();
    clock.advance(HOUR_MS);
    await runner().runOnce();
    expect((await ctx.reconciler.reconcileOnce()).failed).toBe(0);
    expect(await refusing(workspace.namespace)).toBe(false);
    const activity = await ctx.db.selectFrom('activity_log').select('description').where('subject_type', '=', 'team').where('subject_id', '=', team.id).execute();
    expect(activity.map((entry) => entry.description).filter((text) => text.startsWith('team allocation'))).toEqual(['team allocation used up', 'team allocation restored']);

    // No allocation any more: nothing is marked, nothing is sent.
    await ctx.db.updateTable('teams').set({ allocation_core_hours: null }).where('id', '=', team.id).execute();
    await runner().runOnce();
    expect(await outboxTo(people.owner.user.email)).toHaveLength(1);
    const answer = await ctx.inject('GET', `/api/tenants/${team.name}/quota`, { token: people.owner.token });
    expect(answer.json().allocation).toBeNull();
  });
});

describe('PATCH /api/admin/teams/{id} {allocation_core_hours}', () => {
  it('sets and removes the allocation, recorded; refuses what is not a positive number, in both languages; platform admins only', async () => {
    const { team, people } = await teamWithWorkspace(ctx);
    const patch = (body: unknown, token = people.admin.token, headers: Record<string, string> = {}) =>
      ctx.inject('PATCH', `/api/admin/teams/${team.id}`, { token, body, headers });

    const set = await patch({ allocation_core_hours: 250.5 });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ allocation_core_hours: 250.5, allocation_used_up_at: null });
    expect((await patch({ allocation_core_hours: null })).json().allocation_core_hours).toBeNull();
    const activity = await ctx.db.selectFrom('activity_log').select(['description', 'properties']).where('subject_type', '=', 'team').where('subject_id', '=', team.id).where('description', '=', 'team allocation changed').execute();
    expect(activity.map((entry) => JSON.parse(entry.properties))).toEqual([
      { before: null, after: 250.5, severity: 'info' },
      { before: 250.5, after: null, severity: 'info' },
    ]);

    for (const [value, message] of [
      ['100', 'The allocation_core_hours field must be a number.'],
      [-1, 'The allocation_core_hours field must be greater than 0.'],
      [0, 'The allocation_core_hours field must be greater than 0.'],
      [2e9, 'The allocation_core_hours field must not be greater than 1000000000.'],
    ] as const) {
      const refused = await patch({ allocation_core_hours: value, fullname: 'Not saved' });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().errors).toEqual({ allocation_core_hours: [message] });
    }
    const french = await patch({ allocation_core_hours: -1 }, people.admin.token, { 'accept-language': 'fr' });
    expect(french.json().errors.allocation_core_hours[0]).toMatch(/^Le champ allocation_core_hours /);
    expect((await ctx.db.selectFrom('teams').select('fullname').where('id', '=', team.id).executeTakeFirstOrThrow()).fullname).not.toBe('Not saved');

    expect((await patch({ allocation_core_hours: 10 }, people.owner.token)).statusCode).toBe(403);
    expect((await ctx.inject('PATCH', `/api/admin/teams/${team.id}`, { body: { allocation_core_hours: 10 } })).statusCode).toBe(401);
  });
});
