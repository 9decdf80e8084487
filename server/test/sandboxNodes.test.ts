import { createHash, createHmac, X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { connect } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadYaml } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxCluster, type SandboxCluster } from '../src/cluster/sandbox/server.js';
import { eventually, pause } from './helpers.js';

// Node joining on the sandbox cluster: bootstrap tokens as kubeadm stores them, what a
// bootstrapper may do, the anonymous cluster-info, and the simulated kubelets of new Nodes.

const FAST = { scheduleMs: 30, startMs: 80, logIntervalMs: 150, heartbeatMs: 100, terminationMs: 100, nodeReadyMs: 400, nodeMonitorGraceMs: 400 };

let storageDir: string;
let cluster: SandboxCluster;

 
type Json = any;

/** A plain HTTPS request to the sandbox trusting its CA; no token = no Authorization header. */
function call(path: string, options: { token?: string; method?: string; body?: unknown; contentType?: string; accept?: string } = {}): Promise<{ status: number; body: Json }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${cluster.url}${path}`,
      {
        method: options.method ?? 'GET',
        ca: cluster.caPem,
        headers: {
          ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
          ...(options.body !== undefined ? { 'Content-Type': options.contentType ?? 'application/json' } : {}),
          ...(options.accept ? { Accept: options.accept } : {}),
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

const admin = (path: string, options: { method?: string; body?: unknown; contentType?: string; accept?: string } = {}) => call(path, { ...options, token: cluster.adminToken });

/** A watch stream: the events so far, and a way to end it. */
function watch(path: string, token: string): Promise<{ events: { type: string; object: Json }[]; close(): void }> {
  return new Promise((resolve, reject) => {
    const events: { type: string; object: Json }[] = [];
    const req = request(`${cluster.url}${path}`, { ca: cluster.caPem, headers: { Authorization: `Bearer ${token}` } }, (res) => {
      let buffer = '';
      res.on('data', (chunk) => {
        buffer += chunk;
        let newline: number;
        while ((newline = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, newline);
          buffer = buffer.slice(newline + 1);
          if (line.trim()) events.push(JSON.parse(line));
        }
      });
      res.on('error', () => undefined);
      resolve({ events, close: () => req.destroy() });
    });
    req.on('error', (error) => (events.length ? undefined : reject(error)));
    req.end();
  });
}


const UNAUTHORIZED = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 };

/** The Secret `kubeadm token create` stores (stringData, folded into base64 data by the API). */
function bootstrapSecret(id: string, secret: string, overrides: Record<string, string | undefined> = {}, type = 'bootstrap.kubernetes.io/token') {
  const fields: Record<string, string | undefined> = {
    'token-id': id,
    'token-secret': secret,
    expiration: new Date(Date.now() + 3600_000).toISOString().replace(/\.\d+Z$/, 'Z'),
    'usage-bootstrap-authentication': 'true',
    'usage-bootstrap-signing': 'true',
    'auth-extra-groups': 'system:bootstrappers:kubeadm:default-node-token',
    ...overrides,
  };
  const stringData = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Record<string, string>;
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name: `bootstrap-token-${id}`, namespace: 'kube-system' }, type, stringData };
}

async function createToken(id: string, secret: string, overrides: Record<string, string | undefined> = {}, type?: string): Promise<string> {
  const created = await admin('/api/v1/namespaces/kube-system/secrets', { method: 'POST', body: bootstrapSecret(id, secret, overrides, type) });
  expect(created.status).toBe(201);
  return `${id}.${secret}`;
}

const whoami = (token?: string) =>
  call('/apis/authentication.k8s.io/v1/selfsubjectreviews', { token, method: 'POST', body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } });

/** A Node as the kubeadm join double posts it. */
const joiningNode = (name: string, ip: string) => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'arm64' } },
  status: {
    addresses: [
      { type: 'InternalIP', address: ip },
      { type: 'Hostname', address: name },
    ],
    nodeInfo: { architecture: 'arm64', operatingSystem: 'linux', osImage: 'Debian GNU/Linux 12 (bookworm)', kernelVersion: '6.1.0-rpi7-rpi-v8' },
  },
});

const condition = (node: Json, type: string) => node.status.conditions.find((c: Json) => c.type === type);

beforeAll(async () => {
  storageDir = mkdtempSync(join(tmpdir(), 'sandbox-nodes-'));
  cluster = await startSandboxCluster({ storageDir, host: '127.0.0.1', port: 0, timings: FAST });
});

afterAll(async () => {
  await cluster?.close();
  rmSync(storageDir, { recursive: true, force: true });
});

describe('sandbox cluster: bootstrap tokens', () => {
  it('authenticates a valid token as system:bootstrap:<id> with its groups', async () => {
    const token = await createToken('abcdef', '0123456789abcdef');
    const review = await whoami(token);
    expect(review.status).toBe(201);
    expect(review.body).toMatchObject({ kind: 'SelfSubjectReview', apiVersion: 'authentication.k8s.io/v1' });
    expect(review.body.status.userInfo).toEqual({
      username: 'system:bootstrap:abcdef',
      groups: ['system:bootstrappers', 'system:bootstrappers:kubeadm:default-node-token', 'system:authenticated'],
    });
    // the secret is stored as the API stores any Secret: base64 data, no stringData
    const stored = await admin('/api/v1/namespaces/kube-system/secrets/bootstrap-token-abcdef');
    expect(stored.body.stringData).toBeUndefined();
    expect(Buffer.from(stored.body.data['token-secret'], 'base64').toString()).toBe('0123456789abcdef');
  });

  it('accepts a token whose Secret was written with base64 data', async () => {
    const fields = { 'token-id': 'dat4id', 'token-secret': 'datasecret123456', 'usage-bootstrap-authentication': 'true' };
    const data = Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, Buffer.from(value).toString('base64')]));
    const created = await admin('/api/v1/namespaces/kube-system/secrets', {
      method: 'POST',
      body: { metadata: { name: 'bootstrap-token-dat4id' }, type: 'bootstrap.kubernetes.io/token', data },
    });
    expect(created.status).toBe(201);
    // no expiration = no expiry, no extra groups = only system:bootstrappers
    expect((await whoami('dat4id.datasecret123456')).body.status.userInfo.groups).toEqual(['system:bootstrappers', 'system:authenticated']);
  });

  it('refuses wrong, malformed, expired, unusable and deleted tokens with a 401 Status', async () => {
    const valid = await createToken('zyx987', 'abcdefghij012345');
    expect((await whoami(valid)).status).toBe(201);

    const expired = await createToken('exp111', 'abcdefghij012345', { expiration: new Date(Date.now() - 1000).toISOString() });
    const unparseable = await createToken('exp222', 'abcdefghij012345', { expiration: 'tomorrow' });
    const noAuthentication = await createToken('nouse1', 'abcdefghij012345', { 'usage-bootstrap-authentication': undefined });
    const wrongType = await createToken('opaq11', 'abcdefghij012345', {}, 'Opaque');
    const badGroup = await createToken('grp111', 'abcdefghij012345', { 'auth-extra-groups': 'system:masters' });
    const refused = [
      'zyx987.abcdefghij012346', // wrong secret
      'zyx987.ABCDEFGHIJ012345', // not the token format
      'zyx98.abcdefghij012345',
      'nosuch.abcdefghij012345', // no Secret
      expired,
      unparseable,
      noAuthentication,
      wrongType,
      badGroup,
    ];
    for (const token of refused) {
      const response = await call('/api/v1/nodes/sandbox-node-1', { token });
      expect({ token, status: response.status, body: response.body }).toEqual({ token, status: 401, body: UNAUTHORIZED });
    }

    expect((await admin('/api/v1/namespaces/kube-system/secrets/bootstrap-token-zyx987', { method: 'DELETE' })).status).toBe(200);
    expect(await whoami(valid)).toEqual({ status: 401, body: UNAUTHORIZED });
  });

  it('stops accepting a token when it expires', async () => {
    const token = await createToken('soon11', 'abcdefghij012345', { expiration: new Date(Date.now() + 1500).toISOString() });
    expect((await whoami(token)).status).toBe(201);
    await eventually(async () => (await whoami(token)).status === 401, { timeoutMs: 4000 });
    expect((await whoami(token)).body).toEqual(UNAUTHORIZED);
  });

  it('deletes expired bootstrap-token Secrets (the TokenCleaner), leaving the others', async () => {
    await createToken('gone11', 'abcdefghij012345', { expiration: new Date(Date.now() + 500).toISOString() });
    await createToken('kept11', 'abcdefghij012345', { expiration: new Date(Date.now() + 3600_000).toISOString() });
    const secretStatus = async (id: string) => (await admin(`/api/v1/namespaces/kube-system/secrets/bootstrap-token-${id}`)).status;
    expect(await secretStatus('gone11')).toBe(200);
    await eventually(async () => (await secretStatus('gone11')) === 404, { timeoutMs: 5000 });
    expect(await secretStatus('kept11')).toBe(200);
  });
});

describe('sandbox cluster: what a bootstrapper may do', () => {
  let token: string;
  let other: string;

  beforeAll(async () => {
    token = await createToken('join01', 'joinsecret012345');
    other = await createToken('join02', 'joinsecret012345');
  });

  it('creates a Node, reads and patches it, but nothing else', async () => {
    const created = await call('/api/v1/nodes', { token, method: 'POST', body: joiningNode('edge-1', '192.168.1.21') });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ kind: 'Node', apiVersion: 'v1', metadata: { name: 'edge-1', uid: expect.any(String) } });

    expect((await call('/api/v1/nodes/edge-1', { token })).body.metadata.name).toBe('edge-1');
    const patched = await call('/api/v1/nodes/edge-1', {
      token, method: 'PATCH', contentType: 'application/merge-patch+json', body: { metadata: { labels: { 'testbed.dev/site': 'lab' } } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.metadata.labels).toMatchObject({ 'testbed.dev/site': 'lab', 'kubernetes.io/arch': 'arm64' });
    const status = await call('/api/v1/nodes/edge-1/status', {
      token, method: 'PATCH', contentType: 'application/strategic-merge-patch+json', body: { status: { nodeInfo: { osImage: 'Debian GNU/Linux 12 (bookworm) updated' } } },
    });
    expect(status.status).toBe(200);
    expect(status.body.status.nodeInfo.osImage).toBe('Debian GNU/Linux 12 (bookworm) updated');

    const forbidden = (message: string, details: Json) => ({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'Forbidden', details, code: 403 });
    const user = 'User "system:bootstrap:join01"';
    expect(await call('/api/v1/pods', { token })).toEqual({
      status: 403,
      body: forbidden(`pods is forbidden: ${user} cannot list resource "pods" in API group "" at the cluster scope`, { kind: 'pods' }),
    });
    expect(await call('/api/v1/namespaces/kube-system/secrets', { token })).toEqual({
      status: 403,
      body: forbidden(`secrets is forbidden: ${user} cannot list resource "secrets" in API group "" in the namespace "kube-system"`, { kind: 'secrets' }),
    });
    expect(await call('/api/v1/nodes/sandbox-node-1', { token })).toEqual({
      status: 403,
      body: forbidden(`nodes "sandbox-node-1" is forbidden: ${user} cannot get resource "nodes" in API group "" at the cluster scope`, { name: 'sandbox-node-1', kind: 'nodes' }),
    });
    expect((await call('/api/v1/nodes', { token })).status).toBe(403);
    expect((await call('/api/v1/nodes?watch=true', { token })).status).toBe(403);
    expect((await call('/api/v1/nodes/edge-1', { token, method: 'DELETE' })).body).toMatchObject({
      code: 403, message: `nodes "edge-1" is forbidden: ${user} cannot delete resource "nodes" in API group "" at the cluster scope`,
    });
    expect((await call('/api/v1/namespaces/kube-system/configmaps/cluster-info', { token })).status).toBe(403);
    expect((await call('/api/v1/namespaces/kube-public/configmaps/cluster-info', { token })).status).toBe(200);

    // another token may not touch the Node the first one created
    expect((await call('/api/v1/nodes/edge-1', { token: other })).body).toMatchObject({
      code: 403, message: 'nodes "edge-1" is forbidden: User "system:bootstrap:join02" cannot get resource "nodes" in API group "" at the cluster scope',
    });
    expect((await call('/api/v1/nodes/edge-1/status', { token: other, method: 'PATCH', contentType: 'application/merge-patch+json', body: { status: {} } })).status).toBe(403);
    // …nor create one of the same name
    expect((await call('/api/v1/nodes', { token: other, method: 'POST', body: joiningNode('edge-1', '192.168.1.99') })).body).toMatchObject({
      code: 409, reason: 'AlreadyExists', message: 'nodes "edge-1" already exists',
    });
  });

  it('loses its rights on its Node when the Node is deleted and recreated by someone else', async () => {
    expect((await call('/api/v1/nodes', { token, method: 'POST', body: joiningNode('edge-1b', '192.168.1.22') })).status).toBe(201);
    expect((await admin('/api/v1/nodes/edge-1b', { method: 'DELETE' })).status).toBe(200);
    expect((await admin('/api/v1/nodes', { method: 'POST', body: joiningNode('edge-1b', '192.168.1.22') })).status).toBe(201);
    expect((await call('/api/v1/nodes/edge-1b', { token })).status).toBe(403);
  });
});

describe('sandbox cluster: cluster-info', () => {
  it('serves kube-public/cluster-info anonymously with the CA the API server uses, and nothing else', async () => {
    const response = await call('/api/v1/namespaces/kube-public/configmaps/cluster-info');
    expect(response.status).toBe(200);
    expect(response.body.metadata).toMatchObject({ name: 'cluster-info', namespace: 'kube-public' });
    // kubeadm's shape: one nameless cluster, no users or contexts
    const kubeconfig = loadYaml<Json>(response.body.data.kubeconfig);
    expect(kubeconfig).toMatchObject({ apiVersion: 'v1', kind: 'Config', clusters: [{ name: '', cluster: { server: cluster.url } }], users: null, contexts: null });
    const caPem = Buffer.from(kubeconfig.clusters[0].cluster['certificate-authority-data'], 'base64').toString();
    expect(caPem).toBe(cluster.caPem);

    // the API server's TLS chain verifies with exactly that CA, as kubeadm's discovery checks
    const peer = await new Promise<X509Certificate>((resolve, reject) => {
      const url = new URL(cluster.url);
      const socket = connect({ host: url.hostname, port: Number(url.port), ca: caPem, servername: 'localhost' }, () => {
        const certificate = socket.getPeerX509Certificate();
        socket.end();
        if (socket.authorized && certificate) resolve(certificate);
        else reject(socket.authorizationError ?? new Error('no peer certificate'));
      });
      socket.on('error', reject);
    });
    const ca = new X509Certificate(caPem);
    expect(peer.verify(ca.publicKey)).toBe(true);
    expect(peer.checkIssued(ca)).toBe(true);
    // kubeadm's --discovery-token-ca-cert-hash is sha256 over this DER
    expect(createHash('sha256').update(ca.publicKey.export({ type: 'spki', format: 'der' })).digest('hex')).toMatch(/^[0-9a-f]{64}$/);

    for (const path of ['/api/v1/namespaces/kube-public/configmaps', '/api/v1/namespaces/kube-system/configmaps/cluster-info', '/api/v1/nodes', '/api', '/api/v1/namespaces/kube-public/configmaps/kube-root-ca.crt']) {
      expect({ path, ...(await call(path)) }).toEqual({ path, status: 401, body: UNAUTHORIZED });
    }
    // anonymous, but not allowed to do more than read it
    expect(await call('/api/v1/namespaces/kube-public/configmaps/cluster-info', { method: 'PUT', body: response.body })).toMatchObject({
      status: 403,
      body: { reason: 'Forbidden', message: 'configmaps "cluster-info" is forbidden: User "system:anonymous" cannot update resource "configmaps" in API group "" in the namespace "kube-public"' },
    });
    // a bad token is not anonymous
    expect((await call('/api/v1/namespaces/kube-public/configmaps/cluster-info', { token: 'nosuch.abcdefghij012345' })).status).toBe(401);
  });

  it('carries a jws-kubeconfig-<id> signature per signing token, as the BootstrapSigner does', async () => {
    const token = await createToken('sign01', 'signsecret012345');
    const jws = await eventually(async () => ((await call('/api/v1/namespaces/kube-public/configmaps/cluster-info')).body.data['jws-kubeconfig-sign01'] as string | undefined) ?? false);
    const kubeconfig = (await call('/api/v1/namespaces/kube-public/configmaps/cluster-info')).body.data.kubeconfig as string;
    const [header, empty, signature] = jws.split('.');
    expect(empty).toBe('');
    expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toEqual({ alg: 'HS256', kid: 'sign01' });
    const expected = createHmac('sha256', token).update(`${header}.${Buffer.from(kubeconfig).toString('base64url')}`).digest('base64url');
    expect(signature).toBe(expected);

    await admin('/api/v1/namespaces/kube-system/secrets/bootstrap-token-sign01', { method: 'DELETE' });
    await eventually(async () => (await call('/api/v1/namespaces/kube-public/configmaps/cluster-info')).body.data['jws-kubeconfig-sign01'] === undefined);
  });
});

describe('sandbox cluster: simulated kubelets', () => {
  let token: string;

  beforeAll(async () => {
    token = await createToken('kube01', 'kubesecret012345');
  });

  it('gives a created Node default status, then Ready after nodeReadyMs, then heartbeats (seen by a watch)', async () => {
    const nodes = await watch('/api/v1/nodes?watch=true&fieldSelector=metadata.name%3Dedge-2', cluster.adminToken);
    try {
      const created = await call('/api/v1/nodes', { token, method: 'POST', body: joiningNode('edge-2', '192.168.1.30') });
      expect(created.status).toBe(201);
      const node = created.body;
      expect(condition(node, 'Ready')).toMatchObject({ status: 'False', reason: 'KubeletNotReady', message: expect.stringContaining('cni plugin not initialized') });
      for (const type of ['MemoryPressure', 'DiskPressure', 'PIDPressure']) expect(condition(node, type)).toMatchObject({ status: 'False' });
      expect(node.status.capacity).toEqual({ cpu: expect.any(String), memory: expect.stringMatching(/Ki$/), pods: '110', 'ephemeral-storage': expect.any(String) });
      expect(node.status.allocatable).toMatchObject({ pods: '110' });
      expect(node.status.daemonEndpoints).toEqual({ kubeletEndpoint: { Port: 10250 } });
      // what the client sent is kept; the rest is filled in
      expect(node.status.nodeInfo).toMatchObject({ architecture: 'arm64', osImage: 'Debian GNU/Linux 12 (bookworm)', kubeletVersion: expect.stringMatching(/^v1\./) });
      expect(node.status.addresses).toContainEqual({ type: 'InternalIP', address: '192.168.1.30' });
      expect(node.spec.podCIDR).toMatch(/^10\.244\.\d+\.0\/24$/);
      expect(['10.244.1.0/24', '10.244.2.0/24', '10.244.3.0/24']).not.toContain(node.spec.podCIDR);

      const ready = await eventually(() => nodes.events.find((e) => e.type === 'MODIFIED' && condition(e.object, 'Ready').status === 'True') ?? false);
      expect(nodes.events[0]).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'edge-2' } } });
      expect(condition(ready.object, 'Ready')).toMatchObject({ reason: 'KubeletReady', message: 'kubelet is posting ready status' });
      expect(Date.parse(condition(ready.object, 'Ready').lastTransitionTime)).toBeGreaterThanOrEqual(Date.parse(node.metadata.creationTimestamp));
      const readyAt = nodes.events.indexOf(ready);
      // heartbeats: more MODIFIED events, Ready all along
      await eventually(() => nodes.events.length >= readyAt + 3);
      for (const event of nodes.events.slice(readyAt)) {
        expect(event.type).toBe('MODIFIED');
        expect(condition(event.object, 'Ready').status).toBe('True');
      }
      expect(Number(nodes.events.at(-1)!.object.metadata.resourceVersion)).toBeGreaterThan(Number(ready.object.metadata.resourceVersion));
    } finally {
      nodes.close();
    }
  });

  it('schedules pods onto a joined Node once it is Ready', async () => {
    // every node there is so far is cordoned: only the one joining now can take the pod
    const others: string[] = (await admin('/api/v1/nodes')).body.items.map((n: Json) => n.metadata.name);
    expect(others).toEqual(expect.arrayContaining(['sandbox-node-1', 'sandbox-node-2', 'sandbox-node-3']));
    const cordon = (name: string, unschedulable: boolean) =>
      admin(`/api/v1/nodes/${name}`, { method: 'PATCH', contentType: 'application/merge-patch+json', body: { spec: { unschedulable: unschedulable || null } } });
    for (const name of others) expect((await cordon(name, true)).body.spec.unschedulable).toBe(true);
    try {
      await admin('/api/v1/namespaces', { method: 'POST', body: { metadata: { name: 'on-edge' } } });
      const joined = await call('/api/v1/nodes', { token, method: 'POST', body: joiningNode('edge-3', '192.168.1.40') });
      const podCidr: string = joined.body.spec.podCIDR;
      await admin('/api/v1/namespaces/on-edge/pods', { method: 'POST', body: { metadata: { name: 'web' }, spec: { containers: [{ name: 'main', image: 'nginx:1.27' }] } } });
      // no Ready, schedulable node yet: Pending and Unschedulable
      const pending = await eventually(async () => {
        const pod = (await admin('/api/v1/namespaces/on-edge/pods/web')).body;
        return pod.status.conditions?.some((c: Json) => c.type === 'PodScheduled') ? pod : false;
      });
      expect(pending.status.phase).toBe('Pending');
      expect(pending.spec.nodeName).toBeUndefined();
      expect(pending.status.conditions[0]).toMatchObject({ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: expect.stringMatching(/^0\/\d+ nodes are available/) });

      const running = await eventually(async () => {
        const pod = (await admin('/api/v1/namespaces/on-edge/pods/web')).body;
        return pod.status.phase === 'Running' ? pod : false;
      });
      expect(running.spec.nodeName).toBe('edge-3');
      expect(running.status.hostIP).toBe('192.168.1.40');
      expect(running.status.podIP.startsWith(podCidr.replace(/0\/24$/, ''))).toBe(true);
    } finally {
      for (const name of others) await cordon(name, false);
    }
    expect((await admin('/api/v1/nodes/sandbox-node-1')).body.spec.unschedulable).toBeUndefined();
  });

  it('setNodeCondition changes what the kubelet reports, visible through the API and kept across heartbeats', async () => {
    await call('/api/v1/nodes', { token, method: 'POST', body: joiningNode('edge-4', '192.168.1.50') });
    await eventually(async () => condition((await admin('/api/v1/nodes/edge-4')).body, 'Ready').status === 'True');

    const answered = cluster.setNodeCondition('edge-4', 'DiskPressure', 'True');
    expect(condition(answered, 'DiskPressure')).toMatchObject({ status: 'True', reason: 'KubeletHasDiskPressure', message: 'kubelet has disk pressure' });
    const before = condition((await admin('/api/v1/nodes/edge-4')).body, 'DiskPressure');
    expect(before.status).toBe('True');
    await pause(FAST.heartbeatMs * 3);
    const after = condition((await admin('/api/v1/nodes/edge-4')).body, 'DiskPressure');
    expect(after).toMatchObject({ status: 'True', reason: 'KubeletHasDiskPressure', lastTransitionTime: before.lastTransitionTime });
    expect(Date.parse(after.lastHeartbeatTime)).toBeGreaterThanOrEqual(Date.parse(before.lastHeartbeatTime));

    cluster.setNodeCondition('edge-4', 'Ready', 'False', { reason: 'KubeletNotReady', message: 'PLEG is not healthy' });
    expect(condition((await admin('/api/v1/nodes/edge-4')).body, 'Ready')).toMatchObject({ status: 'False', reason: 'KubeletNotReady', message: 'PLEG is not healthy' });
    cluster.setNodeCondition('edge-4', 'Ready', 'True');
    cluster.setNodeCondition('edge-4', 'DiskPressure', 'False');
    const healthy = (await admin('/api/v1/nodes/edge-4')).body;
    expect(condition(healthy, 'Ready')).toMatchObject({ status: 'True', reason: 'KubeletReady' });
    expect(condition(healthy, 'DiskPressure')).toMatchObject({ status: 'False', reason: 'KubeletHasNoDiskPressure' });
    expect(() => cluster.setNodeCondition('no-such-node', 'Ready', 'True')).toThrow(/no kubelet for node "no-such-node"/);
  });

  it('stopKubelet: heartbeats stop and after the grace the conditions turn Unknown; startKubelet brings it back', async () => {
    await call('/api/v1/nodes', { token, method: 'POST', body: joiningNode('edge-5', '192.168.1.60') });
    await eventually(async () => condition((await admin('/api/v1/nodes/edge-5')).body, 'Ready').status === 'True');
    const nodes = await watch('/api/v1/nodes?watch=true&fieldSelector=metadata.name%3Dedge-5', cluster.adminToken);
    try {
      cluster.stopKubelet('edge-5');
      expect(cluster.kubeletRunning('edge-5')).toBe(false);
      const lastPost = condition((await admin('/api/v1/nodes/edge-5')).body, 'Ready').lastHeartbeatTime;
      const unknown = await eventually(() => nodes.events.find((e) => e.type === 'MODIFIED' && condition(e.object, 'Ready').status === 'Unknown') ?? false);
      for (const type of ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure']) {
        expect(condition(unknown.object, type)).toMatchObject({ status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.', lastHeartbeatTime: lastPost });
      }
      // nothing posts while the kubelet is stopped
      const count = nodes.events.length;
      await pause(FAST.heartbeatMs * 4);
      expect(nodes.events.length).toBe(count);

      cluster.startKubelet('edge-5');
      const back = (await admin('/api/v1/nodes/edge-5')).body;
      expect(condition(back, 'Ready')).toMatchObject({ status: 'True', reason: 'KubeletReady' });
      expect(Date.parse(condition(back, 'Ready').lastHeartbeatTime)).toBeGreaterThan(Date.parse(lastPost) - 1);
      await eventually(() => nodes.events.length >= count + 3);
    } finally {
      nodes.close();
    }
  });

  it('drives the built-in nodes the same way', async () => {
    cluster.stopKubelet('sandbox-node-3');
    try {
      const unknown = await eventually(async () => {
        const node = (await admin('/api/v1/nodes/sandbox-node-3')).body;
        return condition(node, 'Ready').status === 'Unknown' ? node : false;
      });
      expect(condition(unknown, 'Ready').reason).toBe('NodeStatusUnknown');
    } finally {
      cluster.startKubelet('sandbox-node-3');
    }
    expect(condition((await admin('/api/v1/nodes/sandbox-node-3')).body, 'Ready').status).toBe('True');
  });

  it('keeps status out of Node updates and spec out of status updates', async () => {
    await admin('/api/v1/nodes', { method: 'POST', body: joiningNode('edge-6', '192.168.1.70') });
    cluster.setNodeCondition('edge-6', 'Ready', 'False'); // stays NotReady: the kubelet reports so from now on
    // The simulated kubelet's heartbeat may write the Node between a read and a replace, which
    // the API refuses as a conflict (409), as Kubernetes does: read it again and replace again.
    const replaceFresh = async (path: string, change: (node: any) => unknown) => {
      for (let attempt = 0; ; attempt += 1) {
        const node = (await admin('/api/v1/nodes/edge-6')).body;
        const answer = await admin(path, { method: 'PUT', body: change(node) });
        if (answer.status !== 409 || attempt === 5) return { node, answer };
      }
    };
    const { node: current, answer: replaced } = await replaceFresh('/api/v1/nodes/edge-6', (node) => ({
      ...node,
      spec: { ...node.spec, unschedulable: true },
      status: { ...node.status, capacity: { cpu: '64' } },
    }));
    expect(replaced.status).toBe(200);
    expect(replaced.body.spec.unschedulable).toBe(true);
    expect(replaced.body.status.capacity.cpu).toBe(current.status.capacity.cpu);
    const table = await admin('/api/v1/nodes/edge-6', { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    expect(table.body.columnDefinitions[1].name).toBe('Status');
    expect(table.body.rows[0].cells[1]).toBe('NotReady,SchedulingDisabled');
    const { answer: status } = await replaceFresh('/api/v1/nodes/edge-6/status', (node) => ({
      ...node,
      spec: { ...node.spec, unschedulable: false },
      status: { ...node.status, capacity: { ...node.status.capacity, cpu: '8' } },
    }));
    expect(status.status).toBe(200);
    expect(status.body.status.capacity.cpu).toBe('8');
    expect(status.body.spec.unschedulable).toBe(true);
    expect((await admin('/api/v1/nodes/edge-6/status', { method: 'PUT', body: { ...status.body, metadata: { ...status.body.metadata, resourceVersion: '1' } } })).body).toMatchObject({ code: 409, reason: 'Conflict' });
  });

  it('stops the kubelet of a Node deleted through the API', async () => {
    await call('/api/v1/nodes', { token, method: 'POST', body: joiningNode('edge-7', '192.168.1.80') });
    expect(cluster.kubeletRunning('edge-7')).toBe(true);
    const nodes = await watch('/api/v1/nodes?watch=true&fieldSelector=metadata.name%3Dedge-7', cluster.adminToken);
    try {
      await eventually(() => nodes.events.some((e) => e.type === 'MODIFIED'));
      const deleted = await admin('/api/v1/nodes/edge-7', { method: 'DELETE' });
      expect(deleted.body).toMatchObject({ kind: 'Node', metadata: { name: 'edge-7' } });
      await eventually(() => nodes.events.some((e) => e.type === 'DELETED'));
      await pause(Math.max(FAST.heartbeatMs, FAST.nodeReadyMs) * 2);
      expect(nodes.events.at(-1)!.type).toBe('DELETED');
      expect((await admin('/api/v1/nodes/edge-7')).status).toBe(404);
      expect(() => cluster.kubeletRunning('edge-7')).toThrow(/no kubelet/);
      // the token may not read a Node of that name again
      expect((await call('/api/v1/nodes/edge-7', { token })).status).toBe(403);
    } finally {
      nodes.close();
    }
  });
});
