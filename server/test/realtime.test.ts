import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import Echo from 'laravel-echo';
import pino from 'pino';
import Pusher from 'pusher-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { buildApp } from '../src/app.js';
import { createMailer, type Mailer } from '../src/mail/mailer.js';
import { RealtimeEvent, realtimeBroadcaster } from '../src/realtime/broadcaster.js';
import {
  channelAuthSignature,
  createRealtimeServer,
  PusherErrorCode,
  type RealtimeServer,
  realtimeAppSecret,
} from '../src/realtime/pusherServer.js';
import { createTestContext, type SignedInUser, type TestContext } from './helpers.js';
import { addWorkspaceMember, createWorld, insertWorkspace, type World } from './teamFixtures.js';

// The realtime server against the real clients: pusher-js (its Node build) and laravel-echo,
// with the app listening on a real port for POST /broadcasting/auth and the request events.

const APP_KEY = 'testbed';
const logger = pino({ level: 'silent' });

let ctx: TestContext;
let realtime: RealtimeServer;
let app: FastifyInstance;
let mailer: Mailer;
let baseUrl: string;
let world: World;
const clients: Pusher[] = [];
const sockets: WebSocket[] = [];

beforeAll(async () => {
  ctx = await createTestContext();
  realtime = await createRealtimeServer({
    port: 0,
    host: '127.0.0.1',
    appKey: APP_KEY,
    appSecret: realtimeAppSecret(ctx.config.appKey),
    logger,
  });
  // A second app on the same database, listening, whose broadcasts go to the realtime server.
  mailer = createMailer(ctx.config, logger);
  app = await buildApp({
    config: { ...ctx.config, realtime: { ...ctx.config.realtime, key: APP_KEY, port: realtime.port } },
    db: ctx.db,
    mailer,
    logger,
    broadcaster: realtimeBroadcaster(realtime),
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  world = await createWorld(ctx);
});

afterAll(async () => {
  for (const client of clients) client.disconnect();
  for (const socket of sockets) socket.terminate();
  await realtime?.close();
  await app?.close();
  mailer?.close();
  await ctx?.close();
});

// ---------------------------------------------------------------------------------------
// Helpers

function pusherClient(token?: string): Pusher {
  const client = new Pusher(APP_KEY, {
    cluster: 'mt1',
    wsHost: '127.0.0.1',
    wsPort: realtime.port,
    forceTLS: false,
    enabledTransports: ['ws'],
    disableStats: true,
    channelAuthorization: {
      endpoint: `${baseUrl}/broadcasting/auth`,
      transport: 'ajax',
      headers: token ? { Authorization: `Bearer ${token}`, Accept: 'application/json' } : { Accept: 'application/json' },
    },
  });
  clients.push(client);
  return client;
}

function connected(client: Pusher): Promise<string> {
  return new Promise((resolve, reject) => {
    if (client.connection.state === 'connected') return resolve(client.connection.socket_id);
    const timer = setTimeout(() => reject(new Error(`not connected: ${client.connection.state}`)), 5000);
    client.connection.bind('connected', () => {
      clearTimeout(timer);
      resolve(client.connection.socket_id);
    });
  });
}

type SubscriptionOutcome = { ok: true } | { ok: false; status: number; type: string };

function subscribeOutcome(client: Pusher, channelName: string): Promise<SubscriptionOutcome> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer for ${channelName}`)), 5000);
    const channel = client.subscribe(channelName);
    channel.bind('pusher:subscription_succeeded', () => {
      clearTimeout(timer);
      resolve({ ok: true });
    });
    channel.bind('pusher:subscription_error', (error: { status: number; type: string }) => {
      clearTimeout(timer);
      resolve({ ok: false, status: error.status, type: error.type });
    });
  });
}

interface Frame {
  event: string;
  channel?: string;
  data: unknown;
}

/** A bare WebSocket speaking the protocol by hand, for what the real clients never send. */
class RawClient {
  frames: Frame[] = [];
  closeCode: number | null = null;
  private waiters: (() => void)[] = [];
  constructor(readonly socket: WebSocket) {
    socket.on('message', (raw) => {
      const message = JSON.parse(raw.toString()) as { event: string; channel?: string; data: unknown };
      const data = typeof message.data === 'string' ? JSON.parse(message.data) : message.data;
      this.frames.push({ ...message, data });
      this.wake();
    });
    socket.on('close', (code) => {
      this.closeCode = code;
      this.wake();
    });
  }
  private wake() {
    for (const waiter of this.waiters.splice(0)) waiter();
  }
  send(message: unknown) {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }
  /** The first frame (not yet taken) matching `event`, waiting up to `timeoutMs`. */
  async next(event: string, timeoutMs = 5000): Promise<Frame> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.frames.findIndex((frame) => frame.event === event);
      if (index >= 0) return this.frames.splice(index, 1)[0];
      if (Date.now() > deadline) throw new Error(`no ${event}; got ${JSON.stringify(this.frames)}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }
  async closed(timeoutMs = 5000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    while (this.closeCode === null) {
      if (Date.now() > deadline) throw new Error('not closed');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return this.closeCode;
  }
}

async function rawClient(options: { port?: number; path?: string } = {}): Promise<RawClient> {
  const socket = new WebSocket(`ws://127.0.0.1:${options.port ?? realtime.port}${options.path ?? `/app/${APP_KEY}?protocol=7&client=js&version=8.6.0`}`);
  sockets.push(socket);
  const client = new RawClient(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return client;
}

async function establishedRawClient(port?: number): Promise<{ client: RawClient; socketId: string }> {
  const client = await rawClient({ port });
  const established = await client.next('pusher:connection_established');
  return { client, socketId: (established.data as { socket_id: string }).socket_id };
}

async function api(method: string, path: string, token: string, body?: unknown) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { accept: 'application/json', authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

async function until(condition: () => boolean, what: string, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function echoFor(client: Pusher) {
  return new Echo({ broadcaster: 'reverb', key: APP_KEY, client, withoutInterceptors: true });
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
      [`/app/${APP_KEY}`, PusherErrorCode.NO_PROTOCOL],
      [`/app/${APP_KEY}?protocol=6`, PusherErrorCode.UNSUPPORTED_PROTOCOL],
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
    const { client } = await establishedRawClient();
    client.send({ event: 'pusher:subscribe', data: { channel: 'public-room' } });
    await client.next('pusher_internal:subscription_succeeded');
    client.send({ event: 'client-typing', channel: 'public-room', data: { hello: 1 } });
    expect((await client.next('pusher:error')).data).toMatchObject({ code: PusherErrorCode.CLIENT_EVENT_REFUSED });
    expect(client.frames.find((frame) => frame.event === 'client-typing')).toBeUndefined();
  });

  it('closes a connection that sends an oversized message (4009)', async () => {
    const { client } = await establishedRawClient();
    client.send({ event: 'pusher:subscribe', data: { channel: 'big-room', padding: 'x'.repeat(11 * 1024) } });
    expect((await client.next('pusher:error')).data).toMatchObject({ code: PusherErrorCode.MESSAGE_TOO_LARGE });
    expect(await client.closed()).toBe(PusherErrorCode.MESSAGE_TOO_LARGE);
    expect(realtime.subscriberCount('big-room')).toBe(0);
  });

  it('closes a connection that floods messages (4100)', async () => {
    const { client } = await establishedRawClient();
    for (let i = 0; i < 60; i++) client.send({ event: 'pusher:ping', data: {} });
    expect(await client.closed()).toBe(PusherErrorCode.OVER_CAPACITY);
  });
});

describe('limits and idle connections', () => {
  it('limits the subscriptions of one connection', async () => {
    const small = await createRealtimeServer({ port: 0, host: '127.0.0.1', appKey: APP_KEY, appSecret: 'secret', limits: { maxSubscriptionsPerConnection: 2 } });
    try {
      const { client } = await establishedRawClient(small.port);
      for (const channel of ['a', 'b']) {
        client.send({ event: 'pusher:subscribe', data: { channel } });
        await client.next('pusher_internal:subscription_succeeded');
      }
      client.send({ event: 'pusher:subscribe', data: { channel: 'c' } });
      const error = await client.next('pusher:subscription_error');
      expect(error.channel).toBe('c');
      expect(error.data).toMatchObject({ type: 'LimitReached', status: 429 });
      expect(small.subscriberCount('c')).toBe(0);
    } finally {
      await small.close();
    }
  });

  it('pings an idle connection after the activity timeout and closes it after the grace (4201)', async () => {
    const quick = await createRealtimeServer({ port: 0, host: '127.0.0.1', appKey: APP_KEY, appSecret: 'secret', activityTimeoutSeconds: 1, idleGraceSeconds: 1 });
    try {
      const client = await rawClient({ port: quick.port });
      expect((await client.next('pusher:connection_established')).data).toMatchObject({ activity_timeout: 1 });
      await client.next('pusher:ping', 3000);
      expect(await client.closed(4000)).toBe(PusherErrorCode.IDLE);
      expect(quick.connectionCount()).toBe(0);
    } finally {
      await quick.close();
    }
  });

  it('calls the first-subscribe and last-unsubscribe hooks (also when the connection drops)', async () => {
    const events: string[] = [];
    realtime.onFirstSubscribe((channel) => events.push(`first ${channel}`));
    realtime.onLastUnsubscribe((channel) => events.push(`last ${channel}`));
    const one = await establishedRawClient();
    const two = await establishedRawClient();
    for (const { client } of [one, two]) {
      client.send({ event: 'pusher:subscribe', data: { channel: 'hooked' } });
      await client.next('pusher_internal:subscription_succeeded');
    }
    one.client.send({ event: 'pusher:unsubscribe', data: { channel: 'hooked' } });
    await until(() => realtime.subscriberCount('hooked') === 1, 'one subscriber left');
    two.client.socket.close();
    await until(() => realtime.subscriberCount('hooked') === 0, 'no subscriber left');
    expect(events.filter((event) => event.endsWith(' hooked'))).toEqual(['first hooked', 'last hooked']);
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
    const expected = channelAuthSignature(APP_KEY, realtimeAppSecret(ctx.config.appKey), '123.456', channel);
    expect(await form.json()).toEqual({ auth: expected });
    expect(expected).toMatch(/^testbed:[0-9a-f]{64}$/);

    const json = await api('POST', '/broadcasting/auth', owner.token, { socket_id: '123.456', channel_name: channel });
    expect(json).toEqual({ status: 200, json: { auth: expected } });
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

  it('refuses a forged signature, and a signature made for another socket', async () => {
    const { owner } = world.people;
    const channel = `private-App.User.${owner.user.id}`;
    const { client, socketId } = await establishedRawClient();

    client.send({ event: 'pusher:subscribe', data: { channel, auth: `${APP_KEY}:${'0'.repeat(64)}` } });
    const forged = await client.next('pusher:subscription_error');
    expect(forged.channel).toBe(channel);
    expect(forged.data).toMatchObject({ type: 'AuthError', status: 403 });

    // A genuine signature, but for someone else's socket id.
    const other = await api('POST', '/broadcasting/auth', owner.token, { socket_id: '1.1', channel_name: channel });
    client.send({ event: 'pusher:subscribe', data: { channel, auth: other.json.auth } });
    await client.next('pusher:subscription_error');

    client.send({ event: 'pusher:subscribe', data: { channel } });
    await client.next('pusher:subscription_error');
    expect(realtime.subscriberCount(channel)).toBe(0);

    // The right one for this socket works.
    const mine = await api('POST', '/broadcasting/auth', owner.token, { socket_id: socketId, channel_name: channel });
    client.send({ event: 'pusher:subscribe', data: { channel, auth: mine.json.auth } });
    expect((await client.next('pusher_internal:subscription_succeeded')).channel).toBe(channel);
    client.send({ event: 'pusher:unsubscribe', data: { channel } });
    await until(() => realtime.subscriberCount(channel) === 0, 'unsubscribed');
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
    await until(() => ownerListens.received.length === 1 && managerListens.received.length === 1, 'RequestCreated');
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
    await until(() => requesterListens.received.length === 1, 'RequestDecided');
    expect(requesterListens.received[0]).toMatchObject({
      id: asked.json.id,
      status: 'Approved',
      decision_message: 'Welcome',
      decided_by: { id: owner.user.id },
      can_decide: false,
    });
    await app.backgroundTasks.idle();
    // A plain member decides nothing and hears nothing.
    expect(memberListens.received).toEqual([]);
    expect(ownerListens.received).toHaveLength(1);
  });

  it('stops delivering once the channel is left', async () => {
    const { manager, wsMember } = world.people;
    const listening = await listen(manager, RealtimeEvent.RequestCreated);
    const channel = `private-App.User.${manager.user.id}`;
    // (The manager's connection of the previous test is still subscribed too.)
    const before = realtime.subscriberCount(channel);
    listening.echo.leave(`App.User.${manager.user.id}`);
    await until(() => realtime.subscriberCount(channel) === before - 1, 'unsubscribed');

    // Another join request the manager would decide: no event reaches them now.
    const extra = await insertWorkspace(ctx, world.team);
    const asked = await api('PATCH', '/api/requests/workspaces/', wsMember.token, { team_id: world.team.id, name: extra.name });
    expect(asked.status).toBe(201);
    await app.backgroundTasks.idle();
    realtime.broadcast(channel, RealtimeEvent.RequestCreated, { id: 0 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(listening.received).toEqual([]);
  });
});
