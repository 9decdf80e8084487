import { X509Certificate } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:https';
import { PassThrough } from 'node:stream';
import { CoreV1Api, KubeConfig, Log, NetworkingV1Api, RbacAuthorizationV1Api, VersionApi, Watch } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxCluster, type SandboxCluster } from '../src/cluster/sandbox/server.js';
import { loadState, nextSaveDelay, OBJECTS_PER_SLICE, SAVE_DELAY_CAP_MS, SAVE_DELAY_MS, saveState, writeStateInSlices } from '../src/cluster/sandbox/persistence.js';
import { ObjectStore } from '../src/cluster/sandbox/store.js';
import { eventually } from './helpers.js';

// The sandbox Kubernetes API server, driven by the same client library the gateway uses.

const FAST = { scheduleMs: 30, startMs: 80, logIntervalMs: 150, heartbeatMs: 400, terminationMs: 100 };

let storageDir: string;
let cluster: SandboxCluster;

function kubeConfigFor(sandbox: SandboxCluster, token: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'sandbox', server: sandbox.url, caData: Buffer.from(sandbox.caPem).toString('base64'), skipTLSVerify: false }],
    users: [{ name: 'user', token }],
    contexts: [{ name: 'sandbox', cluster: 'sandbox', user: 'user' }],
    currentContext: 'sandbox',
  });
  return kc;
}

/** The Kubernetes Status of a failed client call. */
async function statusOf(call: Promise<unknown>): Promise<Record<string, unknown> & { code: number; reason: string; message: string }> {
  try {
    await call;
  } catch (error) {
    const body = (error as { body?: unknown }).body;
    return typeof body === 'string' ? JSON.parse(body) : (body as never);
  }
  throw new Error('expected the call to fail');
}

/** A plain HTTPS request to the sandbox, trusting its CA: status code and parsed JSON body. */
 
function raw(path: string, options: { token?: string; method?: string; body?: unknown; contentType?: string } = {}): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${cluster.url}${path}`,
      {
        method: options.method ?? 'GET',
        ca: cluster.caPem,
        headers: {
          ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
          ...(options.body !== undefined ? { 'Content-Type': options.contentType ?? 'application/json' } : {}),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
      },
    );
    req.on('error', reject);
    req.end(options.body !== undefined ? JSON.stringify(options.body) : undefined);
  });
}

const namespace = (name: string) => ({ metadata: { name } });
const pod = (name: string, image = 'nginx:1.27') => ({ metadata: { name, labels: { app: name } }, spec: { containers: [{ name: 'main', image }] } });

beforeAll(async () => {
  storageDir = mkdtempSync(join(tmpdir(), 'sandbox-cluster-'));
  cluster = await startSandboxCluster({ storageDir, host: '127.0.0.1', port: 0, timings: FAST });
});

afterAll(async () => {
  await cluster?.close();
  rmSync(storageDir, { recursive: true, force: true });
});

describe('sandbox cluster: discovery and TLS', () => {
  it('serves /version and discovery over HTTPS with its own CA', async () => {
    expect(cluster.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const kc = kubeConfigFor(cluster, cluster.adminToken);
    const version = await kc.makeApiClient(VersionApi).getCode();
    expect(version.major).toBe('1');
    expect(version.gitVersion).toMatch(/^v1\.\d+\.\d+/);

    const api = await raw('/api', { token: cluster.adminToken });
    expect(api.body).toMatchObject({ kind: 'APIVersions', versions: ['v1'] });
    const apis = await raw('/apis', { token: cluster.adminToken });
    expect(apis.body.kind).toBe('APIGroupList');
    expect(apis.body.groups.map((g: { name: string }) => g.name)).toEqual(expect.arrayContaining(['rbac.authorization.k8s.io', 'networking.k8s.io']));
    expect((await raw('/apis/rbac.authorization.k8s.io', { token: cluster.adminToken })).body).toMatchObject({ kind: 'APIGroup', preferredVersion: { version: 'v1' } });
    const core = kc.makeApiClient(CoreV1Api);
    const resources = await core.getAPIResources();
    expect(resources.groupVersion).toBe('v1');
    expect(resources.resources.map((r) => r.name)).toEqual(expect.arrayContaining(['namespaces', 'pods', 'pods/log', 'nodes', 'serviceaccounts/token', 'configmaps', 'secrets', 'resourcequotas', 'limitranges']));
    const rbac = await kc.makeApiClient(RbacAuthorizationV1Api).getAPIResources();
    expect(rbac.resources.map((r) => r.name)).toEqual(expect.arrayContaining(['roles', 'rolebindings', 'clusterroles']));
    const networking = await kc.makeApiClient(NetworkingV1Api).getAPIResources();
    expect(networking.resources.map((r) => r.name)).toContain('networkpolicies');
  });

  it('rejects requests without a valid token with a 401 Status', async () => {
    for (const token of [undefined, 'not-a-token']) {
      const response = await raw('/api/v1/namespaces', { token });
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
    }
    expect((await raw('/version')).status).toBe(200);
    expect((await raw('/api/v1/nowhere', { token: cluster.adminToken })).body).toMatchObject({ code: 404, reason: 'NotFound', message: 'the server could not find the requested resource' });
  });

  it('keeps its CA, admin token and port under storage across restarts', async () => {
    const dir = join(storageDir, 'sandbox-cluster');
    expect(existsSync(join(dir, 'ca.crt'))).toBe(true);
    expect(readFileSync(join(dir, 'ca.crt'), 'utf8')).toBe(cluster.caPem);
    const ca = new X509Certificate(cluster.caPem);
    expect(ca.ca).toBe(true);
    const serving = new X509Certificate(readFileSync(join(dir, 'server.crt'), 'utf8'));
    expect(serving.verify(ca.publicKey)).toBe(true);
    expect(serving.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(serving.checkHost('localhost')).toBe('localhost');

    const second = await startSandboxCluster({ storageDir, port: 0, timings: FAST });
    try {
      expect(second.caPem).toBe(cluster.caPem);
      expect(second.adminToken).toBe(cluster.adminToken);
      const nodes = await kubeConfigFor(second, second.adminToken).makeApiClient(CoreV1Api).listNode();
      expect(nodes.items).toHaveLength(3);
      // The first run's port is still taken (it runs): another one, remembered in its place.
      expect(second.url).not.toBe(cluster.url);
      expect(readFileSync(join(dir, 'port'), 'utf8').trim()).toBe(new URL(second.url).port);
    } finally {
      await second.close();
    }
    // Free again: the next start takes the same address, so kubeconfigs keep working.
    const third = await startSandboxCluster({ storageDir, port: 0, timings: FAST });
    try {
      expect(third.url).toBe(second.url);
    } finally {
      await third.close();
    }
  });
});

describe('sandbox cluster: namespaces and Status errors', () => {
  it('creates, gets and lists namespaces with a root CA config map and default service account', async () => {
    const core = kubeConfigFor(cluster, cluster.adminToken).makeApiClient(CoreV1Api);
    const created = await core.createNamespace({ body: { metadata: { name: 'team-a', labels: { tenant: 'a' } } } });
    expect(created.metadata?.uid).toBeTruthy();
    expect(created.status?.phase).toBe('Active');
    const read = await core.readNamespace({ name: 'team-a' });
    expect(read.metadata?.labels).toMatchObject({ tenant: 'a', 'kubernetes.io/metadata.name': 'team-a' });
    const listed = await core.listNamespace({ labelSelector: 'tenant=a' });
    expect(listed.items.map((n) => n.metadata?.name)).toEqual(['team-a']);
    const all = await core.listNamespace();
    expect(all.items.map((n) => n.metadata?.name)).toEqual(expect.arrayContaining(['default', 'kube-system', 'team-a']));

    const rootCa = await core.readNamespacedConfigMap({ name: 'kube-root-ca.crt', namespace: 'team-a' });
    expect(rootCa.data?.['ca.crt']).toBe(cluster.caPem);
    await core.readNamespacedServiceAccount({ name: 'default', namespace: 'team-a' });
  });

  it('answers 409 AlreadyExists, 404 NotFound and 422 Invalid as Kubernetes Status objects', async () => {
    const core = kubeConfigFor(cluster, cluster.adminToken).makeApiClient(CoreV1Api);
    await core.createNamespace({ body: namespace('dup') });
    expect(await statusOf(core.createNamespace({ body: namespace('dup') }))).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'namespaces "dup" already exists', reason: 'AlreadyExists', details: { name: 'dup', kind: 'namespaces' }, code: 409,
    });
    expect(await statusOf(core.readNamespacedPod({ name: 'ghost', namespace: 'dup' }))).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'pods "ghost" not found', reason: 'NotFound', details: { name: 'ghost', kind: 'pods' }, code: 404,
    });
    const invalid = await statusOf(core.createNamespace({ body: namespace('Bad_Name') }));
    expect(invalid).toMatchObject({ code: 422, reason: 'Invalid', details: { name: 'Bad_Name', kind: 'Namespace', causes: [{ field: 'metadata.name' }] } });
    expect(invalid.message).toMatch(/^Namespace "Bad_Name" is invalid: metadata.name: Invalid value/);
    const noContainers = await statusOf(core.createNamespacedPod({ namespace: 'dup', body: { metadata: { name: 'empty' }, spec: { containers: [] } } }));
    expect(noContainers).toMatchObject({ code: 422, reason: 'Invalid', details: { kind: 'Pod', causes: [{ field: 'spec.containers' }] } });
    const missingNamespace = await statusOf(core.createNamespacedPod({ namespace: 'nowhere', body: pod('p') }));
    expect(missingNamespace).toMatchObject({ code: 404, reason: 'NotFound', message: 'namespaces "nowhere" not found' });
  });

  it('stores quotas, limit ranges, network policies and secrets', async () => {
    const kc = kubeConfigFor(cluster, cluster.adminToken);
    const core = kc.makeApiClient(CoreV1Api);
    await core.createNamespace({ body: namespace('tenancy') });
    await core.createNamespacedResourceQuota({ namespace: 'tenancy', body: { metadata: { name: 'quota' }, spec: { hard: { pods: '10', 'requests.cpu': '4' } } } });
    await core.createNamespacedLimitRange({ namespace: 'tenancy', body: { metadata: { name: 'limits' }, spec: { limits: [{ type: 'Container', _default: { cpu: '500m' } }] } } });
    await kc.makeApiClient(NetworkingV1Api).createNamespacedNetworkPolicy({
      namespace: 'tenancy',
      body: { metadata: { name: 'isolate' }, spec: { podSelector: {}, policyTypes: ['Ingress'], ingress: [{ _from: [{ podSelector: {} }] }] } },
    });
    await core.createNamespacedSecret({ namespace: 'tenancy', body: { metadata: { name: 's' }, stringData: { password: 'hunter2' } } });

    expect((await core.readNamespacedResourceQuota({ name: 'quota', namespace: 'tenancy' })).spec?.hard).toEqual({ pods: '10', 'requests.cpu': '4' });
    const limitRanges = (await core.listNamespacedLimitRange({ namespace: 'tenancy' })).items;
    expect(limitRanges).toHaveLength(1);
    expect(limitRanges[0].spec?.limits[0]._default).toEqual({ cpu: '500m' });
    const policies = await kc.makeApiClient(NetworkingV1Api).listNamespacedNetworkPolicy({ namespace: 'tenancy' });
    expect(policies.items[0].spec?.ingress?.[0]._from?.[0].podSelector).toEqual({});
    const secret = await core.readNamespacedSecret({ name: 's', namespace: 'tenancy' });
    expect(secret.type).toBe('Opaque');
    expect(Buffer.from(secret.data!.password, 'base64').toString()).toBe('hunter2');

    // client-node sends JSON patches by default; kubectl sends strategic merge patches
    const patched = await core.patchNamespacedResourceQuota({ name: 'quota', namespace: 'tenancy', body: [{ op: 'replace', path: '/spec/hard/pods', value: '20' }] });
    expect(patched.spec?.hard).toEqual({ pods: '20', 'requests.cpu': '4' });
    const merged = await raw('/api/v1/namespaces/tenancy/resourcequotas/quota', {
      token: cluster.adminToken, method: 'PATCH', contentType: 'application/merge-patch+json', body: { spec: { hard: { 'requests.cpu': null } } },
    });
    expect(merged.body.spec.hard).toEqual({ pods: '20' });
    // The quota controller writes status.hard after a spec change (a new resourceVersion), as a
    // real one does: the replace starts from the quota as it is now.
    const current = await core.readNamespacedResourceQuota({ name: 'quota', namespace: 'tenancy' });
    expect(current.status).toEqual({ hard: { pods: '20' }, used: { pods: '0' } });
    const replaced = await core.replaceNamespacedResourceQuota({ name: 'quota', namespace: 'tenancy', body: { ...current, spec: { hard: { pods: '5' } } } });
    expect(replaced.spec?.hard).toEqual({ pods: '5' });
    expect(await statusOf(core.replaceNamespacedResourceQuota({ name: 'quota', namespace: 'tenancy', body: patched }))).toMatchObject({ code: 409, reason: 'Conflict' });

    await core.deleteNamespace({ name: 'tenancy' });
    expect(await statusOf(core.readNamespacedSecret({ name: 's', namespace: 'tenancy' }))).toMatchObject({ code: 404 });
  });
});

describe('sandbox cluster: service account tokens and RBAC', () => {
  it('issues tokens that act only where a RoleBinding names the service account', async () => {
    const admin = kubeConfigFor(cluster, cluster.adminToken);
    const core = admin.makeApiClient(CoreV1Api);
    const rbac = admin.makeApiClient(RbacAuthorizationV1Api);
    await core.createNamespace({ body: namespace('ws-one') });
    await core.createNamespace({ body: namespace('ws-two') });
    await core.createNamespacedServiceAccount({ namespace: 'ws-one', body: { metadata: { name: 'member' } } });
    await rbac.createClusterRole({
      body: {
        metadata: { name: 'testbed-workspace-member' },
        rules: [{ apiGroups: [''], resources: ['pods', 'pods/log'], verbs: ['get', 'list', 'watch', 'create', 'delete'] }],
      },
    });
    await rbac.createNamespacedRoleBinding({
      namespace: 'ws-one',
      body: {
        metadata: { name: 'member' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'testbed-workspace-member' },
        subjects: [{ kind: 'ServiceAccount', name: 'member', namespace: 'ws-one' }],
      },
    });
    const request = await core.createNamespacedServiceAccountToken({
      name: 'member',
      namespace: 'ws-one',
      body: { spec: { audiences: [], expirationSeconds: 3600 } },
    });
    const token = request.status!.token;
    expect(token).toBeTruthy();
    expect(Date.parse(request.status!.expirationTimestamp as unknown as string)).toBeGreaterThan(Date.now() + 3500_000);

    const member = kubeConfigFor(cluster, token).makeApiClient(CoreV1Api);
    await member.createNamespacedPod({ namespace: 'ws-one', body: pod('mine') });
    const pods = await member.listNamespacedPod({ namespace: 'ws-one' });
    expect(pods.items.map((p) => p.metadata?.name)).toEqual(['mine']);

    const elsewhere = await statusOf(member.listNamespacedPod({ namespace: 'ws-two' }));
    expect(elsewhere).toMatchObject({ kind: 'Status', code: 403, reason: 'Forbidden', details: { kind: 'pods' } });
    expect(elsewhere.message).toBe('pods is forbidden: User "system:serviceaccount:ws-one:member" cannot list resource "pods" in API group "" in the namespace "ws-two"');
    expect(await statusOf(member.listNamespacedSecret({ namespace: 'ws-one' }))).toMatchObject({ code: 403 });
    expect(await statusOf(member.listNode())).toMatchObject({ code: 403, message: expect.stringContaining('at the cluster scope') });

    // Deleting the binding takes the access away; deleting the service account, the token.
    await rbac.deleteNamespacedRoleBinding({ name: 'member', namespace: 'ws-one' });
    expect(await statusOf(member.listNamespacedPod({ namespace: 'ws-one' }))).toMatchObject({ code: 403 });
    await core.deleteNamespacedServiceAccount({ name: 'member', namespace: 'ws-one' });
    // (client-node drops the body of a 401, so look at the raw answer)
    expect(await raw('/api/v1/namespaces/ws-one/pods', { token })).toMatchObject({ status: 401, body: { code: 401, reason: 'Unauthorized' } });
  });

  it('refuses token lifetimes under ten minutes', async () => {
    const core = kubeConfigFor(cluster, cluster.adminToken).makeApiClient(CoreV1Api);
    const status = await statusOf(core.createNamespacedServiceAccountToken({ name: 'default', namespace: 'default', body: { spec: { audiences: [], expirationSeconds: 60 } } }));
    expect(status).toMatchObject({ code: 422, reason: 'Invalid', details: { causes: [{ field: 'spec.expirationSeconds' }] } });
  });
});

describe('sandbox cluster: pods, nodes, watches and logs', () => {
  it('has three ready nodes with addresses, capacity and node info', async () => {
    const core = kubeConfigFor(cluster, cluster.adminToken).makeApiClient(CoreV1Api);
    const nodes = await core.listNode();
    expect(nodes.items).toHaveLength(3);
    for (const node of nodes.items) {
      expect(node.status?.addresses?.find((a) => a.type === 'InternalIP')?.address).toMatch(/^10\.240\.0\.\d+$/);
      expect(node.status?.capacity).toMatchObject({ cpu: expect.any(String), memory: expect.any(String), pods: '110' });
      expect(node.status?.nodeInfo?.kubeletVersion).toMatch(/^v1\./);
      expect(node.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
    }
  });

  it('runs a created pod: Pending, then Running on a sandbox node with podIP, hostIP and startTime', async () => {
    const core = kubeConfigFor(cluster, cluster.adminToken).makeApiClient(CoreV1Api);
    await core.createNamespace({ body: namespace('runs') });
    const created = await core.createNamespacedPod({ namespace: 'runs', body: pod('web') });
    expect(created.status?.phase).toBe('Pending');
    const running = await eventually(async () => {
      const current = await core.readNamespacedPod({ name: 'web', namespace: 'runs' });
      return current.status?.phase === 'Running' ? current : false;
    });
    expect(running.spec?.nodeName).toMatch(/^sandbox-node-[123]$/);
    expect(running.status?.podIP).toMatch(/^10\.244\.\d+\.\d+$/);
    expect(running.status?.hostIP).toMatch(/^10\.240\.0\.\d+$/);
    expect(running.status?.startTime).toBeTruthy();
    expect(running.status?.containerStatuses?.[0]).toMatchObject({ name: 'main', ready: true, state: { running: expect.anything() } });

    const byField = await core.listNamespacedPod({ namespace: 'runs', fieldSelector: 'status.phase=Running' });
    expect(byField.items).toHaveLength(1);
    await core.deleteNamespacedPod({ name: 'web', namespace: 'runs', gracePeriodSeconds: 0 });
    expect(await statusOf(core.readNamespacedPod({ name: 'web', namespace: 'runs' }))).toMatchObject({ code: 404 });
  });

  it('watches pods: ADDED, MODIFIED through the lifecycle, DELETED', async () => {
    const kc = kubeConfigFor(cluster, cluster.adminToken);
    const core = kc.makeApiClient(CoreV1Api);
    await core.createNamespace({ body: namespace('watched') });
    const list = await core.listNamespacedPod({ namespace: 'watched' });
    const events: { type: string; phase?: string; name?: string }[] = [];
    const controller = await new Watch(kc).watch(
      '/api/v1/namespaces/watched/pods',
      { resourceVersion: list.metadata?.resourceVersion },
      (type, object) => events.push({ type, phase: object.status?.phase, name: object.metadata?.name }),
      () => undefined,
    );
    try {
      await core.createNamespacedPod({ namespace: 'watched', body: pod('w1') });
      await eventually(async () => events.some((e) => e.type === 'MODIFIED' && e.phase === 'Running'));
      await core.deleteNamespacedPod({ name: 'w1', namespace: 'watched' });
      await eventually(async () => events.some((e) => e.type === 'DELETED'));
      expect(events[0]).toEqual({ type: 'ADDED', phase: 'Pending', name: 'w1' });
      expect(events.map((e) => e.type)).toContain('MODIFIED');
      expect(events.at(-1)).toMatchObject({ type: 'DELETED', name: 'w1' });
    } finally {
      controller.abort();
    }
  });

  it('watches nodes: the current nodes as ADDED, then heartbeats as MODIFIED', async () => {
    const kc = kubeConfigFor(cluster, cluster.adminToken);
    const events: string[] = [];
    const controller = await new Watch(kc).watch('/api/v1/nodes', {}, (type, object) => events.push(`${type} ${object.metadata.name}`), () => undefined);
    try {
      await eventually(async () => events.some((e) => e.startsWith('MODIFIED')));
      expect(events.slice(0, 3)).toEqual(['ADDED sandbox-node-1', 'ADDED sandbox-node-2', 'ADDED sandbox-node-3']);
    } finally {
      controller.abort();
    }
  });

  it('serves pod logs with tailLines, limitBytes and follow', async () => {
    const kc = kubeConfigFor(cluster, cluster.adminToken);
    const core = kc.makeApiClient(CoreV1Api);
    await core.createNamespace({ body: namespace('logs') });
    await core.createNamespacedPod({ namespace: 'logs', body: pod('talker', 'busybox:1.36') });
    const early = await statusOf(core.readNamespacedPodLog({ name: 'talker', namespace: 'logs' }));
    expect(early).toMatchObject({ code: 400, reason: 'BadRequest', message: 'container "main" in pod "talker" is waiting to start: ContainerCreating' });

    await eventually(async () => {
      const text = await core.readNamespacedPodLog({ name: 'talker', namespace: 'logs' }).catch(() => '');
      return text.split('\n').filter(Boolean).length >= 3 ? text : false;
    });
    const all = (await core.readNamespacedPodLog({ name: 'talker', namespace: 'logs' })).split('\n').filter(Boolean);
    expect(all[0]).toMatch(/started container main \(image busybox:1\.36\)/);
    const tail = await core.readNamespacedPodLog({ name: 'talker', namespace: 'logs', tailLines: 1 });
    expect(tail.split('\n').filter(Boolean)).toHaveLength(1);
    expect(tail).toMatch(/is running on sandbox-node-\d \(tick \d+\)\n$/);
    const limited = await core.readNamespacedPodLog({ name: 'talker', namespace: 'logs', limitBytes: 10 });
    expect(Buffer.byteLength(limited)).toBe(10);

    const stream = new PassThrough();
    let followed = '';
    stream.on('data', (chunk) => (followed += chunk));
    const controller = await new Log(kc).log('logs', 'talker', 'main', stream, { follow: true, tailLines: 0 });
    try {
      await eventually(async () => followed.split('\n').filter(Boolean).length >= 2);
      expect(followed).toMatch(/tick \d+\)\n/);
    } finally {
      controller.abort();
    }
  });
});

describe('sandbox cluster: state kept across restarts', () => {
  it('keeps namespaces, bindings, issued tokens and running pods (their logs carry on); ignores a damaged state file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-restart-'));
    let first: SandboxCluster | undefined = await startSandboxCluster({ storageDir: dir, port: 0, timings: FAST });
    let second: SandboxCluster | undefined;
    try {
      const admin = kubeConfigFor(first, first.adminToken);
      const core = admin.makeApiClient(CoreV1Api);
      const rbac = admin.makeApiClient(RbacAuthorizationV1Api);
      await core.createNamespace({ body: namespace('kept') });
      await core.createNamespacedServiceAccount({ namespace: 'kept', body: { metadata: { name: 'member' } } });
      await rbac.createNamespacedRoleBinding({
        namespace: 'kept',
        body: {
          metadata: { name: 'member' },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'admin' },
          subjects: [{ kind: 'ServiceAccount', name: 'member', namespace: 'kept' }],
        },
      });
      const token = (await core.createNamespacedServiceAccountToken({ name: 'member', namespace: 'kept', body: { spec: { audiences: [], expirationSeconds: 3600 } } })).status!.token;
      const member = kubeConfigFor(first, token).makeApiClient(CoreV1Api);
      await member.createNamespacedPod({ namespace: 'kept', body: pod('survivor', 'busybox:1.36') });
      const running = await eventually(async () => {
        const found = await member.readNamespacedPod({ name: 'survivor', namespace: 'kept' });
        return found.status?.phase === 'Running' ? found : false;
      });
      const url = first.url;
      await first.close();
      first = undefined;

      second = await startSandboxCluster({ storageDir: dir, port: 0, timings: FAST });
      expect(second.url).toBe(url);
      // The kubeconfig token issued before the restart still works, where it is bound.
      const again = kubeConfigFor(second, token).makeApiClient(CoreV1Api);
      const pods = await again.listNamespacedPod({ namespace: 'kept' });
      expect(pods.items.map((p) => [p.metadata?.name, p.status?.phase, p.status?.podIP, p.metadata?.uid])).toEqual([
        ['survivor', 'Running', running.status?.podIP, running.metadata?.uid],
      ]);
      expect(await statusOf(again.listNamespacedPod({ namespace: 'default' }))).toMatchObject({ code: 403 });
      const logs = await eventually(async () => {
        const text = await again.readNamespacedPodLog({ name: 'survivor', namespace: 'kept' });
        return text.includes('(tick 1)') ? text : false;
      });
      expect(logs).toContain('carries on after a sandbox restart');
      // New objects continue the resourceVersion sequence.
      const created = await kubeConfigFor(second, second.adminToken).makeApiClient(CoreV1Api).createNamespace({ body: namespace('later') });
      expect(Number(created.metadata?.resourceVersion)).toBeGreaterThan(Number(running.metadata?.resourceVersion));
      await second.close();
      second = undefined;

      writeFileSync(join(dir, 'sandbox-cluster', 'state.json'), '{ not json');
      second = await startSandboxCluster({ storageDir: dir, port: 0, timings: FAST });
      const fresh = kubeConfigFor(second, second.adminToken).makeApiClient(CoreV1Api);
      expect((await fresh.listNamespace()).items.map((n) => n.metadata?.name)).not.toContain('kept');
      const refused = await kubeConfigFor(second, token).makeApiClient(CoreV1Api).listNamespacedPod({ namespace: 'kept' }).catch((error: { code?: number }) => error);
      expect(refused).toMatchObject({ code: 401 });
    } finally {
      await first?.close();
      await second?.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('saving the state as it grows', () => {
  it('waits longer between saves as a save costs more, so saving holds the event loop about 5 % of the time at most', () => {
    expect(nextSaveDelay(0)).toBe(SAVE_DELAY_MS);
    expect(nextSaveDelay(5)).toBe(SAVE_DELAY_MS);
    // A state of thousands of workspaces: a 150 ms save is followed by 3 s without one.
    expect(nextSaveDelay(150)).toBe(3000);
    expect(150 / (150 + nextSaveDelay(150))).toBeLessThan(0.05);
    // Never longer than the cap: little is lost to a crash.
    expect(nextSaveDelay(10_000)).toBe(SAVE_DELAY_CAP_MS);
  });

  it('writes a large state a slice at a time, with the event loop free between slices, into the file a whole save writes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-slices-'));
    try {
      const store = new ObjectStore();
      const count = OBJECTS_PER_SLICE * 5 + 7;
      for (let n = 0; n < count; n += 1) {
        store.create('configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${n}`, namespace: `ns-${n % 7}` }, data: { n: String(n) } } as never);
      }
      store.create('namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kept' } } as never);

      // Other work runs while the file is written: a callback queued for every turn counts them.
      let turns = 0;
      let writing = true;
      const countTurns = () => {
        turns += 1;
        if (writing) setImmediate(countTurns);
      };
      setImmediate(countTurns);
      const sliced = join(dir, 'sliced.json');
      const written = writeStateInSlices(store, sliced);
      // Deleted while the write is under way (its slice not written yet): left out.
      store.delete('configmaps', `ns-${(count - 1) % 7}`, `cm-${count - 1}`);
      await written;
      writing = false;
      expect(turns).toBeGreaterThanOrEqual(5);

      const whole = join(dir, 'whole.json');
      saveState(store, whole);
      expect(JSON.parse(readFileSync(sliced, 'utf8'))).toEqual(JSON.parse(readFileSync(whole, 'utf8')));
      const restored = new ObjectStore();
      expect(loadState(restored, sliced)).toBe(true);
      expect(restored.list('configmaps')).toHaveLength(count - 1);
      expect(restored.get('namespaces', undefined, 'kept')).toBeDefined();
      expect(restored.resourceVersion).toBe(store.resourceVersion);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
