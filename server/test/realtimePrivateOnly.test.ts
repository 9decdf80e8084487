import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { realtimeAppSecret } from '../src/realtime/pusherServer.js';
import { createTestContext, pause, type TestContext } from './helpers.js';
import { connected, establishedRawClient, type RawClient, signedSubscribe, subscribeOutcome } from './realtimeClients.js';
import { createWorld, type World } from './teamFixtures.js';

// The realtime server offers private channels only: every subscription is signed for a holder
// whose right can be checked and can end. A subscription to any other channel (public, presence,
// encrypted) gets pusher:subscription_error and hears nothing of what is broadcast there.

let ctx: TestContext;
let world: World;
const raws: RawClient[] = [];

beforeAll(async () => {
  ctx = await createTestContext({ realtime: true });
  world = await createWorld(ctx);
});

afterEach(() => {
  for (const raw of raws.splice(0)) raw.socket.terminate();
});

afterAll(async () => {
  await ctx?.close();
});

/** Channels that are not private: each is refused, however its subscription is signed. */
const NOT_PRIVATE = ['public-room', 'room', 'App.User.1', 'workspace.1', 'pod-logs.1.web', 'Private-App.User.1', 'privateroom', 'presence-room', 'private-encrypted-room'];

describe('subscriptions to channels that are not private', () => {
  it('pusher-js: a public channel gets pusher:subscription_error (AuthError 403) and hears no broadcast', async () => {
    const client = ctx.realtime.pusher(world.people.owner.token);
    await connected(client);
    expect(await subscribeOutcome(client, 'public-room')).toEqual({ ok: false, status: 403, type: 'AuthError' });
    const heard: unknown[] = [];
    client.channel('public-room').bind('Hello', (data: unknown) => heard.push(data));
    ctx.realtime.server.broadcast('public-room', 'Hello', { to: 'everybody' });
    // Its own channel on the same connection still works, and hears what is sent after.
    const own = `private-App.User.${world.people.owner.user.id}`;
    expect(await subscribeOutcome(client, own)).toEqual({ ok: true });
    const ownHeard = new Promise<unknown>((resolve) => client.channel(own).bind('Hello', resolve));
    ctx.realtime.server.broadcast(own, 'Hello', { to: 'owner' });
    expect(await ownHeard).toEqual({ to: 'owner' });
    expect(heard).toEqual([]);
    expect(ctx.realtime.server.subscriberCount('public-room')).toBe(0);
  });

  it('a raw client: each such channel is refused, the connection stays, nothing is delivered on it', async () => {
    const { client, socketId } = await establishedRawClient(ctx.realtime.server.port);
    raws.push(client);
    const secret = realtimeAppSecret(ctx.config.appKey);
    for (const channel of NOT_PRIVATE) {
      // Unsigned, as a public subscription is sent, and signed with the real secret: refused both ways.
      for (const frame of [{ event: 'pusher:subscribe', data: { channel } }, signedSubscribe(socketId, channel, secret)]) {
        client.send(frame);
        const refused = await client.next('pusher:subscription_error');
        expect(refused.channel, channel).toBe(channel);
        expect(refused.data, channel).toMatchObject({ type: 'AuthError', status: 403 });
        expect(client.frames.find((frame) => frame.event === 'pusher_internal:subscription_succeeded'), channel).toBeUndefined();
      }
      expect(ctx.realtime.server.subscriberCount(channel), channel).toBe(0);
      ctx.realtime.server.broadcast(channel, 'Hello', { on: channel });
    }
    // A round trip after the broadcasts: had any been delivered, it would have arrived first.
    client.send({ event: 'pusher:ping', data: {} });
    await client.next('pusher:pong');
    await pause(100);
    expect(client.frames.filter((frame) => frame.event === 'Hello')).toEqual([]);
    expect(client.closeCode).toBeNull();
    expect(ctx.realtime.server.subscriptions().filter((held) => held.socketId === socketId)).toEqual([]);

    // A private channel signed for this socket is still accepted on the same connection.
    client.send(signedSubscribe(socketId, 'private-room', secret));
    expect((await client.next('pusher_internal:subscription_succeeded')).channel).toBe('private-room');
  });
});
