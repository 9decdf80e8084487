import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDENTITY_NAMESPACE, serviceAccountName } from '../src/cluster/gateway.js';
import { kubectlAvailable } from './kubectl.js';
import { injector, type KubeconfigWorld, kubectlOutcome, saveKubeconfig, startKubeconfigWorld, teamWithWorkspace, UNAUTHORIZED } from './kubeconfigWorld.js';

// What a suspended team's kubeconfigs do, with kubectl on the sandbox cluster (docs/api-contract.md,
// "Suspension"): suspending the team deletes its members' service accounts, so every kubeconfig
// downloaded before is refused (401 Unauthorized) at once, not merely forbidden; enabling the
// team again gives them new service accounts, so the old kubeconfigs stay refused and the
// members download new ones, which work.

const haveKubectl = kubectlAvailable('server/test/suspendedTeamKubeconfig.test.ts', "a suspended team's kubeconfigs");

describe.skipIf(!haveKubectl)("a suspended team's kubeconfigs", () => {
  let world: KubeconfigWorld;
  let inject: ReturnType<typeof injector>;

  beforeAll(async () => {
    world = await startKubeconfigWorld();
    inject = injector(world);
  });

  afterAll(async () => {
    await world?.close();
  });

  it('are refused while the team is suspended and after it is enabled again; a fresh download works then', async () => {
    const { team, workspace, people } = await teamWithWorkspace(world);
    const download = async () => {
      const response = await inject('POST', `/api/subnamespaces/${workspace.id}/kubeconfig`, people.member.token);
      return { status: response.statusCode, file: response.statusCode === 201 ? saveKubeconfig(world, response.json().kubeconfig) : '' };
    };
    const before = await download();
    expect(before.status).toBe(201);
    expect((await kubectlOutcome(before.file, 'get', 'pods')).ok).toBe(true);

    expect((await inject('PATCH', `/api/admin/teams/${team.id}`, people.admin.token, { enabled: false })).statusCode).toBe(200);
    expect((await world.reconciler.reconcileOnce()).failed).toBe(0);
    const suspended = await kubectlOutcome(before.file, 'get', 'pods');
    expect(suspended.ok).toBe(false);
    expect(suspended.output).toMatch(UNAUTHORIZED);
    expect(world.sandbox.store.get('serviceaccounts', IDENTITY_NAMESPACE, serviceAccountName(people.member.user.id, workspace.id))).toBeUndefined();
    // No new kubeconfig meanwhile, and a full resync changes nothing.
    expect((await download()).status).toBe(403);
    expect((await world.reconciler.reconcileOnce({ all: true })).failed).toBe(0);
    expect((await kubectlOutcome(before.file, 'get', 'pods')).output).toMatch(UNAUTHORIZED);

    expect((await inject('PATCH', `/api/admin/teams/${team.id}`, people.admin.token, { enabled: true })).statusCode).toBe(200);
    expect((await world.reconciler.reconcileOnce()).failed).toBe(0);
    expect((await world.reconciler.reconcileOnce({ all: true })).failed).toBe(0);
    const enabledAgain = await kubectlOutcome(before.file, 'get', 'pods');
    expect(enabledAgain.ok).toBe(false);
    expect(enabledAgain.output).toMatch(UNAUTHORIZED);
    const after = await download();
    expect(after.status).toBe(201);
    expect((await kubectlOutcome(after.file, 'get', 'pods')).ok).toBe(true);
  });
});
