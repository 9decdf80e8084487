import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FAST_SANDBOX_TIMINGS, kubectlAvailable, kubectlWith } from './kubectl.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterGateway } from '../src/cluster/gateway.js';
import { kubeconfigYaml } from '../src/cluster/http.js';
import { kubeConfigFor, kubernetesGateway } from '../src/cluster/kubernetesGateway.js';
import { type SandboxCluster, startSandboxCluster } from '../src/cluster/sandbox/server.js';

// kubectl with the kubeconfig the console hands out (POST /api/subnamespaces/{id}/kubeconfig
// writes it with the same kubeconfigYaml and the same gateway calls).

const haveKubectl = kubectlAvailable('server/test/cluster-kubectl.test.ts', 'the cluster gateway');

describe.skipIf(!haveKubectl)('a downloaded kubeconfig with kubectl', () => {
  let dir: string;
  let cluster: SandboxCluster;
  let gateway: ClusterGateway;
  let kubeconfig: string;

  const kubectl = kubectlWith(() => kubeconfig);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cluster-kubectl-'));
    cluster = await startSandboxCluster({
      storageDir: dir,
      port: 0,
      timings: FAST_SANDBOX_TIMINGS,
    });
    gateway = kubernetesGateway(kubeConfigFor({ server: cluster.url, caPem: cluster.caPem, token: cluster.adminToken }), 'sandbox');
    await gateway.ensureWorkspace({ namespace: 'lab-vision', teamName: 'lab', workspaceName: 'vision' });
    await gateway.ensureWorkspace({ namespace: 'lab-other', teamName: 'lab', workspaceName: 'other' });
    await gateway.ensureClusterRoles();
    await gateway.ensureMemberAccess({ namespace: 'lab-vision', workspaceId: 1, userId: 7, role: 'member' });
    const issued = await gateway.issueKubeconfigToken({ userId: 7, workspaceId: 1, namespace: 'lab-vision', expirationSeconds: 3600 });
    const info = gateway.clusterInfo()!;
    kubeconfig = join(dir, 'lab-vision.kubeconfig');
    writeFileSync(kubeconfig, kubeconfigYaml({ server: info.server, caPem: info.ca, namespace: 'lab-vision', user: 'testbed-user-7', token: issued.token }));
  });

  afterAll(async () => {
    await cluster?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('runs and lists pods in its namespace, and is forbidden in another one', async () => {
    await kubectl('run', 'web', '--image=nginx:1.27', '--restart=Never');
    const pods = JSON.parse(await kubectl('get', 'pods', '-o', 'json'));
    expect(pods.items.map((pod: { metadata: { name: string } }) => pod.metadata.name)).toEqual(['web']);
    const forbidden = await kubectl('get', 'pods', '-n', 'lab-other').catch((error: { stderr: string }) => error.stderr);
    expect(forbidden).toMatch(/forbidden/i);
  });

  it('stops working once the access is revoked', async () => {
    await gateway.revokeMemberAccess({ namespace: 'lab-vision', workspaceId: 1, userId: 7 });
    const refused = await kubectl('get', 'pods').catch((error: { stderr: string }) => error.stderr);
    expect(refused).toMatch(/Unauthorized|must be logged in/i);
  });
});
