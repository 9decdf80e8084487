import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterNode } from '../src/cluster/gateway.js';
import { DEFAULT_RATE_LIMITS } from '../src/config/config.js';
import { CODE_INVALID, CODE_UNKNOWN, HOSTNAME_INVALID, IPV4_INVALID, IPV4_REQUIRED } from '../src/nodes/schemas.js';
import { deriveNodeSecret } from '../src/nodes/secrets.js';
import { lastHeartbeat, severityOfStatus, statusFromNode, typeFromArchitecture } from '../src/nodes/status.js';
import { createTestContext, type SignedInUser, type TestContext } from './helpers.js';
import { FAST, nodeRecord, nodeUser, secretOf } from './nodesFixtures.js';

// The console side of nodes (docs/nodes-contract.md): POST /api/nodes validation, ownership,
// activity, the image download, and the platform admins' view of the sandbox cluster's Nodes.

const NOW = new Date('2026-11-22T10:00:00Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();

function clusterNode(conditions: Record<string, string>, options: { unschedulable?: boolean; heartbeat?: string | null } = {}): Pick<ClusterNode, 'conditions' | 'unschedulable'> {
  return {
    unschedulable: options.unschedulable ?? false,
    conditions: Object.entries(conditions).map(([type, status]) => ({
      type,
      status,
      reason: null,
      message: null,
      lastHeartbeatTime: options.heartbeat === undefined ? ago(10_000) : options.heartbeat,
    })),
  };
}

describe('status from the Node object', () => {
  const healthy = { MemoryPressure: 'False', DiskPressure: 'False', PIDPressure: 'False', Ready: 'True' };

  it('is ok when Ready, warning with a pressure condition or cordoned', () => {
    expect(statusFromNode(clusterNode(healthy), NOW)).toBe('ok');
    for (const pressure of ['MemoryPressure', 'DiskPressure', 'PIDPressure', 'NetworkUnavailable']) {
      expect(statusFromNode(clusterNode({ ...healthy, [pressure]: 'True' }), NOW), pressure).toBe('warning');
    }
    expect(statusFromNode(clusterNode(healthy, { unschedulable: true }), NOW)).toBe('warning');
    // Some other condition being True is not a pressure.
    expect(statusFromNode(clusterNode({ ...healthy, KernelDeadlock: 'True' }), NOW)).toBe('ok');
  });

  it('is error when not Ready, unknown when Ready is Unknown, missing, or its heartbeat is stale', () => {
    expect(statusFromNode(clusterNode({ ...healthy, Ready: 'False' }), NOW)).toBe('error');
    expect(statusFromNode(clusterNode({ ...healthy, Ready: 'False', MemoryPressure: 'True' }), NOW)).toBe('error');
    expect(statusFromNode(clusterNode({ ...healthy, Ready: 'Unknown' }), NOW)).toBe('unknown');
    expect(statusFromNode(clusterNode({ MemoryPressure: 'False' }), NOW)).toBe('unknown');
    expect(statusFromNode(clusterNode(healthy, { heartbeat: ago(5 * 60_000 + 1000) }), NOW)).toBe('unknown');
    expect(statusFromNode(clusterNode(healthy, { heartbeat: ago(4 * 60_000) }), NOW)).toBe('ok');
    // A kubelet that never posted a heartbeat time is judged by its conditions alone.
    expect(statusFromNode(clusterNode(healthy, { heartbeat: null }), NOW)).toBe('ok');
  });

  it('flags changes by severity, finds the last heartbeat, and names types from architectures', () => {
    expect(['ok', 'installing', 'to install', 'warning', 'unknown', 'error'].map((status) => severityOfStatus(status as never))).toEqual([
      'info',
      'info',
      'info',
      'warning',
      'warning',
      'error',
    ]);
    expect(lastHeartbeat({ conditions: [{ ...clusterNode(healthy).conditions[0], lastHeartbeatTime: ago(1000) }, clusterNode(healthy).conditions[1]] })).toBe(ago(1000));
    expect(typeFromArchitecture('amd64')).toBe('x86-64');
    expect(typeFromArchitecture('arm64')).toBe('arm64');
    expect(typeFromArchitecture('riscv64')).toBe('other');
  });
});

describe('the console API', () => {
  let ctx: TestContext;
  let alice: SignedInUser;
  let bob: SignedInUser;
  let admin: SignedInUser;

  beforeAll(async () => {
    ctx = await createTestContext({ cluster: { timings: FAST } });
    alice = await nodeUser(ctx, { firstname: 'Alice' });
    bob = await nodeUser(ctx, { firstname: 'Bob' });
    admin = await nodeUser(ctx, { admin: true, firstname: 'Admin' });
  });
  afterAll(async () => {
    await ctx?.close();
  });

  const addNode = async (token: string, body: Record<string, unknown> = { type: 'raspberry-pi', dhcp: true }) => {
    const response = await ctx.inject('POST', '/api/nodes', { token, body });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  };

  describe('POST /api/nodes validation', () => {
    const errorsOf = async (body: unknown) => {
      const response = await ctx.inject('POST', '/api/nodes', { token: alice.token, body });
      expect(response.statusCode, response.body).toBe(422);
      return response.json().errors as Record<string, string[]>;
    };

    it('requires a known type', async () => {
      expect(await errorsOf({ dhcp: true })).toEqual({ type: ['The type field is required.'] });
      expect(await errorsOf({ type: 'mainframe', dhcp: true })).toEqual({ type: ['The selected type is invalid.'] });
    });

    it('requires a valid IPv4 address without DHCP, and checks one given with DHCP', async () => {
      expect(await errorsOf({ type: 'jetson', dhcp: false })).toEqual({ ipv4: [IPV4_REQUIRED] });
      expect(await errorsOf({ type: 'jetson', dhcp: false, ipv4: '' })).toEqual({ ipv4: [IPV4_REQUIRED] });
      for (const ipv4 of ['300.1.1.1', '10.0.0', '01.2.3.4', '10.0.0.1/24', 'fe80::1', 'ten.0.0.1']) {
        expect(await errorsOf({ type: 'jetson', dhcp: false, ipv4 }), ipv4).toEqual({ ipv4: [IPV4_INVALID] });
      }
      expect(await errorsOf({ type: 'jetson', dhcp: true, ipv4: '1.2.3.256' })).toEqual({ ipv4: [IPV4_INVALID] });
      expect(await errorsOf({ type: 'jetson', dhcp: 'maybe' })).toEqual({ dhcp: ['The dhcp field must be true or false.'] });
    });

    it('checks host names as RFC 1123 labels, notes length and the code format', async () => {
      for (const hostname of ['bad_host', '-pi', 'pi-', 'a..b', `${'a'.repeat(64)}.lab`, 'pi 4']) {
        expect(await errorsOf({ type: 'other', hostname }), hostname).toEqual({ hostname: [HOSTNAME_INVALID] });
      }
      expect(await errorsOf({ type: 'other', notes: 'x'.repeat(1001) })).toEqual({ notes: ['The notes field must not be greater than 1000 characters.'] });
      for (const code of ['ABC', 'ABCDEFG', 'ABC123', 'ÄBCDEF']) {
        expect(await errorsOf({ type: 'other', code }), code).toEqual({ code: [CODE_INVALID] });
      }
    });

    it('reports every problem at once, and refuses a body that is not an object', async () => {
      const errors = await errorsOf({ type: 'toaster', dhcp: false, hostname: 'no_way', code: '12' });
      expect(Object.keys(errors).sort()).toEqual(['code', 'hostname', 'ipv4', 'type']);
      const response = await ctx.inject('POST', '/api/nodes', { token: alice.token, body: '[1,2]' });
      expect(response.statusCode).toBe(422);
      expect(response.json().message).toBe('The request body must be a JSON object.');
    });

    it('answers an unknown code on `code` (422), never a node', async () => {
      expect(await errorsOf({ type: 'other', code: 'QQQQQQ' })).toEqual({ code: [CODE_UNKNOWN] });
      expect(await ctx.db.selectFrom('nodes').select('id').where('owner_id', '=', alice.user.id).execute()).toEqual([]);
    });
  });

  it('adds a node to install with its own installation URL; only a hash of the secret is stored', async () => {
    const node = await addNode(alice.token, { type: 'jetson', dhcp: false, ipv4: '192.168.10.20', hostname: 'Jetson-01.Lab', notes: 'rack 3' });
    expect(node).toMatchObject({
      name: null,
      type: 'jetson',
      dhcp: false,
      hostname: 'jetson-01.lab',
      ip_v4: '192.168.10.20',
      ip_v6: null,
      notes: 'rack 3',
      lastActive: null,
      status: 'to install',
      info: {},
      image_url: `/api/nodes/${node.id}/image`,
      owner: { id: alice.user.id, name: 'Alice Owner' },
    });
    expect(node.installation_url).toMatch(/^http:\/\/console\.test\/agent\/install\/tbn_[A-Za-z0-9_-]{43}$/);
    const secret = secretOf(node.installation_url);
    const row = await nodeRecord(ctx, node.id);
    expect(row.secret_hash).toBe(createHash('sha256').update(secret).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(deriveNodeSecret(ctx.config.appKey, row.secret_salt)).toBe(secret);

    // The same URL every time the owner looks; a second node gets another secret.
    const again = await ctx.inject('GET', `/api/nodes/${node.id}`, { token: alice.token });
    expect(again.json().installation_url).toBe(node.installation_url);
    const other = await addNode(alice.token);
    expect(other.installation_url).not.toBe(node.installation_url);
    expect(other).toMatchObject({ dhcp: true, type: 'raspberry-pi', hostname: null, ip_v4: null });

    const activity = await ctx.inject('GET', `/api/nodes/${node.id}/activity`, { token: alice.token });
    expect(activity.statusCode).toBe(200);
    expect(activity.json()).toEqual([{ id: expect.any(Number), created_at: expect.any(String), description: 'node added', properties: expect.objectContaining({ severity: 'info' }) }]);
  });

  it('lists own nodes newest first; admins may filter by owner or see all', async () => {
    const first = await addNode(bob.token, { type: 'x86-64' });
    const second = await addNode(bob.token, { type: 'arm64' });
    const mine = await ctx.inject('GET', '/api/nodes', { token: bob.token });
    expect(mine.statusCode).toBe(200);
    expect(mine.json().map((node: { id: number }) => node.id)).toEqual([second.id, first.id]);
    expect(mine.json().every((node: { owner: { id: number } }) => node.owner.id === bob.user.id)).toBe(true);

    expect((await ctx.inject('GET', `/api/nodes?owner=${bob.user.id}`, { token: bob.token })).statusCode).toBe(200);
    expect((await ctx.inject('GET', `/api/nodes?owner=${alice.user.id}`, { token: bob.token })).statusCode).toBe(403);
    expect((await ctx.inject('GET', '/api/nodes?owner=all', { token: bob.token })).statusCode).toBe(403);
    expect((await ctx.inject('GET', '/api/nodes?owner=somebody', { token: admin.token })).statusCode).toBe(422);

    const bobs = await ctx.inject('GET', `/api/nodes?owner=${bob.user.id}`, { token: admin.token });
    expect(bobs.json().map((node: { id: number }) => node.id)).toEqual([second.id, first.id]);
    const all = (await ctx.inject('GET', '/api/nodes?owner=all', { token: admin.token })).json();
    expect(all.map((node: { id: number }) => node.id)).toEqual(expect.arrayContaining([first.id, second.id]));
    expect(all.some((node: { owner: { id: number } }) => node.owner.id === alice.user.id)).toBe(true);
    expect((await ctx.inject('GET', '/api/nodes', { token: admin.token })).json()).toEqual([]);
  });

  it("hides another user's node (404) but shows it to platform admins", async () => {
    const node = await addNode(alice.token);
    for (const path of [`/api/nodes/${node.id}`, `/api/nodes/${node.id}/activity`, `/api/nodes/${node.id}/image`]) {
      const response = await ctx.inject('GET', path, { token: bob.token });
      expect(response.statusCode, path).toBe(404);
      expect(response.body).not.toContain('tbn_');
      expect((await ctx.inject('GET', path, { token: admin.token })).statusCode, path).toBe(200);
      expect((await ctx.inject('GET', path)).statusCode, path).toBe(401);
    }
    expect((await ctx.inject('GET', '/api/nodes/999999', { token: alice.token })).statusCode).toBe(404);
    expect((await ctx.inject('GET', '/api/nodes/not-a-number', { token: alice.token })).statusCode).toBe(404);
    // Bob's list never shows it.
    expect((await ctx.inject('GET', '/api/nodes', { token: bob.token })).body).not.toContain(node.installation_url);
  });

  it('is behind the onboarding gate', async () => {
    const { token } = await ctx.signedInUser({ firstname: 'New', lastname: 'Comer', verified: false });
    const response = await ctx.inject('POST', '/api/nodes', { token, body: { type: 'other' } });
    expect(response.statusCode).toBe(403);
    expect(response.json().onboarding).toBe('verify-email');
    expect((await ctx.inject('GET', '/api/nodes', { token })).statusCode).toBe(403);
  });

  it('downloads the seed image as an attachment holding the install of that node', async () => {
    const node = await addNode(alice.token, { type: 'raspberry-pi', hostname: 'pi-image' });
    const response = await ctx.inject('GET', `/api/nodes/${node.id}/image`, { token: alice.token });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/octet-stream');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="testbed-node-${node.id}-cidata.img"`);
    const image = response.rawPayload;
    expect(image.length).toBeGreaterThan(64 * 1024);
    expect(image.includes(Buffer.from('CIDATA'))).toBe(true);
    expect(image.includes(Buffer.from(secretOf(node.installation_url)))).toBe(true);
  });

  describe('platform admins', () => {
    it('list every cluster node with addresses (both keys), capacity, system info, status and owner', async () => {
      const node = await addNode(alice.token, { type: 'raspberry-pi' });
      await ctx.db.updateTable('nodes').set({ name: 'sandbox-node-2' }).where('id', '=', node.id).execute();

      const response = await ctx.inject('GET', '/api/admin/nodes', { token: admin.token });
      expect(response.statusCode, response.body).toBe(200);
      const nodes = response.json();
      expect(nodes.map((entry: { name: string }) => entry.name)).toEqual(expect.arrayContaining(['sandbox-node-1', 'sandbox-node-2', 'sandbox-node-3']));
      const first = nodes.find((entry: { name: string }) => entry.name === 'sandbox-node-1');
      expect(first).toEqual({
        name: 'sandbox-node-1',
        hostname: 'sandbox-node-1',
        type: 'x86-64',
        owner: null,
        node_id: null,
        status: {
          addesses: [
            { type: 'InternalIP', address: '10.240.0.11' },
            { type: 'Hostname', address: 'sandbox-node-1' },
          ],
          addresses: [
            { type: 'InternalIP', address: '10.240.0.11' },
            { type: 'Hostname', address: 'sandbox-node-1' },
          ],
          capacity: { cpu: '4', memory: '16374584Ki', 'ephemeral-storage': '102687672Ki', pods: '110' },
          nodeInfo: { architecture: 'amd64', operatingSystem: 'linux', osImage: 'Testbed Sandbox Linux', kubeletVersion: expect.stringMatching(/^v1\./) },
          conditions: expect.arrayContaining([expect.objectContaining({ type: 'Ready', status: 'True', lastHeartbeatTime: expect.any(String) })]),
          state: 'ok',
        },
        unschedulable: false,
        lastActive: null,
      });
      const contributed = nodes.find((entry: { name: string }) => entry.name === 'sandbox-node-2');
      expect(contributed).toMatchObject({ type: 'raspberry-pi', owner: { id: alice.user.id, name: 'Alice Owner' }, node_id: node.id });

      const paged = await ctx.inject('GET', '/api/admin/nodes?page=1&per_page=2', { token: admin.token });
      expect(paged.json().data).toHaveLength(2);
      expect(paged.json().meta).toMatchObject({ current_page: 1, per_page: 2, total: nodes.length, last_page: Math.ceil(nodes.length / 2) });
      const searched = await ctx.inject('GET', '/api/admin/nodes?q=NODE-3', { token: admin.token });
      expect(searched.json().map((entry: { name: string }) => entry.name)).toEqual(['sandbox-node-3']);

      const detail = await ctx.inject('GET', '/api/admin/nodes/sandbox-node-2', { token: admin.token });
      expect(detail.statusCode).toBe(200);
      expect(detail.json()).toMatchObject({ name: 'sandbox-node-2', node_id: node.id, activity: [expect.objectContaining({ description: 'node added' })] });
      expect((await ctx.inject('GET', '/api/admin/nodes/sandbox-node-1', { token: admin.token })).json().activity).toEqual([]);
      expect((await ctx.inject('GET', '/api/admin/nodes/no-such-node', { token: admin.token })).statusCode).toBe(404);
      expect((await ctx.inject('GET', '/api/admin/nodes/Bad_Name', { token: admin.token })).statusCode).toBe(404);
    });

    it('list the nodes added in the console and not in the cluster yet, with owner and hostname, filtered by status, type and owner', async () => {
      const waiting = await addNode(alice.token, { type: 'jetson', hostname: 'jetson-lab-7', dhcp: true });
      const installing = await addNode(admin.token, { type: 'x86-64', hostname: 'rack-box-2', dhcp: true });
      await ctx.db.updateTable('nodes').set({ status: 'installing' }).where('id', '=', installing.id).execute();
      const list = async (query: string) =>
        (await ctx.inject('GET', `/api/admin/nodes?${query}`, { token: admin.token })).json() as { name: string; hostname: string | null; node_id: number | null; owner: { id: number } | null; type: string; status: { state: string } }[];

      const all = await list('');
      expect(all.find((node) => node.node_id === waiting.id)).toMatchObject({
        name: 'jetson-lab-7',
        hostname: 'jetson-lab-7',
        type: 'jetson',
        owner: { id: alice.user.id, name: 'Alice Owner' },
        status: { state: 'to install', addresses: [], capacity: { cpu: null, memory: null, 'ephemeral-storage': null, pods: null } },
      });
      expect(all.find((node) => node.node_id === installing.id)).toMatchObject({ hostname: 'rack-box-2', status: { state: 'installing' } });

      expect((await list('filter[status]=to%20install')).map((node) => node.node_id)).toContain(waiting.id);
      expect((await list('filter[status]=to%20install')).every((node) => node.status.state === 'to install')).toBe(true);
      expect((await list('filter[status]=installing')).map((node) => node.node_id)).toEqual([installing.id]);
      expect((await list('filter[status]=ok')).every((node) => node.status.state === 'ok' && node.node_id !== waiting.id)).toBe(true);
      expect((await list('filter[type]=jetson')).every((node) => node.type === 'jetson')).toBe(true);
      expect((await list('filter[type]=jetson')).map((node) => node.node_id)).toContain(waiting.id);
      const alices = await list(`filter[owner_id]=${alice.user.id}`);
      expect(alices.length).toBeGreaterThan(0);
      expect(alices.every((node) => node.owner?.id === alice.user.id)).toBe(true);
      expect((await list('q=RACK-BOX')).map((node) => node.node_id)).toEqual([installing.id]);
      for (const bad of ['filter[status]=sleeping', 'filter[type]=toaster', 'filter[owner_id]=me']) {
        const response = await ctx.inject('GET', `/api/admin/nodes?${bad}`, { token: admin.token });
        expect(response.statusCode, bad).toBe(422);
      }
    });

    it('are the only ones who may see or change them (403)', async () => {
      for (const [method, path] of [
        ['GET', '/api/admin/nodes'],
        ['GET', '/api/admin/nodes/sandbox-node-1'],
        ['POST', '/api/admin/nodes/sandbox-node-1/disable'],
        ['POST', '/api/admin/nodes/sandbox-node-1/enable'],
      ] as const) {
        const response = await ctx.inject(method, path, { token: alice.token });
        expect(response.statusCode, path).toBe(403);
      }
      expect(ctx.cluster.sandbox.store.get('nodes', undefined, 'sandbox-node-1')?.spec.unschedulable).toBeUndefined();
    });

    it('disable a node (cordoned, shown as Disabled to its owner, live) and enable it again', async () => {
      const node = await addNode(bob.token, { type: 'x86-64' });
      await ctx.db.updateTable('nodes').set({ name: 'sandbox-node-3', status: 'ok' }).where('id', '=', node.id).execute();
      ctx.broadcasts.length = 0;

      const disabled = await ctx.inject('POST', '/api/admin/nodes/sandbox-node-3/disable', { token: admin.token });
      expect(disabled.statusCode, disabled.body).toBe(200);
      expect(disabled.json()).toMatchObject({ name: 'sandbox-node-3', unschedulable: true, node_id: node.id, status: { state: '' } });
      expect(ctx.cluster.sandbox.store.get('nodes', undefined, 'sandbox-node-3')?.spec.unschedulable).toBe(true);
      const seen = await ctx.inject('GET', `/api/nodes/${node.id}`, { token: bob.token });
      expect(seen.json().status).toBe('');
      expect((await nodeRecord(ctx, node.id)).disabled_at).not.toBeNull();
      expect(ctx.broadcasts).toEqual([{ userId: bob.user.id, event: 'NodeStatusChanged', payload: expect.objectContaining({ id: node.id, status: '' }) }]);

      const enabled = await ctx.inject('POST', '/api/admin/nodes/sandbox-node-3/enable', { token: admin.token });
      expect(enabled.statusCode).toBe(200);
      expect(enabled.json()).toMatchObject({ unschedulable: false, status: { state: 'ok' } });
      expect(ctx.cluster.sandbox.store.get('nodes', undefined, 'sandbox-node-3')?.spec.unschedulable).toBeUndefined();
      expect((await ctx.inject('GET', `/api/nodes/${node.id}`, { token: bob.token })).json().status).toBe('ok');
      expect(ctx.broadcasts.at(-1)).toMatchObject({ userId: bob.user.id, payload: { status: 'ok' } });

      const activity = (await ctx.inject('GET', `/api/nodes/${node.id}/activity`, { token: bob.token })).json();
      expect(activity.map((entry: { description: string; properties: { severity: string } }) => [entry.description, entry.properties.severity])).toEqual([
        ['node enabled', 'info'],
        ['node disabled', 'warning'],
        ['node added', 'info'],
      ]);

      // A node the console did not add is cordoned too, and shows as Disabled.
      const other = await ctx.inject('POST', '/api/admin/nodes/sandbox-node-1/disable', { token: admin.token });
      expect(other.json()).toMatchObject({ node_id: null, unschedulable: true, status: { state: '' } });
      await ctx.inject('POST', '/api/admin/nodes/sandbox-node-1/enable', { token: admin.token });
      expect((await ctx.inject('POST', '/api/admin/nodes/no-such-node/disable', { token: admin.token })).statusCode).toBe(404);
    });

    it('answer 503, never 500, while the cluster is down', async () => {
      await ctx.cluster.stop();
      try {
        const response = await ctx.inject('GET', '/api/admin/nodes', { token: admin.token });
        expect(response.statusCode).toBe(503);
        expect(response.json().message).toBe('The cluster cannot be reached right now. Try again in a minute.');
        expect((await ctx.inject('POST', '/api/admin/nodes/sandbox-node-1/disable', { token: admin.token })).statusCode).toBe(503);
        // The console's own pages do not need the cluster.
        expect((await ctx.inject('GET', '/api/nodes', { token: alice.token })).statusCode).toBe(200);
      } finally {
        await ctx.cluster.start();
      }
    });
  });
});

describe('the OpenAPI document', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ config: { cluster: 'none' } });
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('lists the node, admin node and agent routes', async () => {
    const doc = (await ctx.inject('GET', '/api/docs')).json();
    const operations = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations).toEqual(
      expect.arrayContaining([
        'GET /api/nodes',
        'POST /api/nodes',
        'GET /api/nodes/{id}',
        'GET /api/nodes/{id}/activity',
        'GET /api/nodes/{id}/image',
        'GET /api/admin/nodes',
        'GET /api/admin/nodes/{name}',
        'POST /api/admin/nodes/{name}/disable',
        'POST /api/admin/nodes/{name}/enable',
        'GET /agent/install/{secret}',
        'GET /agent/install',
        'POST /agent/register',
        'GET /agent/node',
        'POST /agent/report',
        'POST /agent/bootstrap',
        'POST /agent/heartbeat',
      ]),
    );
  });
});

describe('without a cluster (CLUSTER=none)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ config: { cluster: 'none' } });
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('still adds nodes, and says no cluster is connected on the admin pages', async () => {
    const admin = await nodeUser(ctx, { admin: true });
    expect((await ctx.inject('POST', '/api/nodes', { token: admin.token, body: { type: 'other' } })).statusCode).toBe(201);
    const response = await ctx.inject('GET', '/api/admin/nodes', { token: admin.token });
    expect(response.statusCode).toBe(503);
    expect(response.json().message).toBe('No cluster is connected to this console.');
  });
});

describe('guessing claim codes', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ config: { cluster: 'none', rateLimits: { ...DEFAULT_RATE_LIMITS, nodeClaim: { max: 3, windowSeconds: 600 } } } });
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('is limited per user: after 3 wrong codes, 429 with Retry-After, even for the right code', async () => {
    const guesser = await nodeUser(ctx);
    const register = await ctx.inject('POST', '/agent/register', { body: { facts: { hostname: 'target' } } });
    expect(register.statusCode).toBe(201);
    const { code } = register.json();
    const wrong = code === 'AAAAAA' ? 'BBBBBB' : 'AAAAAA';
    for (let attempt = 0; attempt < 3; attempt++) {
      const response = await ctx.inject('POST', '/api/nodes', { token: guesser.token, body: { type: 'other', code: wrong } });
      expect(response.statusCode).toBe(422);
      expect(response.json().errors).toEqual({ code: [CODE_UNKNOWN] });
    }
    const throttled = await ctx.inject('POST', '/api/nodes', { token: guesser.token, body: { type: 'other', code } });
    expect(throttled.statusCode).toBe(429);
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);

    // Adding a node without a code is not limited, and another user may still claim it.
    expect((await ctx.inject('POST', '/api/nodes', { token: guesser.token, body: { type: 'other' } })).statusCode).toBe(201);
    const owner = await nodeUser(ctx);
    const claimed = await ctx.inject('POST', '/api/nodes', { token: owner.token, body: { type: 'raspberry-pi', code } });
    expect(claimed.statusCode).toBe(201);
    expect(claimed.json().owner.id).toBe(owner.user.id);
    expect((await ctx.db.selectFrom('nodes').select('claim_code').where('id', '=', claimed.json().id).executeTakeFirstOrThrow()).claim_code).toBeNull();
  });

  it('checks at most 3 of 40 simultaneous wrong codes', async () => {
    const guesser = await nodeUser(ctx);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        ctx.inject('POST', '/api/nodes', { token: guesser.token, body: { type: 'other', code: `ZZZZ${String.fromCharCode(65 + (i % 26))}${String.fromCharCode(65 + Math.floor(i / 26))}` } }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 422)).toHaveLength(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(37);
  });

  it('does not count a code that claims a machine', async () => {
    const owner = await nodeUser(ctx);
    for (let machine = 0; machine < 4; machine++) {
      const { code } = (await ctx.inject('POST', '/agent/register', { body: { facts: { hostname: `mine-${machine}` } } })).json();
      expect((await ctx.inject('POST', '/api/nodes', { token: owner.token, body: { type: 'other', code } })).statusCode).toBe(201);
    }
  });
});
