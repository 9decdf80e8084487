import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { realtimeAppSecret } from '../src/realtime/pusherServer.js';
import { createTestContext, type TestContext } from './helpers.js';
import { connected, establishedRawClient, type RawClient, type RealtimeRig, signedSubscribe, startRealtimeRig, subscribeOutcome } from './realtimeClients.js';
import { createWorld, type World } from './teamFixtures.js';

// The realtime server offers private channels only: every subscription is signed for a holder
// whose right can be checked and can end. A subscription to any other channel (public, presence,
// encrypted) gets pusher:subscription_error and hears nothing of what is broadcast there.

let ctx: TestContext;
let rig: RealtimeRig;
let world: World;
const raws: RawClient[] = [];
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  ctx = await createTestContext();
  rig = await startRealtimeRig(ctx);
  world = await createWorld(ctx);
});

afterEach(() => {
  for (const raw of raws.splice(0)) raw.socket.terminate();
});

afterAll(async () => {
  await rig?.close();
  await ctx?.close();
});

/** Channels that are not private: each is refused, however its subscription is signed. */
const NOT_PRIVATE = ['public-room', 'room', 'App.User.1', 'workspace.1', 'pod-logs.1.web', 'Private-App.User.1', 'privateroom', 'presence-room', 'private-encrypted-room'];

describe('subscriptions to channels that are not private', () => {
  it('pusher-js: a public channel gets pusher:subscription_error (AuthError 403) and hears no broadcast', async () => {
    const client = rig.pusher(world.people.owner.token);
    await connected(client);
    expect(await subscribeOutcome(client, 'public-room')).toEqual({ ok: false, status: 403, type: 'AuthError' });
    const heard: unknown[] = [];
    client.channel('public-room').bind('Hello', (data: unknown) => heard.push(data));
    rig.realtime.broadcast('public-room', 'Hello', { to: 'everybody' });
    // Its own channel on the same connection still works, and hears what is sent after.
    const own = `private-App.User.${world.people.owner.user.id}`;
    expect(await subscribeOutcome(client, own)).toEqual({ ok: true });
    const ownHeard = new Promise<unknown>((resolve) => client.channel(own).bind('Hello', resolve));
    rig.realtime.broadcast(own, 'Hello', { to: 'owner' });
    expect(await ownHeard).toEqual({ to: 'owner' });
    expect(heard).toEqual([]);
    expect(rig.realtime.subscriberCount('public-room')).toBe(0);
  });

  it('a raw client: each such channel is refused, the connection stays, nothing is delivered on it', async () => {
    const { client, socketId } = await establishedRawClient(rig.realtime.port);
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
      expect(rig.realtime.subscriberCount(channel), channel).toBe(0);
      rig.realtime.broadcast(channel, 'Hello', { on: channel });
    }
    // A round trip after the broadcasts: had any been delivered, it would have arrived first.
    client.send({ event: 'pusher:ping', data: {} });
    await client.next('pusher:pong');
    await pause(100);
    expect(client.frames.filter((frame) => frame.event === 'Hello')).toEqual([]);
    expect(client.closeCode).toBeNull();
    expect(rig.realtime.subscriptions().filter((held) => held.socketId === socketId)).toEqual([]);

    // A private channel signed for this socket is still accepted on the same connection.
    client.send(signedSubscribe(socketId, 'private-room', secret));
    expect((await client.next('pusher_internal:subscription_succeeded')).channel).toBe('private-room');
  });
});
