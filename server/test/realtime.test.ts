import Echo from 'laravel-echo';
import type Pusher from 'pusher-js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ConfigError, loadConfig } from '../src/config/config.js';
import { RealtimeEvent } from '../src/broadcasting/broadcaster.js';
import { holderChannelData } from '../src/realtime/protocol.js';
import { channelAuthSignature, createRealtimeServer, PusherErrorCode, realtimeAppSecret } from '../src/realtime/pusherServer.js';
import { createTestContext, eventually, REALTIME_APP_KEY, type SignedInUser, type TestContext } from './helpers.js';
import { connected, establishedRawClient as establishedOn, RawClient, rawClient as rawClientOn, signedSubscribe, subscribeOutcome } from './realtimeClients.js';
import { addWorkspaceMember, createWorld, insertWorkspace, type World } from './teamFixtures.js';

// The realtime server against the real clients: pusher-js (its Node build) and laravel-echo,
// with the app listening on a real port for POST /broadcasting/auth and the request events.

let ctx: TestContext;
let baseUrl: string;
let world: World;
const raws: RawClient[] = [];

beforeAll(async () => {
  ctx = await createTestContext({ realtime: true });
  baseUrl = ctx.baseUrl;
  world = await createWorld(ctx);
});

afterEach(() => {
  for (const raw of raws.splice(0)) raw.socket.terminate();
});

afterAll(async () => {
  await ctx?.close();
});

// ---------------------------------------------------------------------------------------
// Helpers

const pusherClient = (token?: string): Pusher => ctx.realtime.pusher(token);

/** The id part of an `ID|SECRET` token. */
const tokenIdOf = (token: string) => Number(token.split('|')[0]);

async function rawClient(options: { port?: number; path?: string } = {}): Promise<RawClient> {
  const client = await rawClientOn(options.port ?? ctx.realtime.server.port, { path: options.path });
  raws.push(client);
  return client;
}

async function establishedRawClient(port?: number): Promise<{ client: RawClient; socketId: string }> {
  const established = await establishedOn(port ?? ctx.realtime.server.port);
  raws.push(established.client);
  return established;
}

async function api(method: string, path: string, token: string, body?: unknown) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { accept: 'application/json', authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

function echoFor(client: Pusher) {
  return new Echo({ broadcaster: 'reverb', key: REALTIME_APP_KEY, client, withoutInterceptors: true });
}

// ---------------------------------------------------------------------------------------

describe('connection (protocol 7)', () => {
  it('sends connection_established with a socket id and the activity timeout to pusher-js', async () => {
    const client = pusherClient();
    const socketId = await connected(client);
    expect(socketId).toMatch(/^\d+\.\d+$/);

    const raw = await rawClient();
    const established = await raw.next('pusher:connection_established');
    expect(established.data).toEqual({ socket_id: expect.stringMatching(/^\d+\.\d+$/), activity_timeout: 30 });
  });

  it('answers pusher:ping with pusher:pong', async () => {
    const { client } = await establishedRawClient();
    client.send({ event: 'pusher:ping', data: {} });
    expect((await client.next('pusher:pong')).data).toEqual({});
  });

  it('refuses a wrong app key (4001), a wrong path (4005) and a missing or other protocol version', async () => {
    const cases: [string, number][] = [
      ['/app/not-the-key?protocol=7', PusherErrorCode.APP_NOT_FOUND],
      ['/socket?protocol=7', PusherErrorCode.PATH_NOT_FOUND],
      [`/app/${REALTIME_APP_KEY}`, PusherErrorCode.NO_PROTOCOL],
      [`/app/${REALTIME_APP_KEY}?protocol=6`, PusherErrorCode.UNSUPPORTED_PROTOCOL],
    ];
    for (const [path, code] of cases) {
      const client = await rawClient({ path });
      expect((await client.next('pusher:error')).data).toMatchObject({ code });
      expect(await client.closed()).toBe(code);
      expect(client.frames.find((frame) => frame.event === 'pusher:connection_established')).toBeUndefined();
    }
  });

  it('answers invalid JSON with pusher:error and keeps the connection', async () => {
    const { client } = await establishedRawClient();
    client.send('{not json');
    expect((await client.next('pusher:error')).data).toMatchObject({ message: 'Invalid message format.' });
    client.send({ event: 'pusher:ping', data: {} });
    await client.next('pusher:pong');
  });

  it('refuses client events', async () => {
    const { client, socketId } = await establishedRawClient();
    client.send(signedSubscribe(socketId, 'private-room', realtimeAppSecret(ctx.config.appKey)));
    await client.next('pusher_internal:subscription_succeeded');
    client.send({ event: 'client-typing', channel: 'private-room', data: { hello: 1 } });
    expect((await client.next('pusher:error')).data).toMatchObject({ code: PusherErrorCode.CLIENT_EVENT_REFUSED });
    expect(client.frames.find((frame) => frame.event === 'client-typing')).toBeUndefined();
  });

  it('closes a connection that sends an oversized message (4009)', async () => {
    const { client } = await establishedRawClient();
    client.send({ event: 'pusher:subscribe', data: { channel: 'big-room', padding: 'x'.repeat(11 * 1024) } });
    expect((await client.next('pusher:error')).data).toMatchObject({ code: PusherErrorCode.MESSAGE_TOO_LARGE });
    expect(await client.closed()).toBe(PusherErrorCode.MESSAGE_TOO_LARGE);
    expect(ctx.realtime.server.subscriberCount('big-room')).toBe(0);
  });

  it('closes a connection that floods messages (4100)', async () => {
    const { client } = await establishedRawClient();
    for (let i = 0; i < 60; i++) client.send({ event: 'pusher:ping', data: {} });
    expect(await client.closed()).toBe(PusherErrorCode.OVER_CAPACITY);
  });
});

describe('limits and idle connections', () => {
  it('takes its limits from the environment (REALTIME_*), and refuses nonsense there', () => {
    const base = { STORAGE_DIR: ctx.config.storageDir, APP_KEY: ctx.config.appKey };
    expect(loadConfig(base, { envFile: null }).realtimeLimits).toEqual({
      maxConnections: 10_000,
      maxConnectionsPerAddress: 100,
      maxSubscriptionsPerConnection: 100,
      recheckSeconds: 60,
    });
    const set = loadConfig(
      { ...base, REALTIME_MAX_CONNECTIONS: '500', REALTIME_MAX_CONNECTIONS_PER_ADDRESS: '5', REALTIME_MAX_SUBSCRIPTIONS: '20', REALTIME_RECHECK_SECONDS: '15' },
      { envFile: null },
    );
    expect(set.realtimeLimits).toEqual({ maxConnections: 500, maxConnectionsPerAddress: 5, maxSubscriptionsPerConnection: 20, recheckSeconds: 15 });
    for (const bad of ['0', '-1', '2.5', 'many']) {
      expect(() => loadConfig({ ...base, REALTIME_MAX_CONNECTIONS_PER_ADDRESS: bad }, { envFile: null }), bad).toThrow(ConfigError);
    }
  });

  it('limits the subscriptions of one connection', async () => {
    const small = await createRealtimeServer({ port: 0, host: '127.0.0.1', appKey: REALTIME_APP_KEY, appSecret: 'secret', limits: { maxSubscriptionsPerConnection: 2 } });
    try {
      const { client, socketId } = await establishedRawClient(small.port);
      for (const channel of ['private-a', 'private-b']) {
        client.send(signedSubscribe(socketId, channel, 'secret'));
        await client.next('pusher_internal:subscription_succeeded');
      }
      client.send(signedSubscribe(socketId, 'private-c', 'secret'));
      const error = await client.next('pusher:subscription_error');
      expect(error.channel).toBe('private-c');
      expect(error.data).toMatchObject({ type: 'LimitReached', status: 429 });
      expect(small.subscriberCount('private-c')).toBe(0);
    } finally {
      await small.close();
    }
  });

  it('pings an idle connection after the activity timeout and closes it after the grace (4201)', async () => {
    const quick = await createRealtimeServer({ port: 0, host: '127.0.0.1', appKey: REALTIME_APP_KEY, appSecret: 'secret', activityTimeoutSeconds: 1, idleGraceSeconds: 1 });
    try {
      const client = await rawClient({ port: quick.port });
      const established = await client.next('pusher:connection_established');
      expect(established.data).toMatchObject({ activity_timeout: 1 });
      // Subscribed to something, or it would be closed as unused first (next test).
      client.send(signedSubscribe((established.data as { socket_id: string }).socket_id, 'private-quiet-room', 'secret'));
      await client.next('pusher_internal:subscription_succeeded');
      await client.next('pusher:ping', 3000);
      expect(await client.closed(4000)).toBe(PusherErrorCode.IDLE);
      expect(quick.connectionCount()).toBe(0);
    } finally {
      await quick.close();
    }
  });

  it('closes a connection subscribed to nothing for the activity timeout (4202), even while it pings', async () => {
    const quick = await createRealtimeServer({ port: 0, host: '127.0.0.1', appKey: REALTIME_APP_KEY, appSecret: 'secret', activityTimeoutSeconds: 1, idleGraceSeconds: 5 });
    try {
      const never = await rawClient({ port: quick.port });
      const left = await rawClient({ port: quick.port });
      const established = await left.next('pusher:connection_established');
      left.send(signedSubscribe((established.data as { socket_id: string }).socket_id, 'private-brief', 'secret'));
      await left.next('pusher_internal:subscription_succeeded');
      left.send({ event: 'pusher:unsubscribe', data: { channel: 'private-brief' } });
      const started = Date.now();
      const pinging = setInterval(() => {
        for (const client of [never, left]) if (client.closeCode === null) client.send({ event: 'pusher:ping', data: {} });
      }, 200);
      try {
        expect(await never.closed(4000)).toBe(PusherErrorCode.UNUSED);
        expect(await left.closed(4000)).toBe(PusherErrorCode.UNUSED);
      } finally {
        clearInterval(pinging);
      }
      expect(Date.now() - started).toBeLessThan(3000);
      expect(quick.connectionCount()).toBe(0);
    } finally {
      await quick.close();
    }
  });

  it('limits connections per client address, so that a flood from one address leaves room for others', async () => {
    const limited = await createRealtimeServer({
      port: 0,
      host: '127.0.0.1',
      appKey: REALTIME_APP_KEY,
      appSecret: 'secret',
      limits: { maxConnections: 5, maxConnectionsPerAddress: 3 },
    });
    try {
      // Five from 127.0.0.1 (enough to fill the server without the per-address limit).
      const flood = await Promise.all(Array.from({ length: 5 }, () => rawClientOn(limited.port)));
      raws.push(...flood);
      await eventually(() => flood.every((client) => client.frames.length > 0), { what: 'every flood connection answered' });
      const refused = flood.filter((client) => client.frames.some((frame) => frame.event === 'pusher:error'));
      expect(refused).toHaveLength(2);
      for (const client of refused) {
        expect(client.frames[0].data).toMatchObject({ code: PusherErrorCode.OVER_CAPACITY, message: 'Too many connections from this address.' });
        expect(await client.closed()).toBe(PusherErrorCode.OVER_CAPACITY);
      }
      expect(limited.connectionCount()).toBe(3);

      // Another address still gets in, as a real pusher-js client would.
      const other = await establishedOn(limited.port, { localAddress: '127.0.0.2' });
      raws.push(other.client);
      expect(limited.connectionCount()).toBe(4);

      // A slot freed on the flooding address can be taken again.
      flood.find((client) => client.closeCode === null)?.socket.close();
      await eventually(() => limited.connectionCount() === 3, { what: 'a flood connection gone' });
      raws.push((await establishedOn(limited.port)).client);
    } finally {
      await limited.close();
    }
  });

  it('keys the per-address limit on the clientAddress option (e.g. a trusted proxy header)', async () => {
    const behindProxy = await createRealtimeServer({
      port: 0,
      host: '127.0.0.1',
      appKey: REALTIME_APP_KEY,
      appSecret: 'secret',
      limits: { maxConnectionsPerAddress: 1 },
      clientAddress: (request) => String(request.headers['x-test-client'] ?? request.socket.remoteAddress),
    });
    try {
      const as = (client: string) =>
        new Promise<RawClient>((resolve, reject) => {
          const socket = new WebSocket(`ws://127.0.0.1:${behindProxy.port}/app/${REALTIME_APP_KEY}?protocol=7`, { headers: { 'x-test-client': client } });
          const raw = new RawClient(socket);
          raws.push(raw);
          socket.once('open', () => resolve(raw));
          socket.once('error', reject);
        });
      const first = await as('203.0.113.1');
      await first.next('pusher:connection_established');
      const second = await as('203.0.113.1');
      expect((await second.next('pusher:error')).data).toMatchObject({ code: PusherErrorCode.OVER_CAPACITY });
      const third = await as('203.0.113.2');
      await third.next('pusher:connection_established');
    } finally {
      await behindProxy.close();
    }
  });

  it('calls the first-subscribe and last-unsubscribe hooks (also when the connection drops)', async () => {
    const events: string[] = [];
    ctx.realtime.server.onFirstSubscribe((channel) => events.push(`first ${channel}`));
    ctx.realtime.server.onLastUnsubscribe((channel) => events.push(`last ${channel}`));
    const one = await establishedRawClient();
    const two = await establishedRawClient();
    for (const { client, socketId } of [one, two]) {
      client.send(signedSubscribe(socketId, 'private-hooked', realtimeAppSecret(ctx.config.appKey)));
      await client.next('pusher_internal:subscription_succeeded');
    }
    one.client.send({ event: 'pusher:unsubscribe', data: { channel: 'private-hooked' } });
    await eventually(() => ctx.realtime.server.subscriberCount('private-hooked') === 1, { what: 'one subscriber left' });
    two.client.socket.close();
    await eventually(() => ctx.realtime.server.subscriberCount('private-hooked') === 0, { what: 'no subscriber left' });
    expect(events.filter((event) => event.endsWith(' private-hooked'))).toEqual(['first private-hooked', 'last private-hooked']);
  });
});

describe('POST /broadcasting/auth', () => {
  it('signs the own user channel as Pusher defines it, from a form or JSON body', async () => {
    const { owner } = world.people;
    const channel = `private-App.User.${owner.user.id}`;
    const form = await fetch(`${baseUrl}/broadcasting/auth`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ socket_id: '123.456', channel_name: channel }).toString(),
    });
    expect(form.status).toBe(200);
    // channel_data names the holder (user and token), and the signature covers it.
    const channelData = holderChannelData({ userId: owner.user.id, tokenId: tokenIdOf(owner.token) });
    expect(JSON.parse(channelData)).toEqual({ user_id: owner.user.id, token_id: tokenIdOf(owner.token) });
    const expected = channelAuthSignature(REALTIME_APP_KEY, realtimeAppSecret(ctx.config.appKey), '123.456', channel, channelData);
    expect(await form.json()).toEqual({ auth: expected, channel_data: channelData });
    expect(expected).toMatch(/^testbed:[0-9a-f]{64}$/);

    const json = await api('POST', '/broadcasting/auth', owner.token, { socket_id: '123.456', channel_name: channel });
    expect(json).toEqual({ status: 200, json: { auth: expected, channel_data: channelData } });
  });

  it('answers 401 without a token, 403 before onboarding, 422 for a malformed socket id, 403 for other channels', async () => {
    const { owner, outsider, wsMember } = world.people;
    const noToken = await ctx.inject('POST', '/broadcasting/auth', { body: { socket_id: '1.2', channel_name: `private-App.User.${owner.user.id}` } });
    expect(noToken.statusCode).toBe(401);

    const unverified = await ctx.createUser({ verified: false });
    const unverifiedToken = await ctx.login(unverified.user.email);
    const gated = await api('POST', '/broadcasting/auth', unverifiedToken, { socket_id: '1.2', channel_name: `private-App.User.${unverified.user.id}` });
    expect(gated.status).toBe(403);
    expect(gated.json.onboarding).toBe('verify-email');

    const malformed = await api('POST', '/broadcasting/auth', owner.token, { socket_id: '1.2;x', channel_name: `private-App.User.${owner.user.id}` });
    expect(malformed.status).toBe(422);
    expect(malformed.json.errors).toHaveProperty('socket_id');

    for (const channel of [`private-App.User.${outsider.user.id}`, 'private-anything', 'presence-App.User.1', `private-workspace.${world.workspace.id}`, 'private-workspace.999999']) {
      const answer = await api('POST', '/broadcasting/auth', owner.token, { socket_id: '1.2', channel_name: channel });
      expect(answer.status, channel).toBe(403);
    }
    const member = await api('POST', '/broadcasting/auth', wsMember.token, { socket_id: '1.2', channel_name: `private-workspace.${world.workspace.id}` });
    expect(member.status).toBe(200);
  });
});

describe('private channels with pusher-js', () => {
  it('subscribes to the own user channel and to a workspace of which one is a member (or as platform admin)', async () => {
    const { wsMember, admin } = world.people;
    const member = pusherClient(wsMember.token);
    expect(await subscribeOutcome(member, `private-App.User.${wsMember.user.id}`)).toEqual({ ok: true });
    expect(await subscribeOutcome(member, `private-workspace.${world.workspace.id}`)).toEqual({ ok: true });
    const platformAdmin = pusherClient(admin.token);
    expect(await subscribeOutcome(platformAdmin, `private-workspace.${world.workspace.id}`)).toEqual({ ok: true });
  });

  it('is refused without a valid token (401), for another user channel and for a non-member workspace (403)', async () => {
    const { outsider, owner } = world.people;
    const anonymous = pusherClient();
    expect(await subscribeOutcome(anonymous, `private-App.User.${outsider.user.id}`)).toMatchObject({ ok: false, status: 401 });
    const badToken = pusherClient('1|not-a-real-token');
    expect(await subscribeOutcome(badToken, `private-App.User.${outsider.user.id}`)).toMatchObject({ ok: false, status: 401 });

    const client = pusherClient(outsider.token);
    expect(await subscribeOutcome(client, `private-App.User.${owner.user.id}`)).toMatchObject({ ok: false, status: 403 });
    expect(await subscribeOutcome(client, `private-workspace.${world.workspace.id}`)).toMatchObject({ ok: false, status: 403 });
    // The workspace channel opens to the outsider once they are a member of a workspace.
    const own = await insertWorkspace(ctx, world.team);
    await addWorkspaceMember(ctx, own.id, outsider.user.id, 'member');
    expect(await subscribeOutcome(client, `private-workspace.${own.id}`)).toEqual({ ok: true });
  });

  it('refuses a forged signature, one made for another socket, another holder or without a holder', async () => {
    const { owner } = world.people;
    const channel = `private-App.User.${owner.user.id}`;
    const { client, socketId } = await establishedRawClient();

    client.send({ event: 'pusher:subscribe', data: { channel, auth: `${REALTIME_APP_KEY}:${'0'.repeat(64)}` } });
    const forged = await client.next('pusher:subscription_error');
    expect(forged.channel).toBe(channel);
    expect(forged.data).toMatchObject({ type: 'AuthError', status: 403 });

    // A genuine signature, but for someone else's socket id.
    const other = await api('POST', '/broadcasting/auth', owner.token, { socket_id: '1.1', channel_name: channel });
    client.send({ event: 'pusher:subscribe', data: { channel, auth: other.json.auth } });
    await client.next('pusher:subscription_error');

    client.send({ event: 'pusher:subscribe', data: { channel } });
    await client.next('pusher:subscription_error');

    const mine = await api('POST', '/broadcasting/auth', owner.token, { socket_id: socketId, channel_name: channel });
    // The signature of this socket, with channel_data naming somebody else (or nobody).
    const otherHolder = holderChannelData({ userId: world.people.outsider.user.id, tokenId: tokenIdOf(owner.token) });
    client.send({ event: 'pusher:subscribe', data: { channel, auth: mine.json.auth, channel_data: otherHolder } });
    await client.next('pusher:subscription_error');
    client.send({ event: 'pusher:subscribe', data: { channel, auth: mine.json.auth } });
    await client.next('pusher:subscription_error');
    // Signed without a holder, even with the real secret: a subscription nobody holds could not be ended.
    const secret = realtimeAppSecret(ctx.config.appKey);
    client.send({ event: 'pusher:subscribe', data: { channel, auth: channelAuthSignature(REALTIME_APP_KEY, secret, socketId, channel) } });
    await client.next('pusher:subscription_error');
    expect(ctx.realtime.server.subscriberCount(channel)).toBe(0);

    // The right one for this socket works.
    client.send({ event: 'pusher:subscribe', data: { channel, auth: mine.json.auth, channel_data: mine.json.channel_data } });
    expect((await client.next('pusher_internal:subscription_succeeded')).channel).toBe(channel);
    client.send({ event: 'pusher:unsubscribe', data: { channel } });
    await eventually(() => ctx.realtime.server.subscriberCount(channel) === 0, { what: 'unsubscribed' });
  });
});

describe('request events through laravel-echo', () => {
  async function listen(person: SignedInUser, event: string) {
    const client = pusherClient(person.token);
    const echo = echoFor(client);
    const received: Record<string, unknown>[] = [];
    const channel = echo.private(`App.User.${person.user.id}`);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('echo subscription timed out')), 5000);
      channel.subscribed(() => {
        clearTimeout(timer);
        resolve();
      });
      channel.error((error: unknown) => {
        clearTimeout(timer);
        reject(new Error(`echo subscription failed: ${JSON.stringify(error)}`));
      });
    });
    channel.listen(`.${event}`, (payload: Record<string, unknown>) => received.push(payload));
    return { echo, received };
  }

  it('tells the deciders of a new join request (RequestCreated) and the requester of the decision (RequestDecided)', async () => {
    const { owner, manager, member, outsider } = world.people;
    const ownerListens = await listen(owner, RealtimeEvent.RequestCreated);
    const managerListens = await listen(manager, RealtimeEvent.RequestCreated);
    const memberListens = await listen(member, RealtimeEvent.RequestCreated);
    const requesterListens = await listen(outsider, RealtimeEvent.RequestDecided);

    const asked = await api('PATCH', '/api/requests/teams', outsider.token, { team_id: world.team.id, message: 'Let me in' });
    expect(asked.status).toBe(201);
    await eventually(() => ownerListens.received.length === 1 && managerListens.received.length === 1, { what: 'RequestCreated' });
    expect(ownerListens.received[0]).toMatchObject({
      id: asked.json.id,
      type: 'JoinTeam',
      status: 'Pending',
      message: 'Let me in',
      can_decide: true,
      user: { id: outsider.user.id },
    });

    const decided = await api('PATCH', `/api/requests/${asked.json.id}`, owner.token, { action: 'approve', message: 'Welcome' });
    expect(decided.status).toBe(200);
    await eventually(() => requesterListens.received.length === 1, { what: 'RequestDecided' });
    expect(requesterListens.received[0]).toMatchObject({
      id: asked.json.id,
      status: 'Approved',
      decision_message: 'Welcome',
      decided_by: { id: owner.user.id },
      can_decide: false,
    });
    await ctx.idle();
    // A plain member decides nothing and hears nothing.
    expect(memberListens.received).toEqual([]);
    expect(ownerListens.received).toHaveLength(1);
  });

  it('stops delivering once the channel is left', async () => {
    const { manager, wsMember } = world.people;
    const listening = await listen(manager, RealtimeEvent.RequestCreated);
    const channel = `private-App.User.${manager.user.id}`;
    // (The manager's connection of the previous test is still subscribed too.)
    const before = ctx.realtime.server.subscriberCount(channel);
    listening.echo.leave(`App.User.${manager.user.id}`);
    await eventually(() => ctx.realtime.server.subscriberCount(channel) === before - 1, { what: 'unsubscribed' });

    // Another join request the manager would decide: no event reaches them now.
    const extra = await insertWorkspace(ctx, world.team);
    const asked = await api('PATCH', '/api/requests/workspaces/', wsMember.token, { team_id: world.team.id, name: extra.name });
    expect(asked.status).toBe(201);
    await ctx.idle();
    ctx.realtime.server.broadcast(channel, RealtimeEvent.RequestCreated, { id: 0 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(listening.received).toEqual([]);
  });
});
