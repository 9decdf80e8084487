import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '../src/clock.js';
import { suspendDueWorkspaces } from '../src/lifecycle/suspension.js';
import { setWorkspaceEnd } from '../src/workspaces/renewal.js';
import { createTestContext, type TestContext } from './helpers.js';
import { FAST_SANDBOX_TIMINGS, kubectlAvailable } from './kubectl.js';
import { kubectlOutcome, saveKubeconfig, teamWithWorkspace, UNAUTHORIZED } from './kubeconfigFixtures.js';

// A workspace's end on a real API server (the sandbox) through real kubectl: the member's
// kubeconfig is refused, the quota admits no pod, the running pods are gone and the rest of the
// namespace stays; a renewal gives access and quota back at once.

const haveKubectl = kubectlAvailable('server/test/workspaceSuspensionCluster.test.ts', 'a suspended workspace refuses kubectl');

let ctx: TestContext;
beforeAll(async () => {
  if (haveKubectl) ctx = await createTestContext({ cluster: { timings: FAST_SANDBOX_TIMINGS }, reconciler: true });
});
afterAll(async () => {
  await ctx?.close();
});

describe.runIf(haveKubectl)('a suspended workspace on the cluster', () => {
  it('refuses kubectl, runs no pod and keeps the rest; a renewal restores it', async () => {
    const { workspace, people } = await teamWithWorkspace(ctx);
    const issued = await ctx.inject('POST', `/api/subnamespaces/${workspace.id}/kubeconfig`, { token: people.member.token });
    expect(issued.statusCode).toBe(201);
    const file = saveKubeconfig(ctx, issued.json().kubeconfig);
    // From files: kubectl then sends JSON, which the sandbox speaks.
    const objects = join(ctx.dir, `objects-${workspace.id}.yaml`);
    writeFileSync(
      objects,
      ['apiVersion: v1', 'kind: ConfigMap', 'metadata: {name: kept}', 'data: {a: b}', '---', 'apiVersion: v1', 'kind: Pod', 'metadata: {name: web}', 'spec: {containers: [{name: web, image: nginx}]}'].join('\n'),
    );
    const created = await kubectlOutcome(file, 'create', '-f', objects);
    expect(created.ok, created.output).toBe(true);
    expect((await ctx.cluster.gateway.listPods(workspace.namespace)).map((pod) => pod.name)).toEqual(['web']);

    const now = new Date();
    await ctx.db.updateTable('workspaces').set({ expires_at: new Date(now.getTime() - 1000).toISOString() }).where('id', '=', workspace.id).execute();
    expect(await suspendDueWorkspaces(ctx.db, now)).toEqual([workspace.id]);
    const pass = await ctx.reconciler.reconcileOnce();
    expect(pass.failed, pass.lastError ?? '').toBe(0);

    const refused = await kubectlOutcome(file, 'get', 'pods');
    expect(refused.ok).toBe(false);
    expect(refused.output).toMatch(UNAUTHORIZED);
    expect((await ctx.cluster.gateway.readWorkspaceQuota(workspace.namespace))?.hard.pods).toBe('0');
    expect(await ctx.cluster.gateway.listPods(workspace.namespace)).toEqual([]);
    // A new kubeconfig is not issued either.
    expect((await ctx.inject('POST', `/api/subnamespaces/${workspace.id}/kubeconfig`, { token: people.member.token })).statusCode).not.toBe(201);

    await ctx.db.transaction().execute((trx) =>
      setWorkspaceEnd(trx, { workspaceId: workspace.id, expiresAt: new Date(now.getTime() + 30 * DAY_MS).toISOString(), now, causerId: people.owner.user.id, cause: 'renewal approved' }),
    );
    expect((await ctx.reconciler.reconcileOnce()).failed).toBe(0);
    expect((await ctx.cluster.gateway.readWorkspaceQuota(workspace.namespace))?.hard.pods).toBe('50');
    const again = await ctx.inject('POST', `/api/subnamespaces/${workspace.id}/kubeconfig`, { token: people.member.token });
    expect(again.statusCode).toBe(201);
    const renewedFile = saveKubeconfig(ctx, again.json().kubeconfig);
    const kept = await kubectlOutcome(renewedFile, 'get', 'configmap', 'kept', '-o', 'name');
    expect(kept.ok, kept.output).toBe(true);
    expect(kept.output).toContain('configmap/kept');
  });

  it('says "suspending" while the cluster is down at the end, and suspends once it is back', async () => {
    const { workspace, people } = await teamWithWorkspace(ctx);
    expect((await ctx.reconciler.reconcileOnce()).failed).toBe(0);
    const show = async () => (await ctx.inject('GET', `/api/subnamespaces/${workspace.id}`, { token: people.owner.token })).json();

    const now = new Date();
    await ctx.db.updateTable('workspaces').set({ expires_at: new Date(now.getTime() - 1000).toISOString() }).where('id', '=', workspace.id).execute();
    await ctx.cluster.stop();
    try {
      expect(await suspendDueWorkspaces(ctx.db, now)).toEqual([workspace.id]);
      // The reconciler cannot reach the cluster: the suspension waits, and the page says so.
      expect((await ctx.reconciler.reconcileOnce()).failed).toBeGreaterThan(0);
      expect(await show()).toMatchObject({ status: 'expired', suspension: 'suspending' });
    } finally {
      await ctx.cluster.start();
    }
    // The next pass finds it still due on the cluster and holds it.
    const pass = await ctx.reconciler.reconcileOnce();
    expect(pass.failed, pass.lastError ?? '').toBe(0);
    expect(await show()).toMatchObject({ status: 'expired', suspension: 'suspended' });
    expect((await ctx.cluster.gateway.readWorkspaceQuota(workspace.namespace))?.hard.pods).toBe('0');
  });
});
