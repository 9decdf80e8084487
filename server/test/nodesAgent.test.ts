import { createHash, randomBytes, X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMITS } from '../src/config/config.js';
import { CODE_UNKNOWN } from '../src/nodes/schemas.js';
import { createTestContext, type SignedInUser, type TestContext } from './helpers.js';
import { FAST, nodeRecord, nodeUser, secretOf } from './nodesFixtures.js';

// The node agent's protocol (docs/nodes-contract.md, "Agent protocol") against the sandbox
// cluster: the install scripts, node secrets, check-ins and steps, bootstrap tokens as
// kubeadm stores them, and the machine-first registration claimed by its code.

let ctx: TestContext;
let owner: SignedInUser;

beforeAll(async () => {
  ctx = await createTestContext({ cluster: { timings: FAST } });
  owner = await nodeUser(ctx, { firstname: 'Olga' });
});
afterAll(async () => {
  await ctx?.close();
});

const addNode = async (body: Record<string, unknown> = { type: 'raspberry-pi' }) => {
  const response = await ctx.inject('POST', '/api/nodes', { token: owner.token, body });
  expect(response.statusCode, response.body).toBe(201);
  const node = response.json();
  return { node, secret: secretOf(node.installation_url) as string };
};

const agent = (method: 'GET' | 'POST', path: string, secret: string | null, body?: unknown) =>
  ctx.inject(method, path, { headers: secret === null ? {} : { authorization: `Bearer ${secret}` }, body });

const activityOf = async (nodeId: number) =>
  (await ctx.inject('GET', `/api/nodes/${nodeId}/activity`, { token: owner.token })).json() as { description: string; properties: { severity: string; step?: string } }[];

const FACTS = { hostname: 'pi-lab-7', addresses: ['127.0.0.1/8', '192.168.7.70/24', 'fe80::1/64', '2001:db8::70/64'], architecture: 'aarch64', os: 'Debian GNU/Linux 12 (bookworm)', kernel: '6.1.0-rpi7' };

describe('install scripts', () => {
  it("serves the node's script with its secret, and 404 (plain text) for an unknown one", async () => {
    const { secret } = await addNode();
    const script = await ctx.app.inject({ method: 'GET', url: `/agent/install/${secret}` });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toBe('text/x-shellscript; charset=utf-8');
    expect(script.body.startsWith('#!/bin/sh')).toBe(true);
    expect(script.body).toContain(`'${secret}'`);
    expect(script.body).toContain("'http://console.test'");

    const unknown = await ctx.app.inject({ method: 'GET', url: `/agent/install/tbn_${randomBytes(32).toString('base64url')}` });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toMatch(/^text\/plain/);
    expect(unknown.body).not.toContain('tbn_');
    expect((await ctx.app.inject({ method: 'GET', url: '/agent/install/whatever' })).statusCode).toBe(404);
  });

  it('serves the generic script and seed image without any secret', async () => {
    const generic = await ctx.app.inject({ method: 'GET', url: '/agent/install' });
    expect(generic.statusCode).toBe(200);
    expect(generic.headers['content-type']).toBe('text/x-shellscript; charset=utf-8');
    expect(generic.body).not.toMatch(/tbn_[A-Za-z0-9_-]{43}/);
    const image = await ctx.app.inject({ method: 'GET', url: '/agent/image' });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-disposition']).toBe('attachment; filename="testbed-node-cidata.img"');
    expect(image.rawPayload.toString('latin1')).not.toMatch(/tbn_[A-Za-z0-9_-]{43}/);
  });
});

describe('node secrets', () => {
  it('refuses a missing, malformed, unknown or user token with 401 Unauthenticated.', async () => {
    await addNode();
    const userToken = owner.token;
    const calls: ['GET' | 'POST', string, unknown?][] = [
      ['GET', '/agent/node'],
      ['POST', '/agent/report', { step: 'checkin' }],
      ['POST', '/agent/bootstrap', {}],
      ['POST', '/agent/heartbeat'],
    ];
    for (const [method, path, body] of calls) {
      for (const secret of [null, 'nope', `tbn_${randomBytes(32).toString('base64url')}`, userToken, '']) {
        const response = await agent(method, path, secret, body);
        expect(response.statusCode, `${path} with ${secret}`).toBe(401);
        expect(response.json()).toEqual({ message: 'Unauthenticated.' });
      }
    }
    // Nothing was issued: no bootstrap token secret in the cluster.
    expect(ctx.cluster.sandbox.store.list('secrets', 'kube-system').filter((secret) => secret.type === 'bootstrap.kubernetes.io/token')).toEqual([]);
  });

  it('checks the secret before the body', async () => {
    const response = await agent('POST', '/agent/report', 'nope', { step: 'dancing' });
    expect(response.statusCode).toBe(401);
    const { secret } = await addNode();
    const invalid = await agent('POST', '/agent/report', secret, { step: 'dancing', facts: { addresses: 'x' } });
    expect(invalid.statusCode).toBe(422);
    expect(Object.keys(invalid.json().errors).sort()).toEqual(['facts.addresses', 'step']);
  });
});

describe('console first: check-in, steps, bootstrap, heartbeat', () => {
  it('moves to installing on the first check-in, records every step, and tells the owner', async () => {
    const { node, secret } = await addNode({ type: 'raspberry-pi', dhcp: true });
    ctx.broadcasts.length = 0;

    const checkin = await agent('POST', '/agent/report', secret, { step: 'checkin', facts: FACTS });
    expect(checkin.statusCode).toBe(200);
    expect(checkin.json()).toEqual({ ok: true });
    const seen = (await ctx.inject('GET', `/api/nodes/${node.id}`, { token: owner.token })).json();
    expect(seen).toMatchObject({ status: 'installing', ip_v4: '192.168.7.70', ip_v6: '2001:db8::70', lastActive: expect.any(String) });
    expect(seen.info.system).toMatchObject({ hostname: 'pi-lab-7', architecture: 'aarch64', os: 'Debian GNU/Linux 12 (bookworm)', kernel: '6.1.0-rpi7' });
    expect(ctx.broadcasts).toEqual([{ userId: owner.user.id, event: 'NodeStatusChanged', payload: expect.objectContaining({ id: node.id, status: 'installing' }) }]);

    // A second check-in (the script run again) changes nothing but adds its entry.
    await agent('POST', '/agent/report', secret, { step: 'checkin', facts: FACTS });
    expect(ctx.broadcasts).toHaveLength(1);
    await agent('POST', '/agent/report', secret, { step: 'installing', message: 'installing containerd' });

    expect((await activityOf(node.id)).map((entry) => [entry.description, entry.properties.severity])).toEqual([
      ['installing: installing containerd', 'info'],
      ['node checked in from pi-lab-7', 'info'],
      ['status changed from to install to installing', 'info'],
      ['node checked in from pi-lab-7', 'info'],
      ['node added', 'info'],
    ]);
  });

  it('goes to error on a failed step (severity error) and back to installing when run again', async () => {
    const { node, secret } = await addNode();
    await agent('POST', '/agent/report', secret, { step: 'checkin' });
    await agent('POST', '/agent/report', secret, { step: 'failed', message: 'kubeadm is missing' });
    expect((await nodeRecord(ctx, node.id)).status).toBe('error');
    const [failedStatus, failed] = await activityOf(node.id);
    expect(failed).toMatchObject({ description: 'installation failed: kubeadm is missing', properties: { severity: 'error', step: 'failed', message: 'kubeadm is missing' } });
    expect(failedStatus).toMatchObject({ description: 'status changed from installing to Error', properties: { severity: 'error' } });
    expect(ctx.broadcasts.at(-1)).toMatchObject({ event: 'NodeStatusChanged', payload: { id: node.id, status: 'error' } });

    await agent('POST', '/agent/report', secret, { step: 'checkin' });
    expect((await nodeRecord(ctx, node.id)).status).toBe('installing');
  });

  it('records heartbeats', async () => {
    const { node, secret } = await addNode();
    const response = await agent('POST', '/agent/heartbeat', secret);
    expect(response.statusCode).toBe(204);
    expect((await nodeRecord(ctx, node.id)).last_active_at).toEqual(expect.any(String));
  });

  it('issues a kubeadm bootstrap token stored as kubeadm defines it, which the cluster accepts to register the node', async () => {
    const { node, secret } = await addNode({ type: 'raspberry-pi', hostname: 'pi-join' });
    const response = await agent('POST', '/agent/bootstrap', secret, {});
    expect(response.statusCode, response.body).toBe(200);
    const issued = response.json();
    const sandbox = ctx.cluster.sandbox;
    const spki = new X509Certificate(sandbox.caPem).publicKey.export({ type: 'spki', format: 'der' });
    expect(issued).toEqual({
      token: expect.stringMatching(/^[a-z0-9]{6}\.[a-z0-9]{16}$/),
      ca_cert_hash: `sha256:${createHash('sha256').update(spki).digest('hex')}`,
      api_server: new URL(sandbox.url).host,
      node_name: 'pi-join',
      expires_at: expect.any(String),
    });
    expect(response.headers['cache-control']).toBe('no-store');
    const lifetime = Date.parse(issued.expires_at) - Date.now();
    expect(lifetime).toBeGreaterThan(20 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(30 * 60_000);

    // Read back through the sandbox API.
    const [id, tokenSecret] = issued.token.split('.');
    const stored = await ctx.cluster.kube().readNamespacedSecret({ name: `bootstrap-token-${id}`, namespace: 'kube-system' });
    expect(stored.type).toBe('bootstrap.kubernetes.io/token');
    const data = Object.fromEntries(Object.entries(stored.data ?? {}).map(([key, value]) => [key, Buffer.from(value, 'base64').toString('utf8')]));
    expect(data).toEqual({
      description: `Testbed node ${node.id} (pi-join)`,
      'token-id': id,
      'token-secret': tokenSecret,
      expiration: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      'usage-bootstrap-authentication': 'true',
      'usage-bootstrap-signing': 'true',
      'auth-extra-groups': 'system:bootstrappers:kubeadm:default-node-token',
    });
    expect(Date.parse(data.expiration)).toBe(Math.floor(Date.parse(issued.expires_at) / 1000) * 1000);

    const row = await nodeRecord(ctx, node.id);
    expect(row).toMatchObject({ name: 'pi-join', status: 'installing' });
    expect(JSON.stringify(row)).not.toContain(tokenSecret);
    const activity = await activityOf(node.id);
    expect(activity.map((entry) => entry.description)).toContain('bootstrap token issued');
    expect(JSON.stringify(activity)).not.toContain(tokenSecret);

    // The token works as kubeadm's would: it may register the node's Node.
    const bootstrapper = ctx.cluster.kube(issued.token);
    await bootstrapper.createNode({ body: { metadata: { name: issued.node_name, labels: { 'kubernetes.io/arch': 'arm64' } }, status: { addresses: [{ type: 'InternalIP', address: '192.168.7.71' }] } } });
    await agent('POST', '/agent/report', secret, { step: 'joined' });
    // Ready False at registration (the kubelet starting: still 'installing'), then Ready ('ok').
    expect(['installing', 'ok']).toContain((await nodeRecord(ctx, node.id)).status);

    // A second run keeps the name and issues another token.
    const again = (await agent('POST', '/agent/bootstrap', secret, {})).json();
    expect(again.node_name).toBe('pi-join');
    expect(again.token).not.toBe(issued.token);
  });

  it('names a node after its host unless the name is taken in the console or the cluster', async () => {
    const first = await addNode({ type: 'other', hostname: 'twin.lab.example' });
    const second = await addNode({ type: 'other', hostname: 'twin' });
    const third = await addNode({ type: 'other', hostname: 'twin.other.example' });
    const clash = await addNode({ type: 'other', hostname: 'sandbox-node-1' });
    const nameless = await addNode({ type: 'other' });
    // 'twin' is the second one's hostname: the first keeps its number; then the second is 'twin'.
    expect((await agent('POST', '/agent/bootstrap', first.secret, {})).json().node_name).toBe(`twin-${first.node.id}`);
    expect((await agent('POST', '/agent/bootstrap', second.secret, {})).json().node_name).toBe('twin');
    expect((await agent('POST', '/agent/bootstrap', third.secret, {})).json().node_name).toBe(`twin-${third.node.id}`);
    expect((await agent('POST', '/agent/bootstrap', clash.secret, {})).json().node_name).toBe(`sandbox-node-1-${clash.node.id}`);
    expect((await agent('POST', '/agent/bootstrap', nameless.secret, {})).json().node_name).toBe(`node-${nameless.node.id}`);
    // The host name the machine reported counts when the console has none.
    const reported = await addNode({ type: 'other' });
    await agent('POST', '/agent/report', reported.secret, { step: 'checkin', facts: { hostname: 'Jetson_Nano.local' } });
    expect((await agent('POST', '/agent/bootstrap', reported.secret, {})).json().node_name).toBe('jetson-nano');
  });

  it('refuses a bootstrap token to a disabled node (403) and answers 503 when the cluster is down', async () => {
    const { node, secret } = await addNode();
    await ctx.db.updateTable('nodes').set({ disabled_at: new Date().toISOString() }).where('id', '=', node.id).execute();
    const refused = await agent('POST', '/agent/bootstrap', secret, {});
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('This node is disabled.');

    const other = await addNode();
    await ctx.cluster.stop();
    try {
      const down = await agent('POST', '/agent/bootstrap', other.secret, {});
      expect(down.statusCode).toBe(503);
      expect(down.json().message).toBe('The cluster cannot be reached right now. Try again in a minute.');
      // Reports still work without the cluster.
      expect((await agent('POST', '/agent/report', other.secret, { step: 'checkin' })).statusCode).toBe(200);
    } finally {
      await ctx.cluster.start();
    }
  });
});

describe('machine first: register, show a code, be claimed', () => {
  const register = async (facts: Record<string, unknown> = FACTS) => {
    const response = await ctx.inject('POST', '/agent/register', { body: { facts } });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as { secret: string; code: string; code_expires_at: string; poll_seconds: number };
  };

  it('registers without an owner, and is claimed by the code (case-insensitive, one time)', async () => {
    const machine = await register();
    expect(machine).toEqual({
      secret: expect.stringMatching(/^tbn_[A-Za-z0-9_-]{43}$/),
      code: expect.stringMatching(/^[A-Z]{6}$/),
      code_expires_at: expect.any(String),
      poll_seconds: expect.any(Number),
    });
    const lifetime = Date.parse(machine.code_expires_at) - Date.now();
    expect(lifetime).toBeGreaterThan(14 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(15 * 60_000);

    const before = await agent('GET', '/agent/node', machine.secret);
    expect(before.json()).toMatchObject({ claimed: false, status: 'to install', name: null, code: machine.code, code_expires_at: machine.code_expires_at });
    // Nobody's node yet: no bootstrap token.
    const early = await agent('POST', '/agent/bootstrap', machine.secret, {});
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toMatch(/not been claimed/);

    const claimed = await ctx.inject('POST', '/api/nodes', { token: owner.token, body: { type: 'raspberry-pi', code: machine.code.toLowerCase(), notes: 'from the lab' } });
    expect(claimed.statusCode, claimed.body).toBe(201);
    const node = claimed.json();
    expect(node).toMatchObject({ id: before.json().id, owner: { id: owner.user.id }, type: 'raspberry-pi', notes: 'from the lab', ip_v4: '192.168.7.70', status: 'to install' });
    expect(node.info.system).toMatchObject({ hostname: 'pi-lab-7' });
    // The owner's installation_url carries the machine's own secret.
    expect(secretOf(node.installation_url)).toBe(machine.secret);

    expect((await agent('GET', '/agent/node', machine.secret)).json()).toMatchObject({ claimed: true, code: null, code_expires_at: null });
    const activity = await activityOf(node.id);
    expect(activity.map((entry) => entry.description)).toEqual(['node claimed', 'node registered, waiting to be claimed']);

    // One time only: the code does not work again, for anyone.
    const reused = await ctx.inject('POST', '/api/nodes', { token: owner.token, body: { type: 'raspberry-pi', code: machine.code } });
    expect(reused.statusCode).toBe(422);
    expect(reused.json().errors).toEqual({ code: [CODE_UNKNOWN] });

    // Claimed: the install continues.
    expect((await agent('POST', '/agent/report', machine.secret, { step: 'checkin' })).statusCode).toBe(200);
    expect((await agent('POST', '/agent/bootstrap', machine.secret, {})).json().node_name).toBe('pi-lab-7');
  });

  it('refuses an expired code (422) and gives the waiting machine a new one', async () => {
    const machine = await register({ hostname: 'late' });
    await ctx.db
      .updateTable('nodes')
      .set({ claim_code_expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('claim_code', '=', machine.code)
      .execute();
    const expired = await ctx.inject('POST', '/api/nodes', { token: owner.token, body: { type: 'other', code: machine.code } });
    expect(expired.statusCode).toBe(422);
    expect(expired.json()).toEqual({ message: CODE_UNKNOWN, errors: { code: [CODE_UNKNOWN] } });

    const polled = (await agent('GET', '/agent/node', machine.secret)).json();
    expect(polled.claimed).toBe(false);
    expect(polled.code).toMatch(/^[A-Z]{6}$/);
    expect(Date.parse(polled.code_expires_at)).toBeGreaterThan(Date.now());
    const claimed = await ctx.inject('POST', '/api/nodes', { token: owner.token, body: { type: 'other', code: polled.code } });
    expect(claimed.statusCode).toBe(201);
  });

  it('may be claimed with the code alone: the machine keeps the type it registered with', async () => {
    const machine = await register({ hostname: 'just-a-code', architecture: 'aarch64' });
    const claimed = await ctx.inject('POST', '/api/nodes', { token: owner.token, body: { code: machine.code } });
    expect(claimed.statusCode, claimed.body).toBe(201);
    expect(claimed.json()).toMatchObject({ type: 'arm64', dhcp: true, owner: { id: owner.user.id } });
    // Without a code, the type is required.
    const missing = await ctx.inject('POST', '/api/nodes', { token: owner.token, body: { type: '', dhcp: true } });
    expect(missing.json().errors).toEqual({ type: ['The type field is required.'] });
  });

  it('validates the registration facts', async () => {
    const response = await ctx.inject('POST', '/agent/register', { body: { facts: { hostname: 'x'.repeat(300), addresses: [1] } } });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors).sort()).toEqual(['facts.addresses.0', 'facts.hostname']);
    expect((await ctx.inject('POST', '/agent/register', { body: {} })).statusCode).toBe(201);
  });
});

describe('registration rate limit', () => {
  let limited: TestContext;
  beforeAll(async () => {
    limited = await createTestContext({ config: { cluster: 'none', rateLimits: { ...DEFAULT_RATE_LIMITS, agentRegister: { max: 2, windowSeconds: 3600 } } } });
  });
  afterAll(async () => {
    await limited?.close();
  });

  it('throttles registrations per address (429 with Retry-After)', async () => {
    for (let attempt = 0; attempt < 2; attempt++) expect((await limited.inject('POST', '/agent/register', { body: { facts: {} } })).statusCode).toBe(201);
    const throttled = await limited.inject('POST', '/agent/register', { body: { facts: {} } });
    expect(throttled.statusCode).toBe(429);
    expect(throttled.headers['retry-after']).toBeDefined();
  });
});
