import type { FastifyBaseLogger } from 'fastify';
import { type Kysely, sql } from 'kysely';
import type pg from 'pg';
import { loadPg } from '../db/pg.js';
import type { Database } from '../db/schema.js';
import type { Broadcaster } from '../broadcasting/broadcaster.js';
import { userChannel, workspaceChannel } from '../broadcasting/broadcaster.js';

// The realtime bus: what one replica broadcasts reaches the subscribers connected to every
// replica, exactly once. On PostgreSQL it is LISTEN/NOTIFY on one channel; each replica
// publishes through the pool and hears every message (its own included) on one dedicated
// listening connection, and only then delivers it to its own websocket clients. On SQLite
// (one process) it is in-process.
//
// A message missed while a replica's listening connection was down is lost for that replica:
// events are hints the console also gets by refetching, and rights are re-checked by the
// periodic pass (realtime/rights.ts), so nothing stays wrong for long.

export type BusMessage =
  | { kind: 'broadcast'; channel: string; event: string; payload: unknown }
  /** Broadcaster.rightsChanged: each replica re-checks these users' subscriptions. */
  | { kind: 'rights'; userIds: number[] };

export interface RealtimeBus {
  /** Sends to every replica (this one included). Never throws; failures are logged. */
  publish(message: BusMessage): void;
  /** Every message, from every replica, once. */
  onMessage(handler: (message: BusMessage) => void): void;
  /** Resolves once the bus can deliver (the listening connection is up). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** Broadcasts that go through the bus; main.ts delivers what the bus hands back. */
export function busBroadcaster(bus: RealtimeBus): Broadcaster {
  return {
    toUser: (userId, event, payload) => bus.publish({ kind: 'broadcast', channel: userChannel(userId), event, payload }),
    toWorkspace: (workspaceId, event, payload) => bus.publish({ kind: 'broadcast', channel: workspaceChannel(workspaceId), event, payload }),
    rightsChanged: (userIds) => {
      if (userIds.length > 0) bus.publish({ kind: 'rights', userIds });
    },
  };
}

/** One process: messages are handed to the handlers after the current tick, as NOTIFY would. */
export function localBus(logger?: Pick<FastifyBaseLogger, 'error'>): RealtimeBus {
  const handlers: Array<(message: BusMessage) => void> = [];
  return {
    publish(message) {
      setImmediate(() => deliver(handlers, message, logger));
    },
    onMessage: (handler) => void handlers.push(handler),
    ready: async () => {},
    close: async () => {},
  };
}

function deliver(handlers: Array<(message: BusMessage) => void>, message: BusMessage, logger?: Pick<FastifyBaseLogger, 'error'>): void {
  for (const handler of handlers) {
    try {
      handler(message);
    } catch (error) {
      logger?.error({ err: error }, 'A realtime bus handler failed');
    }
  }
}

/** NOTIFY payloads must stay under 8,000 bytes; larger messages go through realtime_messages. */
export const NOTIFY_LIMIT_BYTES = 7900;
/** How long a large message's row is kept for replicas to read it. */
const STORED_MESSAGE_TTL_MS = 5 * 60_000;

export interface PostgresBusOptions {
  /** DATABASE_URL: the listening connection is opened on it, outside the pool. */
  url: string;
  /** The pool (publishing, large messages). */
  db: Kysely<Database>;
  /**
   * The NOTIFY channel. Channels are per database, not per schema: processes on one database
   * that must not hear each other (the test files' schemas) use different channels.
   */
  channel?: string;
  /** The schema the tables are in (search_path), when not the default. */
  searchPath?: string;
  logger?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** Reconnect backoff cap (ms). */
  maxBackoffMs?: number;
}

/** Envelope on the wire: the message itself, or the id of the row that holds it. */
type Envelope = { m: BusMessage } | { ref: number };

export function postgresBus(options: PostgresBusOptions): RealtimeBus {
  const { db, logger } = options;
  const channel = options.channel ?? 'testbed_realtime';
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`Invalid realtime bus channel name: ${channel}`);
  const handlers: Array<(message: BusMessage) => void> = [];
  let client: pg.Client | null = null;
  let closed = false;
  let failures = 0;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let markReady: () => void = () => {};
  const readyOnce = new Promise<void>((resolve) => {
    markReady = resolve;
  });

  const receive = async (text: string | undefined) => {
    if (!text) return;
    try {
      const envelope = JSON.parse(text) as Envelope;
      let message: BusMessage;
      if ('ref' in envelope) {
        const row = await db.selectFrom('realtime_messages').select('payload').where('id', '=', envelope.ref).executeTakeFirst();
        if (!row) return; // expired before this replica read it
        message = JSON.parse(row.payload) as BusMessage;
      } else {
        message = envelope.m;
      }
      deliver(handlers, message, logger);
    } catch (error) {
      logger?.error({ err: error }, 'A realtime bus message could not be read');
    }
  };

  const connect = async () => {
    if (closed) return;
    const next = new (loadPg().Client)({
      connectionString: options.url,
      options: options.searchPath ? `-c search_path=${options.searchPath}` : undefined,
    });
    // Errors end this connection; 'end' schedules the next one.
    next.on('error', (error) => logger?.warn({ err: error }, 'The realtime bus connection failed'));
    next.on('end', () => {
      if (client === next) client = null;
      scheduleReconnect();
    });
    next.on('notification', (notification) => {
      if (notification.channel === channel) void receive(notification.payload);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${channel}`);
      if (closed) {
        await next.end();
        return;
      }
      client = next;
      if (failures > 0) logger?.info('The realtime bus is connected again');
      failures = 0;
      markReady();
    } catch (error) {
      logger?.warn({ err: error }, 'The realtime bus cannot listen yet');
      next.removeAllListeners('end');
      await next.end().catch(() => undefined);
      scheduleReconnect();
    }
  };

  const scheduleReconnect = () => {
    if (closed || reconnectTimer) return;
    failures++;
    const delay = Math.min(options.maxBackoffMs ?? 5000, 100 * 2 ** Math.min(failures, 10));
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      void connect();
    }, delay);
  };

  let lastSweep = 0;
  const publishNow = async (message: BusMessage) => {
    let text = JSON.stringify({ m: message } satisfies Envelope);
    if (Buffer.byteLength(text) > NOTIFY_LIMIT_BYTES) {
      const now = Date.now();
      const row = await db
        .insertInto('realtime_messages')
        .values({ payload: JSON.stringify(message), created_at: new Date(now).toISOString() })
        .returning('id')
        .executeTakeFirstOrThrow();
      text = JSON.stringify({ ref: row.id } satisfies Envelope);
      // Whoever stores large messages also clears the old ones, at most once a minute.
      if (now - lastSweep > 60_000) {
        lastSweep = now;
        await db.deleteFrom('realtime_messages').where('created_at', '<', new Date(now - STORED_MESSAGE_TTL_MS).toISOString()).execute();
      }
    }
    await sql`select pg_notify(${channel}, ${text})`.execute(db);
  };

  void connect();
  return {
    publish(message) {
      publishNow(message).catch((error: unknown) => logger?.error({ err: error }, 'A realtime bus message could not be sent'));
    },
    onMessage: (handler) => void handlers.push(handler),
    ready: () => readyOnce,
    async close() {
      closed = true;
      clearTimeout(reconnectTimer);
      const current = client;
      client = null;
      if (current) {
        current.removeAllListeners('end');
        await current.end().catch(() => undefined);
      }
    },
  };
}
