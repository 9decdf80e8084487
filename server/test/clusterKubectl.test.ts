import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubeconfigYaml } from '../src/cluster/http.js';
import { createTestContext, type TestContext } from './helpers.js';
import { FAST_SANDBOX_TIMINGS, KUBECTL, kubectlAvailable, kubectlWith, runFile } from './kubectl.js';

// kubectl with the kubeconfig the console hands out (POST /api/subnamespaces/{id}/kubeconfig
// writes it with the same kubeconfigYaml and the same gateway calls).

const haveKubectl = kubectlAvailable('server/test/clusterKubectl.test.ts', 'the cluster gateway');

describe.skipIf(!haveKubectl)('a downloaded kubeconfig with kubectl', () => {
  let ctx: TestContext;
  let kubeconfig: string;

  const kubectl = kubectlWith(() => kubeconfig);

  beforeAll(async () => {
    ctx = await createTestContext({ cluster: { timings: FAST_SANDBOX_TIMINGS } });
    const gateway = ctx.cluster.gateway;
    await gateway.ensureWorkspace({ namespace: 'lab-vision', teamName: 'lab', workspaceName: 'vision' });
    await gateway.ensureWorkspace({ namespace: 'lab-other', teamName: 'lab', workspaceName: 'other' });
    await gateway.ensureClusterRoles();
    await gateway.ensureMemberAccess({ namespace: 'lab-vision', workspaceId: 1, userId: 7, role: 'member' });
    const issued = await gateway.issueKubeconfigToken({ userId: 7, workspaceId: 1, namespace: 'lab-vision', expirationSeconds: 3600 });
    const info = gateway.clusterInfo()!;
    kubeconfig = join(ctx.dir, 'lab-vision.kubeconfig');
    writeFileSync(kubeconfig, kubeconfigYaml({ server: info.server, caPem: info.ca, namespace: 'lab-vision', user: 'testbed-user-7', token: issued.token }));
  });

  afterAll(async () => {
    await ctx?.close();
  });

  it('runs and lists pods in its namespace, and is forbidden in another one', async () => {
    await kubectl('run', 'web', '--image=nginx:1.27', '--restart=Never');
    const pods = JSON.parse(await kubectl('get', 'pods', '-o', 'json'));
    expect(pods.items.map((pod: { metadata: { name: string } }) => pod.metadata.name)).toEqual(['web']);
    const forbidden = await kubectl('get', 'pods', '-n', 'lab-other').catch((error: { stderr: string }) => error.stderr);
    expect(forbidden).toMatch(/forbidden/i);
  });

  it('refuses a privileged hostPID/hostNetwork/hostPath pod with Forbidden (Pod Security baseline), while kubectl run of a plain pod works', async () => {
    // The attack Pod Security stops (docs/security.md): root on somebody else's contributed node.
    const manifest = join(ctx.dir, 'rooted.json');
    writeFileSync(
      manifest,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'rooted' },
        spec: {
          hostPID: true,
          hostNetwork: true,
          nodeName: 'sandbox-node-1',
          containers: [{ name: 'x', image: 'busybox', command: ['sleep', '3600'], securityContext: { privileged: true }, volumeMounts: [{ name: 'root', mountPath: '/host' }] }],
          volumes: [{ name: 'root', hostPath: { path: '/' } }],
        },
      }),
    );
    const refused = await kubectl('create', '-f', manifest).then(
      () => '',
      (error: { stderr: string }) => error.stderr,
    );
    expect(refused.trim()).toBe(
      'Error from server (Forbidden): error when creating "' + manifest + '": pods "rooted" is forbidden: violates PodSecurity "baseline:v1.34": ' +
        'host namespaces (hostNetwork=true, hostPID=true), hostPath volumes (volume "root"), privileged (container "x" must not set securityContext.privileged=true)',
    );
    const privileged = await kubectl('run', 'priv', '--image=busybox', '--restart=Never', '--privileged').catch((error: { stderr: string }) => error.stderr);
    expect(privileged).toContain('Error from server (Forbidden): pods "priv" is forbidden: violates PodSecurity "baseline:v1.34": privileged (container "priv" must not set securityContext.privileged=true)');

    // A plain pod runs; kubectl prints the restricted level's warning.
    const { stdout, stderr } = await runFile(KUBECTL, ['--kubeconfig', kubeconfig, 'run', 'plain', '--image=busybox', '--restart=Never'], { timeout: 20_000 });
    expect(stdout.trim()).toBe('pod/plain created');
    expect(stderr).toContain('Warning: would violate PodSecurity "restricted:v1.34": allowPrivilegeEscalation != false (container "plain" must set securityContext.allowPrivilegeEscalation=false)');
    const names = JSON.parse(await kubectl('get', 'pods', '-o', 'json')).items.map((pod: { metadata: { name: string } }) => pod.metadata.name);
    expect(names).toContain('plain');
    expect(names).not.toContain('rooted');
    expect(names).not.toContain('priv');
  });

  it('stops working once the access is revoked', async () => {
    await ctx.cluster.gateway.revokeMemberAccess({ namespace: 'lab-vision', workspaceId: 1, userId: 7 });
    const refused = await kubectl('get', 'pods').catch((error: { stderr: string }) => error.stderr);
    expect(refused).toMatch(/Unauthorized|must be logged in/i);
  });
});
