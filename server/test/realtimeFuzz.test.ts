import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PusherErrorCode } from '../src/realtime/pusherServer.js';
import { createTestContext, eventually, pause, REALTIME_APP_KEY, type SignedInUser, type TestContext } from './helpers.js';
import { connected, establishedRawClient, handshakeRequest, rawClient, type RawClient, rawExchange, statusOf, subscribeOutcome } from './realtimeClients.js';

// A guard: nothing a client sends, before or after the WebSocket upgrade, may take the
// realtime server (and with it the whole process) down or leave it unable to serve. Each
// malformed handshake gets an HTTP refusal, each malformed frame a Pusher error or close code,
// and afterwards a real pusher-js client still connects, subscribes and hears a broadcast.

let ctx: TestContext;
let person: SignedInUser;

beforeAll(async () => {
  ctx = await createTestContext({ realtime: true });
  person = await ctx.signedInUser();
});

afterAll(async () => {
  await ctx?.close();
});

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
  const text = (alphabet: readonly string[], max: number) => Array.from({ length: 1 + Math.floor(next() * max) }, () => pick(alphabet)).join('');
  return { next, pick, text };
}

const fuzzClients: RawClient[] = [];
afterEach(() => {
  for (const client of fuzzClients.splice(0)) client.socket.terminate();
});

/** An established bare connection, cut after the test whatever happens. */
async function fuzzClient(): Promise<RawClient> {
  const { client } = await establishedRawClient(ctx.realtime.server.port);
  fuzzClients.push(client);
  return client;
}


/** In groups, so that the fuzz does not trip the per-address limit it is not testing. */
async function inGroups<T, R>(items: T[], size: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += size) results.push(...(await Promise.all(items.slice(start, start + size).map(run))));
  return results;
}

async function serverStillServes() {
  await eventually(() => ctx.realtime.server.connectionCount() === 0, { what: 'fuzz connections gone', timeoutMs: 10_000 });
  const client = ctx.realtime.pusher(person.token);
  await connected(client);
  const channel = `private-App.User.${person.user.id}`;
  expect(await subscribeOutcome(client, channel)).toEqual({ ok: true });
  const heard = new Promise<unknown>((resolve) => client.channel(channel).bind('Hello', resolve));
  ctx.realtime.server.broadcast(channel, 'Hello', { after: 'fuzz' });
  expect(await heard).toEqual({ after: 'fuzz' });
  client.disconnect();
}

describe('handshakes', () => {
  it('refuses malformed request targets with HTTP 400 before the upgrade', async () => {
    const targets = [
      '/app/%ZZ?protocol=7',
      `/app/%E0%A4%A?protocol=7`,
      '/app/%?protocol=7',
      '//[',
      '//[/app/testbed?protocol=7',
      'http://[/app/x',
      `http://127.0.0.1/app/${REALTIME_APP_KEY}?protocol=7`,
      '//:99999/app/x',
      '*',
      'app/testbed',
      `//app/${REALTIME_APP_KEY}?protocol=7`,
      `/app/${REALTIME_APP_KEY}?protocol=7#fragment`,
      `/app/${REALTIME_APP_KEY}?protocol=7&x="quoted"`,
      `/app/${REALTIME_APP_KEY}?protocol=%ZZ`,
    ];
    for (const target of targets) {
      const answer = await rawExchange(ctx.realtime.server.port, handshakeRequest(target));
      expect(statusOf(answer), target).toBe(400);
    }
  });

  it('refuses malformed handshakes (headers, methods, request lines) with an HTTP error', async () => {
    const path = `/app/${REALTIME_APP_KEY}?protocol=7`;
    const requests: [string, string][] = [
      ['no key', handshakeRequest(path, { 'Sec-WebSocket-Key': null })],
      ['bad key', handshakeRequest(path, { 'Sec-WebSocket-Key': 'short' })],
      ['version 7', handshakeRequest(path, { 'Sec-WebSocket-Version': '7' })],
      ['version junk', handshakeRequest(path, { 'Sec-WebSocket-Version': '13, 8, ☃' })],
      ['upgrade junk', handshakeRequest(path, { Upgrade: 'h2c' })],
      ['POST', handshakeRequest(path, {}, 'POST')],
      ['bad protocol header', handshakeRequest(path, { 'Sec-WebSocket-Protocol': ',,,' })],
      ['garbage line', 'GARBAGE\r\n\r\n'],
      ['bad header name', `GET ${path} HTTP/1.1\r\nHo st: x\r\n\r\n`],
      ['NUL in target', handshakeRequest(`/app/${REALTIME_APP_KEY}\u0000?protocol=7`)],
      ['huge target', handshakeRequest(`/app/${'x'.repeat(20_000)}?protocol=7`)],
      ['HTTP/0.9', `GET ${path}\r\n\r\n`],
    ];
    for (const [what, request] of requests) {
      const status = statusOf(await rawExchange(ctx.realtime.server.port, request));
      expect(status, what).toBeGreaterThanOrEqual(400);
      expect(status, what).toBeLessThan(500);
    }
  });

  it('answers bad app keys, paths and versions with the Pusher error after the upgrade', async () => {
    const cases: [string, number][] = [
      [`/app/${encodeURIComponent('not the key')}?protocol=7`, PusherErrorCode.APP_NOT_FOUND],
      [`/app/${REALTIME_APP_KEY}%00?protocol=7`, PusherErrorCode.APP_NOT_FOUND],
      [`/app/${REALTIME_APP_KEY}/extra?protocol=7`, PusherErrorCode.PATH_NOT_FOUND],
      ['/', PusherErrorCode.PATH_NOT_FOUND],
      [`/app/${REALTIME_APP_KEY}?protocol=7.0`, PusherErrorCode.UNSUPPORTED_PROTOCOL],
      [`/app/${REALTIME_APP_KEY}?protocol=`, PusherErrorCode.UNSUPPORTED_PROTOCOL],
      [`/app/${REALTIME_APP_KEY}?version=7`, PusherErrorCode.NO_PROTOCOL],
    ];
    for (const [path, code] of cases) {
      const client = await rawClient(ctx.realtime.server.port, { path });
      expect((await client.next('pusher:error')).data, path).toMatchObject({ code });
      expect(await client.closed(), path).toBe(code);
    }
  });

  it('survives a few hundred random request targets, each answered with 400 or an upgrade', async () => {
    const rng = random(11);
    const alphabet = ['/', '%', '[', ']', ':', '@', '?', '#', '=', '&', '.', '\\', 'a', 'p', '7', 'Z', '%2F', '%ZZ', '%E0', '//', 'ÿ', '~', '+'];
    const targets = Array.from({ length: 300 }, (_, index) => (index % 3 === 0 ? `/app/${rng.text(alphabet, 12)}?protocol=7` : rng.text(alphabet, 24)));
    const statuses = await inGroups(targets, 20, async (target) => statusOf(await rawExchange(ctx.realtime.server.port, handshakeRequest(target))));
    statuses.forEach((status, index) => expect([101, 400], JSON.stringify(targets[index])).toContain(status));
  });
});

describe('frames', () => {
  it('answers malformed frames with pusher:error and keeps the connection', async () => {
    const channel = `private-App.User.${person.user.id}`;
    const frames: (string | Buffer)[] = [
      '{not json',
      '',
      'null',
      '42',
      '"pusher:ping"',
      '[]',
      '[{"event":"pusher:ping"}]',
      '{}',
      '{"event":5}',
      '{"event":null,"data":{}}',
      '{"event":"pusher:nonsense","data":{}}',
      '{"event":"nonsense"}',
      '{"event":"client-hello","channel":"x","data":{}}',
      '{"event":"pusher:subscribe","data":"not json"}',
      '{"event":"pusher:subscribe","data":[1,2]}',
      '{"event":"pusher:subscribe","data":{"channel":123}}',
      '{"event":"pusher:subscribe","data":{"channel":""}}',
      '{"event":"pusher:subscribe","data":{"channel":"bad channel!"}}',
      `{"event":"pusher:subscribe","data":{"channel":"${'a'.repeat(200)}"}}`,
      '{"event":"pusher:subscribe","data":{"__proto__":{"channel":"polluted"}}}',
    ];
    // Ignored, as Pusher does: nothing to leave.
    const ignored = ['{"event":"pusher:unsubscribe","data":{"channel":{"x":1}}}', '{"event":"pusher:unsubscribe","data":{"channel":"never-subscribed"}}'];
    // Malformed subscriptions to a private channel: refused with subscription_error.
    const badAuths = [
      { channel },
      { channel, auth: 42 },
      { channel, auth: { key: REALTIME_APP_KEY } },
      { channel, auth: `${REALTIME_APP_KEY}:${'0'.repeat(64)}` },
      { channel, auth: `${REALTIME_APP_KEY}:${'0'.repeat(64)}`, channel_data: '{"user_id":1,"token_id":1}' },
      { channel, auth: 'x', channel_data: 'not json' },
      { channel, auth: 'x', channel_data: 7 },
      { channel: 'presence-room', auth: 'x' },
      { channel: 'private-encrypted-room', auth: 'x' },
    ];
    const client = await fuzzClient();
    for (const frame of frames) {
      client.send(frame);
      expect((await client.next('pusher:error')).data, String(frame)).toMatchObject({ code: frame.includes('client-') ? PusherErrorCode.CLIENT_EVENT_REFUSED : null });
      await pause(25);
    }
    for (const frame of ignored) client.send(frame);
    client.socket.send(Buffer.from([0, 1, 2, 255]), { binary: true });
    expect((await client.next('pusher:error')).data).toMatchObject({ message: 'Binary messages are not accepted.' });
    for (const data of badAuths) {
      client.send({ event: 'pusher:subscribe', data });
      expect((await client.next('pusher:subscription_error')).data).toMatchObject({ status: 403 });
      await pause(25);
    }
    client.send({ event: 'pusher:ping', data: {} });
    await client.next('pusher:pong');
    expect(client.closeCode).toBeNull();
    expect(ctx.realtime.server.subscriberCount('polluted')).toBe(0);
    expect(ctx.realtime.server.subscriberCount(channel)).toBe(0);
  });

  it('closes connections that send oversized frames, invalid UTF-8 or floods of subscribe', async () => {
    const oversized = { client: await fuzzClient() };
    oversized.client.send({ event: 'pusher:subscribe', data: { channel: 'room', padding: 'x'.repeat(11 * 1024) } });
    expect(await oversized.client.closed()).toBe(PusherErrorCode.MESSAGE_TOO_LARGE);

    // Past ws's own ceiling: closed by ws (1009) before the server reads it.
    const huge = { client: await fuzzClient() };
    huge.client.send('x'.repeat(200 * 1024));
    expect(await huge.client.closed()).toBe(1009);

    const invalidUtf8 = { client: await fuzzClient() };
    invalidUtf8.client.socket.send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), { binary: false });
    expect(await invalidUtf8.client.closed()).toBe(1007);

    const flood = { client: await fuzzClient() };
    for (let i = 0; i < 200; i++) flood.client.send({ event: 'pusher:subscribe', data: { channel: `flood-${i}` } });
    expect(await flood.client.closed()).toBe(PusherErrorCode.OVER_CAPACITY);
    await eventually(() => ctx.realtime.server.subscriberCount('flood-0') === 0, { what: 'flood subscriptions gone' });
  });

  it('survives random frames, then still serves a real pusher-js client', async () => {
    const rng = random(7);
    const pieces = ['{', '}', '[', ']', '"event"', '"data"', '"channel"', ':', ',', '"pusher:subscribe"', '"pusher:ping"', '"private-x"', 'null', '1e999', '"\\u0000"', '"\\ud800"', 'true', '"auth"', '"channel_data"'];
    const frames = Array.from({ length: 150 }, () => rng.text(pieces, 16));
    for (let start = 0; start < frames.length; start += 30) {
      const client = await fuzzClient();
      for (const frame of frames.slice(start, start + 30)) {
        client.send(frame);
        await pause(25);
      }
      client.send({ event: 'pusher:ping', data: {} });
      await client.next('pusher:pong');
      client.socket.close();
    }
    await serverStillServes();
  });
});
