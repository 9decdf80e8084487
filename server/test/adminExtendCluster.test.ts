import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '../src/clock.js';
import { suspendDueWorkspaces } from '../src/lifecycle/suspension.js';
import { createTestContext, eventually, type TestContext } from './helpers.js';
import { FAST_SANDBOX_TIMINGS } from './kubectl.js';
import { teamWithWorkspace } from './kubeconfigFixtures.js';

// A platform admin's bulk extension of a suspended workspace, on the sandbox cluster: the
// extension asks the running reconciler for a pass after its commit (its polling is slowed down
// here, so only that request can bring the quota back in time), and the workspace gets its
// quota and its members' access back, as after a renewal.

let ctx: TestContext;
let passes = 0;
beforeAll(async () => {
  ctx = await createTestContext({
    cluster: { timings: FAST_SANDBOX_TIMINGS },
    reconciler: { pollIntervalMs: 600_000, resyncIntervalMs: 600_000, onPass: () => passes++ },
  });
});
afterAll(async () => {
  await ctx?.close();
});

describe('extending a suspended workspace in bulk', () => {
  it('gives its quota and its members’ access back at once, through the reconciler', async () => {
    const { workspace, people } = await teamWithWorkspace(ctx);
    const now = new Date();
    await ctx.db.updateTable('workspaces').set({ expires_at: new Date(now.getTime() - 1000).toISOString() }).where('id', '=', workspace.id).execute();
    expect(await suspendDueWorkspaces(ctx.db, now)).toEqual([workspace.id]);
    expect((await ctx.reconciler.reconcileOnce()).failed).toBe(0);
    expect((await ctx.cluster.gateway.readWorkspaceQuota(workspace.namespace))?.hard.pods).toBe('0');
    expect((await ctx.inject('POST', `/api/subnamespaces/${workspace.id}/kubeconfig`, { token: people.member.token })).statusCode).not.toBe(201);

    // The loop's first (full) pass done, it waits ten minutes unless asked.
    const before = passes;
    ctx.reconciler.start();
    await eventually(() => passes > before, { what: 'the reconciler’s first pass' });
    const extended = await ctx.inject('POST', '/api/admin/workspaces/bulk', { token: people.admin.token, body: { ids: [workspace.id], action: 'extend', days: 30 } });
    expect(extended.statusCode, extended.body).toBe(200);
    expect(extended.json()).toMatchObject({ totals: { done: 1 }, reach: { resumed_workspaces: 1 }, results: [{ id: workspace.id, resumed: true }] });
    const end = new Date(extended.json().results[0].to).getTime();
    expect(Math.abs(end - (now.getTime() + 30 * DAY_MS))).toBeLessThan(60_000);

    await eventually(async () => (await ctx.cluster.gateway.readWorkspaceQuota(workspace.namespace))?.hard.pods === '50', { timeoutMs: 10_000 });
    // The member's access is bound in the same pass, just after the quota.
    await eventually(async () => (await ctx.inject('POST', `/api/subnamespaces/${workspace.id}/kubeconfig`, { token: people.member.token })).statusCode === 201, {
      timeoutMs: 10_000,
      what: 'a kubeconfig for the member',
    });
  });
});
