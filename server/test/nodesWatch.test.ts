import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createNodeWatcher, type NodeWatcher } from '../src/nodes/watcher.js';
import { createTestContext, eventually, type SignedInUser, type TestContext } from './helpers.js';
import { FAST, nodeRecord, nodeUser, secretOf } from './nodesFixtures.js';

// The node watcher against the sandbox cluster: console nodes follow their cluster Nodes
// (status, lastActive, info), every change is an activity entry and a NodeStatusChanged event
// to the owner, and the watch comes back after the API server drops it.

let ctx: TestContext;
let owner: SignedInUser;
let watcher: NodeWatcher | null = null;

beforeAll(async () => {
  ctx = await createTestContext({ cluster: { timings: FAST } });
  owner = await nodeUser(ctx, { firstname: 'Walter' });
});
afterEach(async () => {
  await watcher?.stop();
  watcher = null;
});
afterAll(async () => {
  await ctx?.close();
});

/** A console node (added by the owner) already named after a cluster Node, as after its bootstrap. */
async function consoleNode(name: string, status: 'installing' | 'ok' = 'installing') {
  const response = await ctx.inject('POST', '/api/nodes', { token: owner.token, body: { type: 'raspberry-pi' } });
  expect(response.statusCode).toBe(201);
  const node = response.json();
  await ctx.db.updateTable('nodes').set({ name, status }).where('id', '=', node.id).execute();
  return { id: node.id as number, secret: secretOf(node.installation_url) as string };
}

const statusOf = async (id: number) => (await nodeRecord(ctx, id)).status;
const waitForStatus = async (id: number, status: string, timeoutMs = 5000) => {
  try {
    await eventually(async () => (await statusOf(id)) === status, { what: `node ${id} to be ${status}`, timeoutMs });
  } catch (error) {
    throw new Error(`${(error as Error).message} (it is ${await statusOf(id)})`, { cause: error });
  }
};
const descriptions = async (id: number) =>
  (await ctx.inject('GET', `/api/nodes/${id}/activity`, { token: owner.token })).json().map((entry: { description: string; properties: { severity: string } }) => [entry.description, entry.properties.severity]);

const createClusterNode = (name: string) =>
  ctx.cluster.kube().createNode({
    body: {
      metadata: { name, labels: { 'kubernetes.io/arch': 'arm64' } },
      status: {
        addresses: [{ type: 'InternalIP', address: '192.168.50.9' }, { type: 'Hostname', address: name }],
        nodeInfo: { architecture: 'arm64', operatingSystem: 'linux', osImage: 'Debian GNU/Linux 12 (bookworm)', kubeletVersion: 'v1.32.0' } as never,
      },
    },
  });

describe('one pass (syncNodesOnce)', () => {
  it('takes status, lastActive and facts from the cluster Node, with an activity entry and an event', async () => {
    const node = await consoleNode('sandbox-node-1');
    ctx.broadcasts.length = 0;
    watcher = createNodeWatcher(ctx.services);
    const result = await watcher.syncNodesOnce();
    expect(result.checked).toBeGreaterThanOrEqual(1);
    expect(result.changed).toBeGreaterThanOrEqual(1);

    const seen = (await ctx.inject('GET', `/api/nodes/${node.id}`, { token: owner.token })).json();
    expect(seen).toMatchObject({ status: 'ok', ip_v4: '10.240.0.11', lastActive: expect.any(String) });
    expect(seen.info.cluster).toMatchObject({
      nodeInfo: { architecture: 'amd64', operatingSystem: 'linux', osImage: 'Testbed Sandbox Linux' },
      capacity: { cpu: '4', pods: '110' },
      addresses: [{ type: 'InternalIP', address: '10.240.0.11' }, { type: 'Hostname', address: 'sandbox-node-1' }],
    });
    expect(await descriptions(node.id)).toEqual([
      ['status changed from installing to Running', 'info'],
      ['node added', 'info'],
    ]);
    expect(ctx.broadcasts).toEqual([{ userId: owner.user.id, event: 'NodeStatusChanged', payload: expect.objectContaining({ id: node.id, status: 'ok', name: 'sandbox-node-1' }) }]);

    // Nothing changed: no new entry, no event.
    await watcher.syncNodesOnce();
    expect(await descriptions(node.id)).toHaveLength(2);
    expect(ctx.broadcasts).toHaveLength(1);
  });

  it('marks a running node unknown when its Node is gone, and leaves installing nodes alone', async () => {
    const gone = await consoleNode('vanished-node');
    await ctx.db.updateTable('nodes').set({ status: 'ok', info: JSON.stringify({ cluster: { nodeInfo: {} } }) }).where('id', '=', gone.id).execute();
    const pending = await consoleNode('not-joined-yet');
    watcher = createNodeWatcher(ctx.services);
    await watcher.syncNodesOnce();
    expect(await statusOf(gone.id)).toBe('unknown');
    expect((await descriptions(gone.id)).slice(0, 2)).toEqual([
      ['status changed from Running to unknown', 'warning'],
      ['the node is no longer in the cluster', 'warning'],
    ]);
    expect(await statusOf(pending.id)).toBe('installing');
  });
});

describe('the watch', () => {
  it('follows a new node from Ready False (still installing) to Ready (ok), pressure (warning), not Ready (error), a silent kubelet (unknown) and back', async () => {
    const node = await consoleNode('pi-watched');
    watcher = createNodeWatcher(ctx.services, { resyncIntervalMs: 3_600_000 });
    watcher.start();
    await eventually(async () => watcher!.watching, { what: 'the watch to open' });

    await createClusterNode('pi-watched');
    // Registered with Ready False, then Ready once its network is up.
    await waitForStatus(node.id, 'ok');
    const sandbox = ctx.cluster.sandbox;

    sandbox.setNodeCondition('pi-watched', 'DiskPressure', 'True');
    await waitForStatus(node.id, 'warning');
    sandbox.setNodeCondition('pi-watched', 'DiskPressure', 'False');
    await waitForStatus(node.id, 'ok');

    sandbox.setNodeCondition('pi-watched', 'Ready', 'False');
    await waitForStatus(node.id, 'error');
    sandbox.setNodeCondition('pi-watched', 'Ready', 'True');
    await waitForStatus(node.id, 'ok');

    // The kubelet stops posting: after the grace period the Node's conditions are Unknown.
    sandbox.stopKubelet('pi-watched');
    await waitForStatus(node.id, 'unknown');
    sandbox.startKubelet('pi-watched');
    await waitForStatus(node.id, 'ok');

    await ctx.cluster.kube().deleteNode({ name: 'pi-watched' });
    await waitForStatus(node.id, 'unknown');

    const changes = (await descriptions(node.id)).filter(([description]: [string]) => description.startsWith('status changed'));
    // Ready False right after joining is the kubelet starting: still installing, not an error.
    expect(changes.reverse()).toEqual([
      ['status changed from installing to Running', 'info'],
      ['status changed from Running to Warning', 'warning'],
      ['status changed from Warning to Running', 'info'],
      ['status changed from Running to Error', 'error'],
      ['status changed from Error to Running', 'info'],
      ['status changed from Running to unknown', 'warning'],
      ['status changed from unknown to Running', 'info'],
      ['status changed from Running to unknown', 'warning'],
    ]);
    const events = ctx.broadcasts.filter((event) => event.payload.id === node.id).map((event) => event.payload.status);
    expect(events).toEqual(['ok', 'warning', 'ok', 'error', 'ok', 'unknown', 'ok', 'unknown']);
  });

  it('reconnects after the API server drops it, and follows changes through the new watch', async () => {
    const node = await consoleNode('sandbox-node-3');
    watcher = createNodeWatcher(ctx.services, { resyncIntervalMs: 3_600_000, initialBackoffMs: 50, maxBackoffMs: 200 });
    watcher.start();
    await waitForStatus(node.id, 'ok');
    await eventually(async () => watcher!.watching, { what: 'the watch to open' });
    const opened = watcher.watchesOpened;

    await ctx.cluster.stop();
    await eventually(async () => !watcher!.watching, { what: 'the watch to end' });
    // Reconnection attempts fail while the API server is away.
    await eventually(async () => watcher!.lastError !== null, { what: 'a failed reconnection' });
    expect(watcher.watchesOpened).toBe(opened);

    const sandbox = await ctx.cluster.start();
    await eventually(async () => watcher!.watchesOpened > opened && watcher!.watching, { what: 'the watch to reopen', timeoutMs: 5000 });
    expect(watcher.lastError).toBeNull();

    // Only the watch can deliver this (the periodic re-list is an hour away).
    sandbox.setNodeCondition('sandbox-node-3', 'Ready', 'False');
    await waitForStatus(node.id, 'error', 3000);
    sandbox.setNodeCondition('sandbox-node-3', 'Ready', 'True');
    await waitForStatus(node.id, 'ok', 3000);
  });

  it('re-lists periodically, which catches what no event says', async () => {
    watcher = createNodeWatcher(ctx.services, { resyncIntervalMs: 100 });
    watcher.start();
    await eventually(async () => watcher!.watching, { what: 'the watch to open' });
    // Running, according to the console, but its Node is not in the cluster: no watch event
    // will ever be about it; only a re-list notices.
    const node = await consoleNode('ghost-node', 'ok');
    await ctx.db.updateTable('nodes').set({ info: JSON.stringify({ cluster: { nodeInfo: {} } }) }).where('id', '=', node.id).execute();
    await waitForStatus(node.id, 'unknown', 3000);
  });

  it('joins the whole flow: check-in, bootstrap, the Node registered with the token, Running', async () => {
    watcher = createNodeWatcher(ctx.services, { resyncIntervalMs: 3_600_000 });
    watcher.start();
    await eventually(async () => watcher!.watching, { what: 'the watch to open' });
    const response = await ctx.inject('POST', '/api/nodes', { token: owner.token, body: { type: 'raspberry-pi', hostname: 'pi-flow' } });
    const node = response.json();
    const secret = secretOf(node.installation_url);
    const agent = (path: string, body: unknown) => ctx.inject('POST', path, { headers: { authorization: `Bearer ${secret}` }, body });

    await agent('/agent/report', { step: 'checkin', facts: { hostname: 'pi-flow' } });
    const issued = (await agent('/agent/bootstrap', {})).json();
    await ctx.cluster.kube(issued.token).createNode({ body: { metadata: { name: issued.node_name } } });
    await agent('/agent/report', { step: 'joined' });
    await waitForStatus(node.id, 'ok');
    // The event goes out after the status commits, so the record can be read before it is sent.
    const statusesSent = () => ctx.broadcasts.filter((event) => event.payload.id === node.id).map((event) => event.payload.status);
    await eventually(() => statusesSent().at(-1) === 'ok', { what: 'the ok status to be broadcast' });
    expect(statusesSent()[0]).toBe('installing');
  });
});
