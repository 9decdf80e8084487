import { createHash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { RateLimit } from '../config/config.js';
import { timestamp } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { tooManyAttempts } from './errors.js';

/** One attempt counted under a key, as `reserve` granted it; `release` gives it back. */
/**
 * The stored form of a key: as is when short, else its SHA-256. Keys hold what clients send
 * (an address taken from X-Forwarded-For under TRUST_PROXY=true can be kilobytes long), and
 * PostgreSQL refuses primary key values over about 2.7 kB.
 */
export const storedKey = (key: string) => (key.length <= 255 ? key : `sha256:${createHash('sha256').update(key).digest('hex')}`);

export interface Reservation {
  key: string;
  /** The window the attempt was counted in: a release after it ended changes nothing. */
  resetsAt: string;
}

export interface ReserveResult {
  /** True when the attempt is within the limit and may go ahead. */
  allowed: boolean;
  /** Attempts reserved in the window so far, this one included. */
  hits: number;
  /** Seconds until the window ends (at least 1). */
  retryAfterSeconds: number;
  reservation: Reservation;
}

export interface ThrottleOptions {
  now?: () => Date;
  /** Ended windows are deleted at most this often (per process). */
  sweepEveryMs?: number;
}

/**
 * Fixed-window counters in the `throttles` table, shared by every process on the database.
 *
 * An attempt is counted (reserved) before the work it limits, in one atomic upsert, so that
 * concurrent attempts each get a distinct count: of 100 simultaneous logins with a limit of
 * 5, exactly 5 see a count within the limit. Reading the count first and recording a failure
 * after a slow check (Argon2) let every concurrent attempt through.
 */
export class Throttle {
  private readonly now: () => Date;
  private readonly sweepEveryMs: number;
  private lastSweep = 0;

  constructor(
    private readonly db: Kysely<Database>,
    options: ThrottleOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.sweepEveryMs = options.sweepEveryMs ?? 60_000;
  }

  /**
   * Counts one attempt under `key` in a window of `windowMs`, opening a new window when the
   * key has none or its window has ended, and answers the count and when the window ends.
   * `INSERT … ON CONFLICT DO UPDATE … RETURNING` is one atomic statement on both SQLite
   * (≥ 3.35) and PostgreSQL; the SET expressions all see the row as it was before.
   */
  async hit(key: string, windowMs: number): Promise<{ hits: number; resetsAt: string }> {
    key = storedKey(key);
    const now = this.now();
    await this.sweepEndedWindows(now);
    const nowText = timestamp(now);
    const newResetsAt = timestamp(new Date(now.getTime() + windowMs));
    const windowEnded = sql<boolean>`throttles.resets_at <= ${nowText}`;
    const row = await this.db
      .insertInto('throttles')
      .values({ key, hits: 1, resets_at: newResetsAt })
      .onConflict((conflict) =>
        conflict.column('key').doUpdateSet({
          hits: sql<number>`case when ${windowEnded} then 1 else throttles.hits + 1 end`,
          resets_at: sql<string>`case when ${windowEnded} then ${newResetsAt} else throttles.resets_at end`,
        }),
      )
      .returning(['hits', 'resets_at'])
      .executeTakeFirstOrThrow();
    return { hits: Number(row.hits), resetsAt: row.resets_at };
  }

  /** Reserves one attempt under `key`: allowed while the window holds at most `limit.max`. */
  async reserve(key: string, limit: RateLimit): Promise<ReserveResult> {
    const { hits, resetsAt } = await this.hit(key, limit.windowSeconds * 1000);
    return {
      allowed: hits <= limit.max,
      hits,
      retryAfterSeconds: this.secondsUntil(resetsAt),
      reservation: { key: storedKey(key), resetsAt },
    };
  }

  /** Gives back a reserved attempt that should not count (a success, or refused elsewhere). */
  async release(reservation: Reservation): Promise<void> {
    await this.db
      .updateTable('throttles')
      .set({ hits: sql<number>`hits - 1` })
      .where('key', '=', reservation.key)
      .where('resets_at', '=', reservation.resetsAt)
      .where('hits', '>', 0)
      .execute();
  }

  /** Forgets every attempt under `key` (a successful login clears its account's count). */
  async clear(key: string): Promise<void> {
    await this.db.deleteFrom('throttles').where('key', '=', storedKey(key)).execute();
  }

  /** Milliseconds until `resetsAt`, never negative. */
  millisecondsUntil(resetsAt: string): number {
    return Math.max(0, Date.parse(resetsAt) - this.now().getTime());
  }

  private secondsUntil(resetsAt: string): number {
    return Math.max(1, Math.ceil(this.millisecondsUntil(resetsAt) / 1000));
  }

  /** Keeps the table small: rows whose window ended are deleted, at most once a minute. */
  private async sweepEndedWindows(now: Date): Promise<void> {
    if (now.getTime() - this.lastSweep < this.sweepEveryMs) return;
    this.lastSweep = now.getTime();
    await this.db.deleteFrom('throttles').where('resets_at', '<=', timestamp(now)).execute();
  }
}

/**
 * Reserves an attempt under each key with its limit, in order. When one refuses, the
 * attempts already reserved are given back and the 429 (with Retry-After of the refusing
 * window) is thrown; otherwise the caller gets every reservation.
 */
export async function reserveEach(throttle: Throttle, limits: ReadonlyArray<readonly [string, RateLimit]>): Promise<Reservation[]> {
  const granted: Reservation[] = [];
  for (const [key, limit] of limits) {
    const result = await throttle.reserve(key, limit);
    if (!result.allowed) {
      for (const reservation of granted) await throttle.release(reservation);
      throw tooManyAttempts(result.retryAfterSeconds);
    }
    granted.push(result.reservation);
  }
  return granted;
}
