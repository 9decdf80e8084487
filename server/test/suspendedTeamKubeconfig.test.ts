import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDENTITY_NAMESPACE, serviceAccountName } from '../src/cluster/gateway.js';
import { createTestContext, type TestContext } from './helpers.js';
import { FAST_SANDBOX_TIMINGS, kubectlAvailable } from './kubectl.js';
import { kubectlOutcome, saveKubeconfig, teamWithWorkspace, UNAUTHORIZED } from './kubeconfigFixtures.js';

// What a suspended team's kubeconfigs do, with kubectl on the sandbox cluster (docs/api-contract.md,
// "Suspension"): suspending the team deletes its members' service accounts, so every kubeconfig
// downloaded before is refused (401 Unauthorized) at once, not merely forbidden; enabling the
// team again gives them new service accounts, so the old kubeconfigs stay refused and the
// members download new ones, which work.

const haveKubectl = kubectlAvailable('server/test/suspendedTeamKubeconfig.test.ts', "a suspended team's kubeconfigs");

describe.skipIf(!haveKubectl)("a suspended team's kubeconfigs", () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext({ cluster: { timings: FAST_SANDBOX_TIMINGS }, reconciler: true });
  });

  afterAll(async () => {
    await ctx?.close();
  });

  it('are refused while the team is suspended and after it is enabled again; a fresh download works then', async () => {
    const { team, workspace, people } = await teamWithWorkspace(ctx);
    const download = async () => {
      const response = await ctx.inject('POST', `/api/subnamespaces/${workspace.id}/kubeconfig`, { token: people.member.token });
      return { status: response.statusCode, file: response.statusCode === 201 ? saveKubeconfig(ctx, response.json().kubeconfig) : '' };
    };
    const before = await download();
    expect(before.status).toBe(201);
    expect((await kubectlOutcome(before.file, 'get', 'pods')).ok).toBe(true);

    expect((await ctx.inject('PATCH', `/api/admin/teams/${team.id}`, { token: people.admin.token, body: { enabled: false } })).statusCode).toBe(200);
    expect((await ctx.reconciler.reconcileOnce()).failed).toBe(0);
    const suspended = await kubectlOutcome(before.file, 'get', 'pods');
    expect(suspended.ok).toBe(false);
    expect(suspended.output).toMatch(UNAUTHORIZED);
    expect(ctx.cluster.sandbox.store.get('serviceaccounts', IDENTITY_NAMESPACE, serviceAccountName(people.member.user.id, workspace.id))).toBeUndefined();
    // No new kubeconfig meanwhile, and a full resync changes nothing.
    expect((await download()).status).toBe(403);
    expect((await ctx.reconciler.reconcileOnce({ all: true })).failed).toBe(0);
    expect((await kubectlOutcome(before.file, 'get', 'pods')).output).toMatch(UNAUTHORIZED);

    expect((await ctx.inject('PATCH', `/api/admin/teams/${team.id}`, { token: people.admin.token, body: { enabled: true } })).statusCode).toBe(200);
    expect((await ctx.reconciler.reconcileOnce()).failed).toBe(0);
    expect((await ctx.reconciler.reconcileOnce({ all: true })).failed).toBe(0);
    const enabledAgain = await kubectlOutcome(before.file, 'get', 'pods');
    expect(enabledAgain.ok).toBe(false);
    expect(enabledAgain.output).toMatch(UNAUTHORIZED);
    const after = await download();
    expect(after.status).toBe(201);
    expect((await kubectlOutcome(after.file, 'get', 'pods')).ok).toBe(true);
  });
});
