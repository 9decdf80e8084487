import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, eventually, type TestContext } from './helpers.js';
import { FAST_SANDBOX_TIMINGS, kubectlAvailable } from './kubectl.js';
import { kubectlOutcome, saveKubeconfig, teamWithWorkspace } from './kubeconfigFixtures.js';

// A workspace's quota on a real API server (the sandbox), through a member's kubeconfig and real
// kubectl: `status.used` as pods come and go, the pod beyond `pods` refused with the message
// kube-apiserver gives, and a plain `kubectl run` given the workspace LimitRange's defaults.

const haveKubectl = kubectlAvailable('server/test/clusterQuotaKubectl.test.ts', 'quotas enforced in the sandbox');

let ctx: TestContext;
beforeAll(async () => {
  if (haveKubectl) ctx = await createTestContext({ cluster: { timings: FAST_SANDBOX_TIMINGS }, reconciler: true });
});
afterAll(async () => {
  await ctx?.close();
});

/** A member's kubeconfig for a fresh workspace whose quota allows `pods` pods. */
async function workspaceAllowing(pods: number) {
  const { workspace, people } = await teamWithWorkspace(ctx);
  await ctx.db.updateTable('workspaces').set({ quota_pods: pods, cluster_state: 'pending' }).where('id', '=', workspace.id).execute();
  expect((await ctx.reconciler.reconcileOnce()).failed).toBe(0);
  const issued = await ctx.inject('POST', `/api/subnamespaces/${workspace.id}/kubeconfig`, { token: people.member.token });
  expect(issued.statusCode).toBe(201);
  const file = saveKubeconfig(ctx, issued.json().kubeconfig);
  const kubectl = async (...args: string[]) => {
    const outcome = await kubectlOutcome(file, ...args);
    expect(outcome.ok, outcome.output).toBe(true);
    return outcome.output;
  };
  const quota = async (): Promise<any> => JSON.parse(await kubectl('get', 'resourcequota', 'testbed-quota', '-o', 'json'));
  return { workspace, file, kubectl, quota };
}

describe.runIf(haveKubectl)('the workspace quota, enforced', () => {
  it('counts pods in status.used, refuses the one beyond, and makes room when one goes', async () => {
    const { file, kubectl, quota } = await workspaceAllowing(3);
    expect((await quota()).status).toEqual({
      hard: { 'limits.cpu': '16', 'limits.memory': '32Gi', persistentvolumeclaims: '10', pods: '3', 'requests.cpu': '8', 'requests.memory': '16Gi', 'requests.storage': '100Gi', services: '20' },
      used: { 'limits.cpu': '0', 'limits.memory': '0', persistentvolumeclaims: '0', pods: '0', 'requests.cpu': '0', 'requests.memory': '0', 'requests.storage': '0', services: '0' },
    });

    for (const name of ['web-1', 'web-2', 'web-3']) await kubectl('run', name, '--image=nginx');
    // Each pod got the LimitRange's 100m/128Mi requests and 500m/512Mi limits.
    expect((await quota()).status.used).toMatchObject({ pods: '3', 'requests.cpu': '300m', 'requests.memory': '384Mi', 'limits.cpu': '1500m', 'limits.memory': '1536Mi' });

    const refused = await kubectlOutcome(file, 'run', 'web-4', '--image=nginx');
    expect(refused.ok).toBe(false);
    expect(refused.output.trim()).toBe(
      'Error from server (Forbidden): pods "web-4" is forbidden: exceeded quota: testbed-quota, requested: pods=1, used: pods=3, limited: pods=3',
    );
    expect((await quota()).status.used.pods).toBe('3');

    await kubectl('delete', 'pod', 'web-1', '--wait=true');
    await eventually(async () => (await quota()).status.used.pods === '2');
    await kubectl('run', 'web-4', '--image=nginx');
    expect((await quota()).status.used).toMatchObject({ pods: '3', 'requests.cpu': '300m' });
  });

  it('gives a pod without requests the LimitRange defaults', async () => {
    const { kubectl } = await workspaceAllowing(5);
    await kubectl('run', 'plain', '--image=nginx');
    const pod = JSON.parse(await kubectl('get', 'pod', 'plain', '-o', 'json'));
    expect(pod.spec.containers[0].resources).toEqual({ requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '512Mi' } });
    expect(pod.metadata.annotations['kubernetes.io/limit-ranger']).toBe('LimitRanger plugin set: cpu, memory request for container plain; cpu, memory limit for container plain');
    expect(pod.status.qosClass).toBe('Burstable');
    // What the pod names itself is kept: only the missing values are filled in.
    await kubectl('run', 'sized', '--image=nginx', '--overrides={"spec":{"containers":[{"name":"sized","image":"nginx","resources":{"requests":{"cpu":"1"},"limits":{"cpu":"2"}}}]}}');
    const sized = JSON.parse(await kubectl('get', 'pod', 'sized', '-o', 'json'));
    expect(sized.spec.containers[0].resources).toEqual({ requests: { cpu: '1', memory: '128Mi' }, limits: { cpu: '2', memory: '512Mi' } });
  });

  it('refuses a pod that names no resources when the LimitRange gives none, with kube-apiserver’s words', async () => {
    const { workspace, file } = await workspaceAllowing(5);
    // The console would put it back on its next pass; the admin removes it for this test.
    ctx.cluster.sandbox.store.delete('limitranges', workspace.namespace, 'testbed-limits');
    const refused = await kubectlOutcome(file, 'run', 'bare', '--image=nginx');
    expect(refused.ok).toBe(false);
    expect(refused.output.trim()).toBe(
      'Error from server (Forbidden): pods "bare" is forbidden: failed quota: testbed-quota: must specify limits.cpu for: bare; limits.memory for: bare; requests.cpu for: bare; requests.memory for: bare',
    );
  });
});
