import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import { loadPg } from '../db/pg.js';

// One leader among the replicas for the background work that must run once (the reconciler
// and its periodic resync, the node watch, the mail outbox's retries): the replica holding a
// PostgreSQL session-level advisory lock. The lock lives as long as the session holding it, so
// a replica that dies (killed, crashed, cut off) releases it with its connection, and another
// replica, trying every `retryMs`, takes over within seconds. On SQLite there is one process,
// which leads from the start.

/** The advisory lock's key: any 64-bit number, the same on every replica. */
export const LEADER_LOCK_KEY = 7_346_201_118;

export interface LeaderWork {
  /** This replica became the leader: start the background work. */
  start(): void | Promise<void>;
  /** It is no longer (its connection died, or the process is stopping): stop at once. */
  stop(): void | Promise<void>;
}

export interface LeaderElection {
  isLeader(): boolean;
  /** Stops trying, stops the work if running, and releases the lock. */
  close(): Promise<void>;
}

/** SQLite: this process is the only one. */
export function soleLeader(work: LeaderWork): LeaderElection {
  let leading = true;
  void Promise.resolve(work.start());
  return {
    isLeader: () => leading,
    async close() {
      if (!leading) return;
      leading = false;
      await work.stop();
    },
  };
}

export interface PostgresLeaderOptions {
  url: string;
  work: LeaderWork;
  logger?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** How often a follower tries to take the lock (ms). */
  retryMs?: number;
  /** The lock key (tests use their own, so that test files do not contend). */
  key?: number;
}

export function postgresLeader(options: PostgresLeaderOptions): LeaderElection {
  const { work, logger } = options;
  const key = options.key ?? LEADER_LOCK_KEY;
  const retryMs = options.retryMs ?? 2000;
  let client: pg.Client | null = null;
  let leading = false;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let attempt: Promise<void> = Promise.resolve();

  const depose = async (reason: string) => {
    if (!leading) return;
    leading = false;
    logger?.warn(`Leader lock lost (${reason}): stopping the background work.`);
    await Promise.resolve(work.stop()).catch((error: unknown) => logger?.error({ err: error }, 'Stopping the background work failed'));
  };

  const dropClient = async (current: pg.Client) => {
    current.removeAllListeners('end');
    if (client === current) client = null;
    await current.end().catch(() => undefined);
  };

  const tryToLead = async () => {
    if (closed) return;
    if (leading) {
      // Still the holder? A session cut off without a TCP close would otherwise go unnoticed.
      const current = client;
      try {
        if (!current) throw new Error('no connection');
        await current.query('select 1');
      } catch (error) {
        if (current) await dropClient(current);
        await depose(`the lock's connection stopped answering: ${(error as Error).message}`);
      }
      return;
    }
    let current = client;
    try {
      if (!current) {
        current = new (loadPg().Client)({ connectionString: options.url });
        current.on('error', (error) => logger?.warn({ err: error }, 'The leader lock connection failed'));
        const mine = current;
        mine.on('end', () => {
          if (client === mine) client = null;
          void depose('its database connection ended');
        });
        await mine.connect();
        client = mine;
      }
      const result = await current.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [key]);
      if (result.rows[0]?.locked && !closed) {
        leading = true;
        logger?.info('This replica holds the leader lock: it runs the background work.');
        await Promise.resolve(work.start());
      }
    } catch (error) {
      logger?.warn({ err: error }, 'Trying the leader lock failed');
      if (current) await dropClient(current);
    }
  };

  const loop = () => {
    if (closed) return;
    attempt = attempt.then(tryToLead);
    void attempt.then(() => {
      if (!closed) timer = setTimeout(loop, retryMs);
    });
  };
  loop();

  return {
    isLeader: () => leading,
    async close() {
      closed = true;
      clearTimeout(timer);
      await attempt;
      if (leading) {
        leading = false;
        await Promise.resolve(work.stop()).catch((error: unknown) => logger?.error({ err: error }, 'Stopping the background work failed'));
      }
      // Ending the session releases the lock at once: the next leader need not wait for a timeout.
      const current = client;
      if (current) await dropClient(current);
    },
  };
}
