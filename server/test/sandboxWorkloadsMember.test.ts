import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, eventually, type TestContext } from './helpers.js';
import { FAST_SANDBOX_TIMINGS, kubectlAvailable } from './kubectl.js';
import { kubectlOutcome, saveKubeconfig, teamWithWorkspace } from './kubeconfigFixtures.js';

// Workloads through the kubeconfig a workspace member downloads (the console's member
// ClusterRole, the workspace quota and LimitRange, Pod Security baseline): allowed in the
// workspace's namespace, forbidden elsewhere, and a Deployment whose pods the quota refuses says
// so in its status, as on a real cluster.

const haveKubectl = kubectlAvailable('server/test/sandboxWorkloadsMember.test.ts', 'workloads through a member kubeconfig');

let ctx: TestContext;
beforeAll(async () => {
  if (haveKubectl) ctx = await createTestContext({ cluster: { timings: { ...FAST_SANDBOX_TIMINGS, jobRunMs: 300 } }, reconciler: true });
});
afterAll(async () => {
  await ctx?.close();
});

describe.runIf(haveKubectl)('workloads with a member kubeconfig', () => {
  let kubectl: (...args: string[]) => Promise<string>;
  let outcome: (...args: string[]) => Promise<{ ok: boolean; output: string }>;
  let namespace: string;

  beforeAll(async () => {
    const { workspace, people } = await teamWithWorkspace(ctx);
    await ctx.db.updateTable('workspaces').set({ quota_pods: 2, cluster_state: 'pending' }).where('id', '=', workspace.id).execute();
    expect((await ctx.reconciler.reconcileOnce()).failed).toBe(0);
    const issued = await ctx.inject('POST', `/api/subnamespaces/${workspace.id}/kubeconfig`, { token: people.member.token });
    expect(issued.statusCode).toBe(201);
    const file = saveKubeconfig(ctx, issued.json().kubeconfig);
    namespace = workspace.namespace;
    outcome = (...args) => kubectlOutcome(file, ...args);
    kubectl = async (...args) => {
      const result = await outcome(...args);
      expect(result.ok, result.output).toBe(true);
      return result.output;
    };
  });

  it('creates, scales and rolls out a deployment, exposes it as a service and runs a job in its own namespace', async () => {
    expect(await kubectl('create', 'deployment', 'web', '--image=nginx:1.27')).toBe('deployment.apps/web created\n');
    expect(await kubectl('rollout', 'status', 'deployment/web', '--timeout=20s')).toMatch(/successfully rolled out/);
    // the workspace LimitRange's defaults reach the deployment's pods
    const [pod] = JSON.parse(await kubectl('get', 'pods', '-l', 'app=web', '-o', 'json')).items;
    expect(pod.spec.containers[0].resources).toEqual({ limits: { cpu: '500m', memory: '512Mi' }, requests: { cpu: '100m', memory: '128Mi' } });
    expect(await kubectl('scale', 'deployment', 'web', '--replicas=2')).toBe('deployment.apps/web scaled\n');
    expect(await kubectl('rollout', 'status', 'deployment/web', '--timeout=20s')).toMatch(/successfully rolled out/);
    expect(await kubectl('expose', 'deployment', 'web', '--port=80')).toBe('service/web exposed\n');
    expect(JSON.parse(await kubectl('get', 'svc', 'web', '-o', 'json')).spec.selector).toEqual({ app: 'web' });
    expect(await kubectl('scale', 'deployment', 'web', '--replicas=1')).toBe('deployment.apps/web scaled\n');
    await eventually(async () => expect(JSON.parse(await kubectl('get', 'pods', '-l', 'app=web', '-o', 'json')).items).toHaveLength(1), { timeoutMs: 10_000 });
    expect(await kubectl('create', 'job', 'once', '--image=busybox:1.36', '--', 'true')).toBe('job.batch/once created\n');
    expect(await kubectl('wait', '--for=condition=complete', 'job/once', '--timeout=20s')).toBe('job.batch/once condition met\n');
    expect(await kubectl('delete', 'job', 'once')).toBe('job.batch "once" deleted\n');
    expect(await kubectl('delete', 'deployment', 'web')).toBe('deployment.apps "web" deleted\n');
    await eventually(async () => expect(JSON.parse(await kubectl('get', 'pods', '-o', 'json')).items).toEqual([]), { timeoutMs: 10_000 });
  });

  it('applies a manifest file as kubectl does by default (schemas and field validation), and is told of a misspelt field', async () => {
    const file = (extra: string) => {
      const path = join(ctx.dir, 'member-web.yaml');
      writeFileSync(path, `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: applied}\nspec:\n  selector: {matchLabels: {app: applied}}\n  template:\n    metadata: {labels: {app: applied}}\n    spec:\n      containers: [{name: web, image: nginx:1.27${extra}}]\n`);
      return path;
    };
    expect(await kubectl('apply', '-f', file(''))).toBe('deployment.apps/applied created\n');
    const misspelt = await outcome('apply', '-f', file(', imagePullPolcy: Always'));
    expect(misspelt.ok).toBe(false);
    expect(misspelt.output).toContain('strict decoding error: unknown field "spec.template.spec.containers[0].imagePullPolcy"');
    expect(await kubectl('delete', 'deployment', 'applied')).toBe('deployment.apps "applied" deleted\n');
  });

  it('is forbidden to create or list deployments in another namespace', async () => {
    const created = await outcome('create', 'deployment', 'web', '--image=nginx:1.27', '-n', 'default');
    expect(created.ok).toBe(false);
    expect(created.output).toMatch(/^error: failed to create deployment: deployments\.apps is forbidden: User "system:serviceaccount:testbed-identities:member-w\d+-u\d+" cannot create resource "deployments" in API group "apps" in the namespace "default"/);
    const listed = await outcome('get', 'jobs', '-n', 'default');
    expect(listed.output).toMatch(/Error from server \(Forbidden\): jobs\.batch is forbidden: .* cannot list resource "jobs" in API group "batch" in the namespace "default"/);
  });

  it('shows the pods the quota refuses in the deployment and replica set status (ReplicaFailure), and creates them once there is room', async () => {
    expect(await kubectl('create', 'deployment', 'big', '--image=nginx:1.27', '--replicas=3')).toBe('deployment.apps/big created\n');
    const deployment = await eventually(async () => {
      const d = JSON.parse(await kubectl('get', 'deployment', 'big', '-o', 'json'));
      return d.status?.conditions?.some((c: { type: string }) => c.type === 'ReplicaFailure') ? d : false;
    }, { timeoutMs: 10_000 });
    const failed = deployment.status.conditions.find((c: { type: string }) => c.type === 'ReplicaFailure');
    expect(failed).toMatchObject({ status: 'True', reason: 'FailedCreate' });
    expect(failed.message).toMatch(/^pods "big-[a-z0-9]+-[a-z0-9]+" is forbidden: exceeded quota: testbed-quota, requested: pods=1, used: pods=2, limited: pods=2$/);
    const [rs] = JSON.parse(await kubectl('get', 'rs', '-o', 'json')).items;
    expect(rs.status.conditions).toEqual([expect.objectContaining({ type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate', message: failed.message })]);
    expect(await kubectl('get', 'deployment', 'big')).toMatch(/big\s+2\/3\s+2\s+2\s+/);

    await ctx.db.updateTable('workspaces').set({ quota_pods: 3, cluster_state: 'pending' }).where('namespace', '=', namespace).execute();
    expect((await ctx.reconciler.reconcileOnce()).failed).toBe(0);
    expect(await kubectl('rollout', 'status', 'deployment/big', '--timeout=20s')).toMatch(/successfully rolled out/);
    const conditions = JSON.parse(await kubectl('get', 'deployment', 'big', '-o', 'json')).status.conditions.map((c: { type: string }) => c.type);
    expect(conditions).toEqual(['Available', 'Progressing']);
  });
});
