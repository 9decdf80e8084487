import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { type RawData, WebSocket, WebSocketServer } from 'ws';

// A small Pusher protocol v7 server (what Laravel Reverb speaks), enough for pusher-js and
// laravel-echo: connection, ping/pong, subscribe/unsubscribe to public and private channels,
// and server-side broadcasts. Presence and encrypted channels are not offered, client events
// are refused, and every connection is held to a few limits. The WebSocket URL is
// ws://host:port/app/{key}?protocol=7.

/** Pusher error codes used here (https://pusher.com/docs/channels/library_auth_reference/pusher-websockets-protocol/). */
export const PusherErrorCode = {
  /** 4001: no application with this key. The client does not reconnect. */
  APP_NOT_FOUND: 4001,
  /** 4005: the path is not /app/{key}. */
  PATH_NOT_FOUND: 4005,
  /** 4007: a protocol version other than 7. */
  UNSUPPORTED_PROTOCOL: 4007,
  /** 4008: no protocol version. */
  NO_PROTOCOL: 4008,
  /** 4009: a message over the size limit (the connection is closed). */
  MESSAGE_TOO_LARGE: 4009,
  /** 4100: too many connections, or too many messages on this one; the client backs off. */
  OVER_CAPACITY: 4100,
  /** 4201: idle past the activity timeout and its grace; the client reconnects. */
  IDLE: 4201,
  /** 4301: client events are not allowed (the connection stays open). */
  CLIENT_EVENT_REFUSED: 4301,
} as const;

export interface RealtimeLimits {
  /** Largest accepted frame in bytes (10 KiB, as Pusher's message limit). */
  maxMessageBytes: number;
  /** Channels one connection may be subscribed to at once. */
  maxSubscriptionsPerConnection: number;
  /** Messages a connection may send in one second before it is closed. */
  maxMessagesPerSecond: number;
  /** Simultaneous connections for the whole server. */
  maxConnections: number;
  /** Longest channel name (Pusher allows 164 characters). */
  maxChannelNameLength: number;
}

export const DEFAULT_LIMITS: RealtimeLimits = {
  maxMessageBytes: 10 * 1024,
  maxSubscriptionsPerConnection: 100,
  maxMessagesPerSecond: 50,
  maxConnections: 10_000,
  maxChannelNameLength: 164,
};

export interface RealtimeServerOptions {
  port: number;
  host: string;
  appKey: string;
  appSecret: string;
  logger?: FastifyBaseLogger;
  /** Seconds of silence after which the client should ping (sent to it as activity_timeout). */
  activityTimeoutSeconds?: number;
  /** Seconds past the activity timeout before an idle connection is closed. */
  idleGraceSeconds?: number;
  limits?: Partial<RealtimeLimits>;
}

export interface RealtimeServer {
  /** The port actually listened on (useful with port 0). */
  readonly port: number;
  /** Sends an event to every subscriber of the channel; `data` travels as a JSON string, as Pusher does. */
  broadcast(channel: string, event: string, data: unknown): void;
  /** Called when a channel gets its first subscriber (e.g. to start a pod's log stream). */
  onFirstSubscribe(listener: (channel: string) => void): void;
  /** Called after every successful subscription, the first one included (after onFirstSubscribe). */
  onSubscribe(listener: (channel: string, socketId: string) => void): void;
  /** Called when a channel loses its last subscriber (also when the connection closes). */
  onLastUnsubscribe(listener: (channel: string) => void): void;
  /** Sends an event on a channel to one subscriber only (e.g. a log's recent lines to a late joiner). */
  sendToSocket(socketId: string, channel: string, event: string, data: unknown): void;
  /** Subscribers of a channel right now. */
  subscriberCount(channel: string): number;
  connectionCount(): number;
  /** Closes every connection (code 4200, "reconnect") and stops listening. */
  close(): Promise<void>;
}

/** The app secret of the realtime server: derived from APP_KEY, stable across restarts, never sent to clients. */
export function realtimeAppSecret(appKey: string): string {
  return createHmac('sha256', appKey).update('testbed-console realtime app secret v1').digest('hex');
}

/** The `auth` value Pusher expects for a private channel: `{key}:{hex HMAC-SHA256(secret, "socket_id:channel")}`. */
export function channelAuthSignature(appKey: string, appSecret: string, socketId: string, channel: string): string {
  return `${appKey}:${createHmac('sha256', appSecret).update(`${socketId}:${channel}`).digest('hex')}`;
}

export const SOCKET_ID_PATTERN = /^\d+\.\d+$/;
const CHANNEL_NAME_PATTERN = /^[A-Za-z0-9_\-=@,.;]+$/;

interface Connection {
  socket: WebSocket;
  socketId: string;
  channels: Set<string>;
  lastActivity: number;
  pinged: boolean;
  windowStart: number;
  messagesInWindow: number;
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export async function createRealtimeServer(options: RealtimeServerOptions): Promise<RealtimeServer> {
  const limits: RealtimeLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const activityTimeout = options.activityTimeoutSeconds ?? 30;
  const grace = options.idleGraceSeconds ?? 30;
  const log = options.logger;
  const connections = new Set<Connection>();
  const channels = new Map<string, Set<Connection>>();
  const firstListeners: ((channel: string) => void)[] = [];
  const lastListeners: ((channel: string) => void)[] = [];
  const subscribeListeners: ((channel: string, socketId: string) => void)[] = [];
  const bySocketId = new Map<string, Connection>();

  const notify = (listeners: ((channel: string) => void)[], channel: string) => {
    for (const listener of listeners) {
      try {
        listener(channel);
      } catch (error) {
        log?.error({ err: error, channel }, 'realtime channel hook failed');
      }
    }
  };

  const send = (connection: Connection, event: string, data: unknown, channel?: string) => {
    if (connection.socket.readyState !== WebSocket.OPEN) return;
    const message: Record<string, unknown> = { event, data: typeof data === 'string' ? data : JSON.stringify(data) };
    if (channel !== undefined) message.channel = channel;
    connection.socket.send(JSON.stringify(message));
  };

  const sendError = (socket: WebSocket, code: number | null, message: string) => {
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ event: 'pusher:error', data: JSON.stringify({ code, message }) }));
  };

  /** Sends pusher:error then closes with the same code. */
  const refuse = (socket: WebSocket, code: number, message: string) => {
    sendError(socket, code, message);
    socket.close(code, message.slice(0, 120));
  };

  const leave = (connection: Connection, channel: string) => {
    if (!connection.channels.delete(channel)) return;
    const subscribers = channels.get(channel);
    if (!subscribers) return;
    subscribers.delete(connection);
    if (subscribers.size === 0) {
      channels.delete(channel);
      notify(lastListeners, channel);
    }
  };

  const subscriptionError = (connection: Connection, channel: string, type: string, error: string, status: number) =>
    send(connection, 'pusher:subscription_error', { type, error, status }, channel);

  const subscribe = (connection: Connection, data: Record<string, unknown>) => {
    const channel = data.channel;
    if (typeof channel !== 'string' || channel.length === 0 || channel.length > limits.maxChannelNameLength || !CHANNEL_NAME_PATTERN.test(channel)) {
      sendError(connection.socket, null, 'Invalid channel name.');
      return;
    }
    if (connection.channels.has(channel)) {
      // Already subscribed: confirm again, as Pusher does, without a second membership.
      send(connection, 'pusher_internal:subscription_succeeded', {}, channel);
      return;
    }
    if (channel.startsWith('presence-') || channel.startsWith('private-encrypted-')) {
      subscriptionError(connection, channel, 'AuthError', 'Presence and encrypted channels are not offered by this server.', 403);
      return;
    }
    if (channel.startsWith('private-')) {
      const auth = typeof data.auth === 'string' ? data.auth : '';
      const expected = channelAuthSignature(options.appKey, options.appSecret, connection.socketId, channel);
      if (!safeEqual(auth, expected)) {
        subscriptionError(connection, channel, 'AuthError', 'Invalid signature.', 403);
        return;
      }
    }
    if (connection.channels.size >= limits.maxSubscriptionsPerConnection) {
      subscriptionError(connection, channel, 'LimitReached', `At most ${limits.maxSubscriptionsPerConnection} channels per connection.`, 429);
      return;
    }
    connection.channels.add(channel);
    let subscribers = channels.get(channel);
    const first = !subscribers;
    if (!subscribers) {
      subscribers = new Set();
      channels.set(channel, subscribers);
    }
    subscribers.add(connection);
    send(connection, 'pusher_internal:subscription_succeeded', {}, channel);
    if (first) notify(firstListeners, channel);
    for (const listener of subscribeListeners) {
      try {
        listener(channel, connection.socketId);
      } catch (error) {
        log?.error({ err: error, channel }, 'realtime subscribe hook failed');
      }
    }
  };

  const handleMessage = (connection: Connection, raw: RawData, isBinary: boolean) => {
    const now = Date.now();
    connection.lastActivity = now;
    connection.pinged = false;
    if (now - connection.windowStart >= 1000) {
      connection.windowStart = now;
      connection.messagesInWindow = 0;
    }
    if (++connection.messagesInWindow > limits.maxMessagesPerSecond) {
      refuse(connection.socket, PusherErrorCode.OVER_CAPACITY, 'Too many messages.');
      return;
    }
    const bytes = Array.isArray(raw) ? Buffer.concat(raw) : Buffer.isBuffer(raw) ? raw : Buffer.from(raw);
    if (bytes.length > limits.maxMessageBytes) {
      refuse(connection.socket, PusherErrorCode.MESSAGE_TOO_LARGE, `Messages are limited to ${limits.maxMessageBytes} bytes.`);
      return;
    }
    if (isBinary) {
      sendError(connection.socket, null, 'Binary messages are not accepted.');
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(bytes.toString('utf8'));
    } catch {
      sendError(connection.socket, null, 'Invalid message format.');
      return;
    }
    if (typeof message !== 'object' || message === null || typeof (message as { event?: unknown }).event !== 'string') {
      sendError(connection.socket, null, 'Invalid message format.');
      return;
    }
    const { event } = message as { event: string };
    let data = (message as { data?: unknown }).data;
    if (typeof data === 'string') {
      try {
        data = JSON.parse(data);
      } catch {
        // A plain string payload: left as is.
      }
    }
    const payload = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
    switch (event) {
      case 'pusher:ping':
        send(connection, 'pusher:pong', {});
        return;
      case 'pusher:pong':
        return;
      case 'pusher:subscribe':
        subscribe(connection, payload);
        return;
      case 'pusher:unsubscribe':
        if (typeof payload.channel === 'string') leave(connection, payload.channel);
        return;
      default:
        if (event.startsWith('client-')) {
          sendError(connection.socket, PusherErrorCode.CLIENT_EVENT_REFUSED, 'Client events are not allowed.');
        } else {
          sendError(connection.socket, null, `Unknown event ${JSON.stringify(event.slice(0, 64))}.`);
        }
    }
  };

  const server: Server = createServer((_request, response) => {
    response.writeHead(426, { 'content-type': 'text/plain', connection: 'close' });
    response.end('This is the realtime WebSocket server: connect to /app/{key}.\n');
  });
  // The hard ceiling of a frame; anything between maxMessageBytes and this gets a Pusher error.
  const wss = new WebSocketServer({ noServer: true, maxPayload: Math.max(limits.maxMessageBytes * 4, 64 * 1024) });

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    wss.handleUpgrade(request, socket, head, (ws) => accept(ws, request));
  });

  const accept = (socket: WebSocket, request: IncomingMessage) => {
    socket.on('error', (error) => log?.debug({ err: error }, 'realtime socket error'));
    const url = new URL(request.url ?? '/', 'http://realtime.invalid');
    const match = /^\/app\/([^/]+)$/.exec(url.pathname);
    if (!match) return refuse(socket, PusherErrorCode.PATH_NOT_FOUND, 'Connect to /app/{key}.');
    if (!safeEqual(decodeURIComponent(match[1]), options.appKey)) return refuse(socket, PusherErrorCode.APP_NOT_FOUND, 'Application does not exist.');
    const protocol = url.searchParams.get('protocol');
    if (protocol === null) return refuse(socket, PusherErrorCode.NO_PROTOCOL, 'No protocol version given.');
    if (protocol !== '7') return refuse(socket, PusherErrorCode.UNSUPPORTED_PROTOCOL, 'Only protocol version 7 is supported.');
    if (connections.size >= limits.maxConnections) return refuse(socket, PusherErrorCode.OVER_CAPACITY, 'Over capacity.');

    const now = Date.now();
    const connection: Connection = {
      socket,
      socketId: `${randomInt(1, 2 ** 40)}.${randomInt(1, 2 ** 40)}`,
      channels: new Set(),
      lastActivity: now,
      pinged: false,
      windowStart: now,
      messagesInWindow: 0,
    };
    connections.add(connection);
    bySocketId.set(connection.socketId, connection);
    socket.on('message', (raw, isBinary) => {
      try {
        handleMessage(connection, raw, isBinary);
      } catch (error) {
        log?.error({ err: error }, 'realtime message failed');
        sendError(socket, null, 'Server error.');
      }
    });
    socket.on('pong', () => {
      connection.lastActivity = Date.now();
    });
    socket.on('close', () => {
      connections.delete(connection);
      bySocketId.delete(connection.socketId);
      for (const channel of [...connection.channels]) leave(connection, channel);
    });
    send(connection, 'pusher:connection_established', { socket_id: connection.socketId, activity_timeout: activityTimeout });
  };

  // Idle connections: a Pusher ping after the activity timeout, closed once the grace is over.
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const connection of connections) {
        const idle = now - connection.lastActivity;
        if (idle > (activityTimeout + grace) * 1000) {
          refuse(connection.socket, PusherErrorCode.IDLE, 'Pong reply not received.');
        } else if (idle > activityTimeout * 1000 && !connection.pinged) {
          connection.pinged = true;
          send(connection, 'pusher:ping', {});
        }
      }
    },
    Math.min(1000, activityTimeout * 250),
  );
  sweep.unref();

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  return {
    port,
    broadcast(channel, event, data) {
      const subscribers = channels.get(channel);
      if (!subscribers || subscribers.size === 0) return;
      const frame = JSON.stringify({ event, channel, data: typeof data === 'string' ? data : JSON.stringify(data) });
      for (const connection of subscribers) {
        if (connection.socket.readyState === WebSocket.OPEN) connection.socket.send(frame);
      }
    },
    onFirstSubscribe: (listener) => void firstListeners.push(listener),
    onSubscribe: (listener) => void subscribeListeners.push(listener),
    onLastUnsubscribe: (listener) => void lastListeners.push(listener),
    sendToSocket(socketId, channel, event, data) {
      const connection = bySocketId.get(socketId);
      if (connection?.channels.has(channel)) send(connection, event, data, channel);
    },
    subscriberCount: (channel) => channels.get(channel)?.size ?? 0,
    connectionCount: () => connections.size,
    async close() {
      clearInterval(sweep);
      for (const connection of connections) {
        sendError(connection.socket, 4200, 'Server is restarting.');
        connection.socket.close(4200, 'Server is restarting.');
      }
      const closing = new Promise<void>((resolve) => server.close(() => resolve()));
      // Sockets that do not finish the closing handshake promptly are cut.
      setTimeout(() => {
        for (const connection of connections) connection.socket.terminate();
      }, 1000).unref();
      await closing;
      wss.close();
    },
  };
}
