import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api, KubeConfig, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import { FAST_SANDBOX_TIMINGS, KUBECTL, kubectlAvailable, kubectlWith, runFile } from './kubectl.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSandboxCluster, type SandboxCluster } from '../src/cluster/sandbox/server.js';

// kubectl against the sandbox with a kubeconfig like the one the console hands out:
// the sandbox CA, a service account token from TokenRequest, bound to one namespace.

const haveKubectl = kubectlAvailable('server/test/sandboxKubectl.test.ts', 'the sandbox cluster');

describe.skipIf(!haveKubectl)('sandbox cluster with kubectl', () => {
  let dir: string;
  let cluster: SandboxCluster;
  let kubeconfig: string;

  const kubectl = kubectlWith(() => kubeconfig);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sandbox-kubectl-'));
    cluster = await startSandboxCluster({
      storageDir: dir,
      port: 0,
      timings: FAST_SANDBOX_TIMINGS,
    });
    const admin = new KubeConfig();
    admin.loadFromOptions({
      clusters: [{ name: 'sandbox', server: cluster.url, caData: Buffer.from(cluster.caPem).toString('base64') }],
      users: [{ name: 'admin', token: cluster.adminToken }],
      contexts: [{ name: 'sandbox', cluster: 'sandbox', user: 'admin' }],
      currentContext: 'sandbox',
    });
    const core = admin.makeApiClient(CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: 'kubectl-ws' } } });
    await core.createNamespacedServiceAccount({ namespace: 'kubectl-ws', body: { metadata: { name: 'alice' } } });
    await admin.makeApiClient(RbacAuthorizationV1Api).createNamespacedRoleBinding({
      namespace: 'kubectl-ws',
      body: {
        metadata: { name: 'alice-edit' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' },
        subjects: [{ kind: 'ServiceAccount', name: 'alice', namespace: 'kubectl-ws' }],
      },
    });
    const token = (await core.createNamespacedServiceAccountToken({ name: 'alice', namespace: 'kubectl-ws', body: { spec: { audiences: [], expirationSeconds: 3600 } } })).status!.token;
    kubeconfig = join(dir, 'kubeconfig.yaml');
    writeFileSync(
      kubeconfig,
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters:',
        '- name: sandbox',
        '  cluster:',
        `    server: ${cluster.url}`,
        `    certificate-authority-data: ${Buffer.from(cluster.caPem).toString('base64')}`,
        'users:',
        '- name: alice',
        '  user:',
        `    token: ${token}`,
        'contexts:',
        '- name: kubectl-ws',
        '  context: {cluster: sandbox, user: alice, namespace: kubectl-ws}',
        'current-context: kubectl-ws',
        '',
      ].join('\n'),
      { mode: 0o600 },
    );
  });

  afterAll(async () => {
    await cluster?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('gets, runs, logs and deletes pods in its namespace', async () => {
    expect(JSON.parse(await kubectl('get', 'pods', '-n', 'kubectl-ws', '-o', 'json')).items).toEqual([]);
    expect(await kubectl('run', 'web', '--image=nginx:1.27', '-n', 'kubectl-ws')).toMatch(/pod\/web created/);

    let pod: { status: { phase: string; podIP?: string } } | undefined;
    for (let i = 0; i < 100 && pod?.status.phase !== 'Running'; i++) {
      pod = JSON.parse(await kubectl('get', 'pod', 'web', '-o', 'json'));
      if (pod?.status.phase !== 'Running') await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(pod?.status.podIP).toMatch(/^10\.244\./);

    const table = await kubectl('get', 'pods');
    expect(table).toMatch(/^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\n/);
    expect(table).toMatch(/web\s+1\/1\s+Running\s+0\s+/);

    expect(await kubectl('logs', 'web')).toMatch(/started container web \(image nginx:1\.27\)/);
    expect((await kubectl('logs', 'web', '--tail=1')).split('\n').filter(Boolean)).toHaveLength(1);

    expect(await kubectl('delete', 'pod', 'web')).toMatch(/pod "web" deleted/);
    expect(JSON.parse(await kubectl('get', 'pods', '-o', 'json')).items).toEqual([]);
  });

  it('is forbidden outside its namespace', async () => {
    const error = await kubectl('get', 'pods', '-n', 'default').then(
      () => undefined,
      (e: { stderr: string }) => e.stderr,
    );
    expect(error).toMatch(/Error from server \(Forbidden\): pods is forbidden: User "system:serviceaccount:kubectl-ws:alice" cannot list resource "pods"/);
  });

  it('follows logs (kubectl logs -f) and watches pods (kubectl get pods -w)', async () => {
    await kubectl('run', 'talker', '--image=busybox:1.36');
    // Older kubectl releases (Debian's 1.20) do not wait for a pending pod before following its
    // logs, so wait for Running as a person would.
    await vi.waitFor(async () => expect(await kubectl('get', 'pod', 'talker', '-o', 'jsonpath={.status.phase}')).toBe('Running'), {
      timeout: 10_000,
      interval: 200,
    });
    const watch = runFile(KUBECTL, ['--kubeconfig', kubeconfig, 'get', 'pods', '-w', '--request-timeout=2s'], { timeout: 4000 }).catch((e: { stdout: string }) => ({ stdout: e.stdout }));
    const follow = runFile(KUBECTL, ['--kubeconfig', kubeconfig, 'logs', '-f', 'talker', '--pod-running-timeout=5s'], { timeout: 1500 }).catch((e: { stdout: string }) => ({ stdout: e.stdout }));
    const followed = (await follow).stdout;
    expect(followed).toMatch(/started container talker/);
    expect(followed).toMatch(/tick \d+\)/);
    const watched = (await watch).stdout;
    expect(watched).toMatch(/talker\s+1\/1\s+Running/);
  });
});
