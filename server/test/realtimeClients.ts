import { connect } from 'node:net';
import type Pusher from 'pusher-js';
import { WebSocket } from 'ws';
import { type Holder, holderChannelData } from '../src/realtime/protocol.js';
import { channelAuthSignature } from '../src/realtime/pusherServer.js';
import { eventually, REALTIME_APP_KEY } from './helpers.js';

// Clients of the realtime server (createTestContext({ realtime: … }) starts it): waiting for the
// real pusher-js client, and bare clients (WebSocket and TCP) for what the real client never sends.

export function connected(client: Pusher): Promise<string> {
  return new Promise((resolve, reject) => {
    if (client.connection.state === 'connected') return resolve(client.connection.socket_id);
    const timer = setTimeout(() => reject(new Error(`not connected: ${client.connection.state}`)), 5000);
    client.connection.bind('connected', () => {
      clearTimeout(timer);
      resolve(client.connection.socket_id);
    });
  });
}

export type SubscriptionOutcome = { ok: true } | { ok: false; status: number; type: string };

export function subscribeOutcome(client: Pusher, channelName: string): Promise<SubscriptionOutcome> {
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

export interface Frame {
  event: string;
  channel?: string;
  data: unknown;
}

/** A bare WebSocket speaking the protocol by hand, for what the real clients never send. */
export class RawClient {
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
    // A refused socket errors too; the close code is what the tests look at.
    socket.on('error', () => {});
  }
  private wake() {
    for (const waiter of this.waiters.splice(0)) waiter();
  }
  send(message: unknown) {
    this.socket.send(typeof message === 'string' || Buffer.isBuffer(message) ? message : JSON.stringify(message));
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
  closed(timeoutMs = 5000): Promise<number> {
    return eventually(() => this.closeCode ?? false, { timeoutMs, intervalMs: 20, what: 'the socket to close' });
  }
}

/**
 * A `pusher:subscribe` frame for a private channel, signed as POST /broadcasting/auth would
 * sign it (for a bare client on a server whose secret the test knows).
 */
export function signedSubscribe(socketId: string, channel: string, appSecret: string, holder: Holder = { userId: 1, tokenId: 1 }) {
  const channelData = holderChannelData(holder);
  return { event: 'pusher:subscribe', data: { channel, auth: channelAuthSignature(REALTIME_APP_KEY, appSecret, socketId, channel, channelData), channel_data: channelData } };
}

export async function rawClient(port: number, options: { path?: string; localAddress?: string } = {}): Promise<RawClient> {
  const socket = new WebSocket(`ws://127.0.0.1:${port}${options.path ?? `/app/${REALTIME_APP_KEY}?protocol=7&client=js&version=8.6.0`}`, {
    localAddress: options.localAddress,
  });
  const client = new RawClient(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return client;
}

export async function establishedRawClient(port: number, options: { localAddress?: string } = {}): Promise<{ client: RawClient; socketId: string }> {
  const client = await rawClient(port, options);
  const established = await client.next('pusher:connection_established');
  return { client, socketId: (established.data as { socket_id: string }).socket_id };
}

/**
 * Sends bytes over plain TCP and returns what the server wrote: the HTTP answer, and for an
 * accepted upgrade its first WebSocket frame too (or whatever came before the server closed,
 * or `timeoutMs` passed). For request lines and URLs no WebSocket client would send.
 */
export function rawExchange(port: number, request: string | Buffer, timeoutMs = 3000): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    let finished = false;
    const done = () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(Buffer.concat(chunks).toString('latin1'));
    };
    const timer = setTimeout(done, timeoutMs);
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      const text = Buffer.concat(chunks).toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      // Enough once something follows the headers: a refusal's body or an upgrade's first frame
      // (a refusal without a body ends the connection, which resolves too).
      if (end >= 0 && text.length > end + 4) done();
    });
    socket.on('end', done);
    socket.on('close', done);
    socket.on('error', done);
    socket.on('connect', () => socket.write(request));
  });
}

/** A WebSocket handshake request for `target`, with optional header replacements (null drops one). */
export function handshakeRequest(target: string, headers: Record<string, string | null> = {}, method = 'GET'): string {
  const all: Record<string, string | null> = {
    Host: '127.0.0.1',
    Upgrade: 'websocket',
    Connection: 'Upgrade',
    'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
    'Sec-WebSocket-Version': '13',
    ...headers,
  };
  const lines = Object.entries(all).flatMap(([name, value]) => (value === null ? [] : [`${name}: ${value}`]));
  return `${method} ${target} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`;
}

/** The HTTP status of a raw answer (101 for an accepted upgrade), or null when there was none. */
export const statusOf = (answer: string): number | null => {
  const match = /^HTTP\/1\.1 (\d{3})/.exec(answer);
  return match ? Number(match[1]) : null;
};
