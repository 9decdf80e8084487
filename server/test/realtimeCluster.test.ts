import type { CoreV1Api } from '@kubernetes/client-node';
import Echo from 'laravel-echo';
import pino from 'pino';
import Pusher from 'pusher-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachClusterFeeds, type ClusterFeeds, FeedEvent, podLogChannel } from '../src/realtime/clusterFeeds.js';
import { SUBSCRIPTION_ENDED_EVENT } from '../src/realtime/protocol.js';
import { createTestContext, eventually, REALTIME_APP_KEY, type TestContext } from './helpers.js';
import { FAST_SANDBOX_TIMINGS } from './kubectl.js';
import { addTeamMember, addWorkspaceMember, createWorld, type World } from './teamFixtures.js';

// Channels fed from the cluster, with pusher-js and laravel-echo as the clients: a workspace
// channel carries its pod events, a pod-log channel streams the pod's log lines, and the
// upstream watch and log stream run only while somebody listens.

let ctx: TestContext;
let core: CoreV1Api;
let feeds: ClusterFeeds;
let world: World;
const clients: Pusher[] = [];

beforeAll(async () => {
  ctx = await createTestContext({ cluster: { timings: FAST_SANDBOX_TIMINGS }, realtime: true });
  core = ctx.cluster.kube();
  feeds = attachClusterFeeds({ realtime: ctx.realtime.server, gateway: ctx.cluster.gateway, db: ctx.db, logger: pino({ level: 'silent' }), timings: { retryMs: 100 } });

  world = await createWorld(ctx);
  const { workspace, team } = world;
  await ctx.cluster.gateway.ensureWorkspace({ namespace: workspace.namespace, teamName: team.name, workspaceName: workspace.name });
  await ctx.db.updateTable('workspaces').set({ cluster_state: 'ready' }).where('id', '=', workspace.id).execute();
});

afterAll(async () => {
  for (const client of clients) client.disconnect();
  feeds?.close();
  await ctx?.close();
});

function echoFor(token: string): Echo<'reverb'> {
  const echo = new Echo({
    broadcaster: 'reverb',
    Pusher,
    key: REALTIME_APP_KEY,
    wsHost: '127.0.0.1',
    wsPort: ctx.realtime.server.port,
    forceTLS: false,
    enabledTransports: ['ws'],
    authEndpoint: `${ctx.baseUrl}/broadcasting/auth`,
    auth: { headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' } },
  });
  clients.push(echo.connector.pusher as unknown as Pusher);
  return echo;
}

/** How long to wait for the cluster's pods, watches and log lines: longer than eventually's default. */
const WAIT_MS = 8000;

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
    await eventually(() => feeds.active().includes(`private-${channelName}`), { what: 'the pod watch to start', timeoutMs: WAIT_MS });
    // The watch is established asynchronously after the subscription.
    await new Promise((resolve) => setTimeout(resolve, 300));

    await createPod('watched');
    await eventually(() => events.find((e) => e.pod?.name === 'watched' && e.pod.status.phase === 'Running') ?? false, { what: 'the pod to be seen Running', timeoutMs: WAIT_MS });
    expect(events[0]).toMatchObject({ type: 'ADDED', pod: { name: 'watched' } });

    echo.leave(channelName);
    await eventually(() => !feeds.active().includes(`private-${channelName}`), { what: 'the pod watch to stop', timeoutMs: WAIT_MS });
    echo.disconnect();
  });

  it('is refused to a non-member', async () => {
    const response = await fetch(`${ctx.baseUrl}/broadcasting/auth`, {
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
    await eventually(() => firstLines.find((line) => /started container main/.test(line.text)) ?? false, { what: 'the first log line', timeoutMs: WAIT_MS });
    await eventually(() => firstLines.find((line) => /tick 2\b/.test(line.text)) ?? false, { what: 'lines written while following', timeoutMs: WAIT_MS });
    expect(states).toContain('streaming');
    expect(firstLines.map((line) => line.seq)).toEqual(firstLines.map((_, index) => index + 1));
    expect(ctx.cluster.sandbox.logFollowers(world.workspace.namespace, 'chatty')).toBe(1);

    // A second member gets the lines so far, then the same live lines; still one upstream stream.
    const second = echoFor(world.people.wsManager.token);
    const secondLines: LogLine[] = [];
    second.private(channelName).listen(`.${FeedEvent.PodLogLines}`, (event: { lines: LogLine[] }) => secondLines.push(...event.lines));
    await eventually(() => secondLines.find((line) => line.seq === 1) ?? false, { what: 'the replayed lines', timeoutMs: WAIT_MS });
    const seen = firstLines.length;
    await eventually(() => firstLines.length > seen + 1 && secondLines.some((line) => line.seq === firstLines.at(-1)!.seq), { what: 'the live lines on both', timeoutMs: WAIT_MS });
    expect(ctx.cluster.sandbox.logFollowers(world.workspace.namespace, 'chatty')).toBe(1);

    first.leave(channelName);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(ctx.cluster.sandbox.logFollowers(world.workspace.namespace, 'chatty')).toBe(1);
    second.leave(channelName);
    await eventually(() => ctx.cluster.sandbox.logFollowers(world.workspace.namespace, 'chatty') === 0, { what: 'the upstream log stream to stop', timeoutMs: WAIT_MS });
    expect(feeds.active()).not.toContain(`private-${channelName}`);
    first.disconnect();
    second.disconnect();
  });

  it('is refused to a platform admin who is not a member, and to outsiders', async () => {
    const channel = podLogChannel(world.workspace.id, 'chatty');
    for (const person of [world.people.admin, world.people.outsider]) {
      const response = await fetch(`${ctx.baseUrl}/broadcasting/auth`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${person.token}`, Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ socket_id: '123.456', channel_name: channel }),
      });
      expect(response.status).toBe(403);
    }
    const member = await fetch(`${ctx.baseUrl}/broadcasting/auth`, {
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
    await eventually(() => lines.length > 0, { what: 'a line', timeoutMs: WAIT_MS });
    expect(ctx.cluster.sandbox.logFollowers(world.workspace.namespace, 'followed')).toBe(1);

    const removed = await fetch(`${ctx.baseUrl}/api/subnamespaces/${world.workspace.id}/users/${member.user.id}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${world.people.wsManager.token}`, Accept: 'application/json' },
    });
    expect(removed.status).toBe(204);
    await eventually(() => ends.length > 0, { what: 'SubscriptionEnded', timeoutMs: 3000 });
    expect(ends[0]).toMatchObject({ reason: 'access-ended' });
    await eventually(() => ctx.cluster.sandbox.logFollowers(world.workspace.namespace, 'followed') === 0, { what: 'the upstream log stream to stop', timeoutMs: 3000 });
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
    await eventually(() => lines.length > 0, { what: 'a line', timeoutMs: WAIT_MS });
    await core.deleteNamespacedPod({ name: 'shortlived', namespace: world.workspace.namespace });
    await eventually(() => states.find((s) => s.state === 'ended') ?? false, { what: 'the end of the stream', timeoutMs: WAIT_MS });
    echo.disconnect();
  });
});
