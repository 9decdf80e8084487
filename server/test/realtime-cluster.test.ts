import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api } from '@kubernetes/client-node';
import type { FastifyInstance } from 'fastify';
import Echo from 'laravel-echo';
import pino from 'pino';
import Pusher from 'pusher-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import type { ClusterGateway } from '../src/cluster/gateway.js';
import { kubeConfigFor, kubernetesGateway } from '../src/cluster/kubernetesGateway.js';
import { type SandboxCluster, startSandboxCluster } from '../src/cluster/sandbox/server.js';
import { createMailer, type Mailer } from '../src/mail/mailer.js';
import { realtimeBroadcaster } from '../src/broadcasting/broadcaster.js';
import { attachClusterFeeds, type ClusterFeeds, FeedEvent, podLogChannel } from '../src/realtime/clusterFeeds.js';
import { SUBSCRIPTION_ENDED_EVENT } from '../src/realtime/protocol.js';
import { createRealtimeServer, type RealtimeServer, realtimeAppSecret } from '../src/realtime/pusherServer.js';
import { attachRightsChecks, type RightsChecks } from '../src/realtime/rights.js';
import { createTestContext, type TestContext } from './helpers.js';
import { FAST_SANDBOX_TIMINGS } from './kubectl.js';
import { addTeamMember, addWorkspaceMember, createWorld, type World } from './teamFixtures.js';

// Channels fed from the cluster, with pusher-js and laravel-echo as the clients: a workspace
// channel carries its pod events, a pod-log channel streams the pod's log lines, and the
// upstream watch and log stream run only while somebody listens.

const APP_KEY = 'testbed';
const logger = pino({ level: 'silent' });

let ctx: TestContext;
let dir: string;
let sandbox: SandboxCluster;
let gateway: ClusterGateway;
let core: CoreV1Api;
let realtime: RealtimeServer;
let feeds: ClusterFeeds;
let rights: RightsChecks;
let app: FastifyInstance;
let mailer: Mailer;
let baseUrl: string;
let world: World;
const clients: Pusher[] = [];

beforeAll(async () => {
  ctx = await createTestContext();
  dir = mkdtempSync(join(tmpdir(), 'realtime-cluster-'));
  sandbox = await startSandboxCluster({ storageDir: dir, port: 0, timings: FAST_SANDBOX_TIMINGS });
  const kc = kubeConfigFor({ server: sandbox.url, caPem: sandbox.caPem, token: sandbox.adminToken });
  gateway = kubernetesGateway(kc, 'sandbox');
  core = kc.makeApiClient(CoreV1Api);
  realtime = await createRealtimeServer({ port: 0, host: '127.0.0.1', appKey: APP_KEY, appSecret: realtimeAppSecret(ctx.config.appKey), logger });
  mailer = createMailer(ctx.config, logger);
  app = await buildApp({
    config: { ...ctx.config, realtime: { ...ctx.config.realtime, key: APP_KEY, port: realtime.port } },
    db: ctx.db,
    mailer,
    logger,
    broadcaster: realtimeBroadcaster(realtime),
    cluster: gateway,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  feeds = attachClusterFeeds({ realtime, gateway, db: ctx.db, logger, timings: { retryMs: 100 } });
  rights = attachRightsChecks({ realtime, db: ctx.db, logger });

  world = await createWorld(ctx);
  const { workspace, team } = world;
  await gateway.ensureWorkspace({ namespace: workspace.namespace, teamName: team.name, workspaceName: workspace.name });
  await ctx.db.updateTable('workspaces').set({ cluster_state: 'ready' }).where('id', '=', workspace.id).execute();
});

afterAll(async () => {
  for (const client of clients) client.disconnect();
  feeds?.close();
  await rights?.close();
  await realtime?.close();
  await app?.close();
  mailer?.close();
  await sandbox?.close();
  await ctx?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function echoFor(token: string): Echo<'reverb'> {
  const echo = new Echo({
    broadcaster: 'reverb',
    Pusher,
    key: APP_KEY,
    wsHost: '127.0.0.1',
    wsPort: realtime.port,
    forceTLS: false,
    enabledTransports: ['ws'],
    authEndpoint: `${baseUrl}/broadcasting/auth`,
    auth: { headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' } },
  });
  clients.push(echo.connector.pusher as unknown as Pusher);
  return echo;
}

const until = async <T>(probe: () => T | undefined | Promise<T | undefined>, what: string, timeoutMs = 8000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

const createPod = (name: string) =>
  core.createNamespacedPod({
    namespace: world.workspace.namespace,
    body: { metadata: { name }, spec: { containers: [{ name: 'main', image: 'busybox', command: ['sh', '-c', 'while true; do date; sleep 1; done'] }] } },
  });

interface LogLine {
  seq: number;
  text: string;
}

describe('the workspace channel', () => {
  it('carries pod events while a member listens, and its pod watch stops with the last listener', async () => {
    const echo = echoFor(world.people.wsMember.token);
    const events: { type: string; pod: { name: string; status: { phase: string | null } } }[] = [];
    const channelName = `workspace.${world.workspace.id}`;
    echo.private(channelName).listen(`.${FeedEvent.PodsChanged}`, (event: (typeof events)[number]) => events.push(event));
    await until(() => feeds.active().includes(`private-${channelName}`), 'the pod watch to start');
    // The watch is established asynchronously after the subscription.
    await new Promise((resolve) => setTimeout(resolve, 300));

    await createPod('watched');
    await until(() => events.find((e) => e.pod?.name === 'watched' && e.pod.status.phase === 'Running'), 'the pod to be seen Running');
    expect(events[0]).toMatchObject({ type: 'ADDED', pod: { name: 'watched' } });

    echo.leave(channelName);
    await until(() => !feeds.active().includes(`private-${channelName}`), 'the pod watch to stop');
    echo.disconnect();
  });

  it('is refused to a non-member', async () => {
    const response = await fetch(`${baseUrl}/broadcasting/auth`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${world.people.outsider.token}`, Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ socket_id: '123.456', channel_name: `private-workspace.${world.workspace.id}` }),
    });
    expect(response.status).toBe(403);
  });
});

describe('a pod-log channel', () => {
  it('streams the pod log to members, replays recent lines to a late subscriber, and stops the upstream stream on the last unsubscribe', async () => {
    await createPod('chatty');
    const channelName = podLogChannel(world.workspace.id, 'chatty').replace(/^private-/, '');

    const first = echoFor(world.people.wsMember.token);
    const firstLines: LogLine[] = [];
    const states: string[] = [];
    first
      .private(channelName)
      .listen(`.${FeedEvent.PodLogLines}`, (event: { lines: LogLine[] }) => firstLines.push(...event.lines))
      .listen(`.${FeedEvent.PodLogStatus}`, (event: { state: string }) => states.push(event.state));

    // The pod starts after the subscription: the feed waits, then streams.
    await until(() => firstLines.find((line) => /started container main/.test(line.text)), 'the first log line');
    await until(() => firstLines.find((line) => /tick 2\b/.test(line.text)), 'lines written while following');
    expect(states).toContain('streaming');
    expect(firstLines.map((line) => line.seq)).toEqual(firstLines.map((_, index) => index + 1));
    expect(sandbox.logFollowers(world.workspace.namespace, 'chatty')).toBe(1);

    // A second member gets the lines so far, then the same live lines; still one upstream stream.
    const second = echoFor(world.people.wsManager.token);
    const secondLines: LogLine[] = [];
    second.private(channelName).listen(`.${FeedEvent.PodLogLines}`, (event: { lines: LogLine[] }) => secondLines.push(...event.lines));
    await until(() => secondLines.find((line) => line.seq === 1), 'the replayed lines');
    const seen = firstLines.length;
    await until(() => firstLines.length > seen + 1 && secondLines.some((line) => line.seq === firstLines.at(-1)!.seq), 'the live lines on both');
    expect(sandbox.logFollowers(world.workspace.namespace, 'chatty')).toBe(1);

    first.leave(channelName);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sandbox.logFollowers(world.workspace.namespace, 'chatty')).toBe(1);
    second.leave(channelName);
    await until(() => sandbox.logFollowers(world.workspace.namespace, 'chatty') === 0, 'the upstream log stream to stop');
    expect(feeds.active()).not.toContain(`private-${channelName}`);
    first.disconnect();
    second.disconnect();
  });

  it('is refused to a platform admin who is not a member, and to outsiders', async () => {
    const channel = podLogChannel(world.workspace.id, 'chatty');
    for (const person of [world.people.admin, world.people.outsider]) {
      const response = await fetch(`${baseUrl}/broadcasting/auth`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${person.token}`, Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ socket_id: '123.456', channel_name: channel }),
      });
      expect(response.status).toBe(403);
    }
    const member = await fetch(`${baseUrl}/broadcasting/auth`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${world.people.wsMember.token}`, Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ socket_id: '123.456', channel_name: channel }),
    });
    expect(member.status).toBe(200);
  });

  it('stops following the log, and tells the member why, once they are removed from the workspace', async () => {
    await createPod('followed');
    const channelName = podLogChannel(world.workspace.id, 'followed').replace(/^private-/, '');
    const member = await ctx.signedInUser();
    await addTeamMember(ctx, world.team.id, member.user.id, 'member');
    await addWorkspaceMember(ctx, world.workspace.id, member.user.id, 'member');
    const echo = echoFor(member.token);
    const lines: LogLine[] = [];
    const ends: { reason: string }[] = [];
    echo
      .private(channelName)
      .listen(`.${FeedEvent.PodLogLines}`, (event: { lines: LogLine[] }) => lines.push(...event.lines))
      .listen(`.${SUBSCRIPTION_ENDED_EVENT}`, (event: { reason: string }) => ends.push(event));
    await until(() => lines.length > 0, 'a line');
    expect(sandbox.logFollowers(world.workspace.namespace, 'followed')).toBe(1);

    const removed = await fetch(`${baseUrl}/api/subnamespaces/${world.workspace.id}/users/${member.user.id}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${world.people.wsManager.token}`, Accept: 'application/json' },
    });
    expect(removed.status).toBe(204);
    await until(() => ends.length > 0, 'SubscriptionEnded', 3000);
    expect(ends[0]).toMatchObject({ reason: 'access-ended' });
    await until(() => sandbox.logFollowers(world.workspace.namespace, 'followed') === 0, 'the upstream log stream to stop', 3000);
    expect(feeds.active()).not.toContain(`private-${channelName}`);
    echo.disconnect();
  });

  it('says when the pod is gone', async () => {
    await createPod('shortlived');
    const channelName = podLogChannel(world.workspace.id, 'shortlived').replace(/^private-/, '');
    const echo = echoFor(world.people.wsMember.token);
    const states: { state: string; message?: string }[] = [];
    const lines: LogLine[] = [];
    echo
      .private(channelName)
      .listen(`.${FeedEvent.PodLogLines}`, (event: { lines: LogLine[] }) => lines.push(...event.lines))
      .listen(`.${FeedEvent.PodLogStatus}`, (event: { state: string; message?: string }) => states.push(event));
    await until(() => lines.length > 0, 'a line');
    await core.deleteNamespacedPod({ name: 'shortlived', namespace: world.workspace.namespace });
    await until(() => states.find((s) => s.state === 'ended'), 'the end of the stream');
    echo.disconnect();
  });
});
