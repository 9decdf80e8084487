import { randomInt } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import { readFrame } from './frames.js';
import { handleUpgrades } from './handshake.js';
import { AddressCounter, DEFAULT_LIMITS, MessageRate, type RealtimeLimits } from './limits.js';
import { type HeldSubscription, SubscriptionRegistry } from './subscriptions.js';
import {
  CHANNEL_NAME_PATTERN,
  channelAuthSignature,
  type Handshake,
  type Holder,
  parseHolder,
  PusherErrorCode,
  SUBSCRIPTION_ENDED_EVENT,
  type SubscriptionEnd,
  safeEqual,
} from './protocol.js';

// A small Pusher protocol v7 server (what Laravel Reverb speaks), enough for pusher-js and
// laravel-echo: connection, ping/pong, subscribe/unsubscribe to private channels, and server-side
// broadcasts. Public, presence and encrypted channels are not offered (their subscriptions get
// pusher:subscription_error, AuthError 403), client events are refused, and every connection is
// held to a few limits (limits.ts). The WebSocket URL is ws://host:port/app/{key}?protocol=7. Every
// private subscription names its holder (user and token, signed by POST /broadcasting/auth), so
// that it can be ended when their right ends.

export { DEFAULT_LIMITS, type RealtimeLimits } from './limits.js';
export { channelAuthSignature, PusherErrorCode, realtimeAppSecret, SOCKET_ID_PATTERN } from './protocol.js';
export type { HeldSubscription } from './subscriptions.js';

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
  /**
   * The client's address, which the per-address connection limit keys on (default: the
   * socket's remote address). Behind a trusted proxy, pass one that reads its forwarding header.
   */
  clientAddress?: (request: IncomingMessage) => string;
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
  /** Called when a channel loses its last subscriber (also when the connection closes, or the subscription is ended). */
  onLastUnsubscribe(listener: (channel: string) => void): void;
  /** Sends an event on a channel to one subscriber only (e.g. a log's recent lines to a late joiner). */
  sendToSocket(socketId: string, channel: string, event: string, data: unknown): void;
  /** The private subscriptions held by these users (by everybody without `userIds`). */
  subscriptions(userIds?: Iterable<number>): HeldSubscription[];
  /** Ends one subscription: the subscriber gets SubscriptionEnded on the channel, then is no longer subscribed. */
  endSubscription(socketId: string, channel: string, end: SubscriptionEnd): boolean;
  /** A right of these users may have ended: the rights listeners re-check their subscriptions. */
  rightsChanged(userIds: number[]): void;
  /** Who re-checks (realtime/rights.ts). Also called for a user who subscribes shortly after a change of their rights. */
  onRightsChanged(listener: (userIds: number[]) => void): void;
  /** Subscribers of a channel right now. */
  subscriberCount(channel: string): number;
  connectionCount(): number;
  /** Closes every connection (code 4200, "reconnect") and stops listening. */
  close(): Promise<void>;
}

interface Connection {
  socket: WebSocket;
  socketId: string;
  address: string;
  /** Channel → the holder of the subscription (private channels only: each has one). */
  channels: Map<string, Holder>;
  lastActivity: number;
  pinged: boolean;
  rate: MessageRate;
  /** Since when the connection has had no subscription (null while it has one). */
  unusedSince: number | null;
}

/**
 * A subscription signed before a change of the user's rights may be used after the re-check
 * that followed it; subscriptions this soon after a change are checked once more.
 */
const RECENT_CHANGE_MS = 5 * 60_000;

export async function createRealtimeServer(options: RealtimeServerOptions): Promise<RealtimeServer> {
  const limits: RealtimeLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const activityTimeout = options.activityTimeoutSeconds ?? 30;
  const grace = options.idleGraceSeconds ?? 30;
  const log = options.logger;
  const connections = new Set<Connection>();
  const registry = new SubscriptionRegistry<Connection>();
  const bySocketId = new Map<string, Connection>();
  const perAddress = new AddressCounter();
  const recentChanges = new Map<number, number>();
  const firstListeners: ((channel: string) => void)[] = [];
  const lastListeners: ((channel: string) => void)[] = [];
  const subscribeListeners: ((channel: string, socketId: string) => void)[] = [];
  const rightsListeners: ((userIds: number[]) => void)[] = [];

  /** Hooks are other modules' code: one that throws is logged and never reaches the socket. */
  const notify = <A extends unknown[]>(listeners: ((...args: A) => void)[], ...args: A) => {
    for (const listener of listeners) {
      try {
        listener(...args);
      } catch (error) {
        log?.error({ err: error, args }, 'realtime hook failed');
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
    if (!connection.channels.has(channel)) return;
    const last = registry.remove(connection, channel);
    if (connection.channels.size === 0) connection.unusedSince = Date.now();
    if (last) notify(lastListeners, channel);
  };

  const subscriptionError = (connection: Connection, channel: string, type: string, error: string, status: number) =>
    send(connection, 'pusher:subscription_error', { type, error, status }, channel);

  /** The holder of a private subscription when its signature is right, else null. */
  const verifiedHolder = (connection: Connection, channel: string, data: Record<string, unknown>): Holder | null => {
    const auth = typeof data.auth === 'string' ? data.auth : '';
    const channelData = typeof data.channel_data === 'string' ? data.channel_data : null;
    if (channelData === null) return null;
    const expected = channelAuthSignature(options.appKey, options.appSecret, connection.socketId, channel, channelData);
    return safeEqual(auth, expected) ? parseHolder(channelData) : null;
  };

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
    // Private channels only: every subscription has a holder whose right can end. A public
    // channel would be one anybody with the app key may listen on, signed by nobody.
    if (!channel.startsWith('private-') || channel.startsWith('private-encrypted-')) {
      subscriptionError(connection, channel, 'AuthError', 'Only private channels are offered by this server.', 403);
      return;
    }
    // The signature covers channel_data ({user_id, token_id}), so the holder is known
    // without asking anybody (several replicas need no shared state for it).
    const holder = verifiedHolder(connection, channel, data);
    if (!holder) {
      subscriptionError(connection, channel, 'AuthError', 'Invalid signature.', 403);
      return;
    }
    if (connection.channels.size >= limits.maxSubscriptionsPerConnection) {
      subscriptionError(connection, channel, 'LimitReached', `At most ${limits.maxSubscriptionsPerConnection} channels per connection.`, 429);
      return;
    }
    const first = registry.add(connection, channel, holder);
    connection.unusedSince = null;
    send(connection, 'pusher_internal:subscription_succeeded', {}, channel);
    if (first) notify(firstListeners, channel);
    notify(subscribeListeners, channel, connection.socketId);
    // Signed before a recent change of the user's rights? Checked once more.
    const changed = recentChanges.get(holder.userId);
    if (changed !== undefined && Date.now() - changed < RECENT_CHANGE_MS) notify(rightsListeners, [holder.userId]);
  };

  const handleMessage = (connection: Connection, raw: RawData, isBinary: boolean) => {
    const now = Date.now();
    connection.lastActivity = now;
    connection.pinged = false;
    if (connection.rate.exceeded(now)) {
      refuse(connection.socket, PusherErrorCode.OVER_CAPACITY, 'Too many messages.');
      return;
    }
    const frame = readFrame(raw, isBinary, limits.maxMessageBytes, PusherErrorCode.MESSAGE_TOO_LARGE);
    if (!frame.ok) {
      if (frame.close && frame.code !== null) refuse(connection.socket, frame.code, frame.message);
      else sendError(connection.socket, frame.code, frame.message);
      return;
    }
    const { event, payload } = frame.message;
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

  handleUpgrades(server, wss, (ws, request, handshake) => accept(ws, request, handshake), log);

  const addressOf = (request: IncomingMessage): string => {
    try {
      if (options.clientAddress) return options.clientAddress(request);
    } catch (error) {
      log?.warn({ err: error }, 'realtime clientAddress failed; using the socket address');
    }
    return request.socket.remoteAddress ?? 'unknown';
  };

  const accept = (socket: WebSocket, request: IncomingMessage, handshake: Handshake) => {
    socket.on('error', (error) => log?.debug({ err: error }, 'realtime socket error'));
    if (handshake.key === null) return refuse(socket, PusherErrorCode.PATH_NOT_FOUND, 'Connect to /app/{key}.');
    if (!safeEqual(handshake.key, options.appKey)) return refuse(socket, PusherErrorCode.APP_NOT_FOUND, 'Application does not exist.');
    if (handshake.protocol === null) return refuse(socket, PusherErrorCode.NO_PROTOCOL, 'No protocol version given.');
    if (handshake.protocol !== '7') return refuse(socket, PusherErrorCode.UNSUPPORTED_PROTOCOL, 'Only protocol version 7 is supported.');
    const address = addressOf(request);
    if (perAddress.count(address) >= limits.maxConnectionsPerAddress) {
      return refuse(socket, PusherErrorCode.OVER_CAPACITY, 'Too many connections from this address.');
    }
    if (connections.size >= limits.maxConnections) return refuse(socket, PusherErrorCode.OVER_CAPACITY, 'Over capacity.');

    const now = Date.now();
    const connection: Connection = {
      socket,
      socketId: `${randomInt(1, 2 ** 40)}.${randomInt(1, 2 ** 40)}`,
      address,
      channels: new Map(),
      lastActivity: now,
      pinged: false,
      rate: new MessageRate(limits.maxMessagesPerSecond),
      unusedSince: now,
    };
    connections.add(connection);
    perAddress.add(address);
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
      perAddress.remove(address);
      bySocketId.delete(connection.socketId);
      for (const channel of [...connection.channels.keys()]) leave(connection, channel);
    });
    send(connection, 'pusher:connection_established', { socket_id: connection.socketId, activity_timeout: activityTimeout });
  };

  // Idle connections: a Pusher ping after the activity timeout, closed once the grace is over.
  // Connections subscribed to nothing for a whole activity timeout are closed: they only hold a slot.
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [userId, changed] of recentChanges) if (now - changed >= RECENT_CHANGE_MS) recentChanges.delete(userId);
      for (const connection of connections) {
        const idle = now - connection.lastActivity;
        if (idle > (activityTimeout + grace) * 1000) {
          refuse(connection.socket, PusherErrorCode.IDLE, 'Pong reply not received.');
        } else if (connection.unusedSince !== null && now - connection.unusedSince > activityTimeout * 1000) {
          refuse(connection.socket, PusherErrorCode.UNUSED, 'Closed after inactivity: no channel subscribed.');
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
  server.on('error', (error) => log?.error({ err: error }, 'realtime server error'));
  const port = (server.address() as AddressInfo).port;

  return {
    port,
    broadcast(channel, event, data) {
      const subscribers = registry.subscribers(channel);
      if (!subscribers || subscribers.size === 0) return;
      const frame = JSON.stringify({ event, channel, data: typeof data === 'string' ? data : JSON.stringify(data) });
      for (const connection of subscribers) {
        if (connection.socket.readyState === WebSocket.OPEN) connection.socket.send(frame);
      }
    },
    onFirstSubscribe: (listener) => void firstListeners.push(listener),
    onSubscribe: (listener) => void subscribeListeners.push(listener),
    onLastUnsubscribe: (listener) => void lastListeners.push(listener),
    onRightsChanged: (listener) => void rightsListeners.push(listener),
    sendToSocket(socketId, channel, event, data) {
      const connection = bySocketId.get(socketId);
      if (connection?.channels.has(channel)) send(connection, event, data, channel);
    },
    subscriptions: (userIds) => registry.held(connections, userIds),
    endSubscription(socketId, channel, end) {
      const connection = bySocketId.get(socketId);
      if (!connection?.channels.has(channel)) return false;
      send(connection, SUBSCRIPTION_ENDED_EVENT, end, channel);
      leave(connection, channel);
      return true;
    },
    rightsChanged(userIds) {
      const now = Date.now();
      for (const userId of userIds) recentChanges.set(userId, now);
      notify(rightsListeners, [...new Set(userIds)]);
    },
    subscriberCount: (channel) => registry.count(channel),
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
