import rateLimit, { type RateLimitHook, type RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RateLimit } from '../config.js';
import { tooManyAttempts } from './errors.js';

/**
 * @fastify/rate-limit for limits where every request counts (registration, reset links,
 * verification resends). Routes opt in with `config: { rateLimit: routeRateLimit(...) }`;
 * the answer is the contract's 429 with Retry-After.
 */
export async function installRateLimiting(app: FastifyInstance): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => tooManyAttempts(Math.max(1, Math.ceil(context.ttl / 1000))),
  });
}

/**
 * The route config for a limit, or false when rate limiting is off. Use `hook: 'preHandler'`
 * when the key needs the parsed body or the authenticated user.
 */
export function routeRateLimit(
  limit: RateLimit | undefined,
  keyGenerator: (request: FastifyRequest) => string,
  hook: RateLimitHook = 'onRequest',
): RateLimitOptions | false {
  if (!limit) return false;
  return { max: limit.max, timeWindow: limit.windowSeconds * 1000, keyGenerator, hook };
}

/**
 * Counts failures per key in fixed windows, for limits where only failures count (login:
 * a user who types the password right is never slowed down, and success clears the count).
 * @fastify/rate-limit counts every request, hence this small counter.
 */
export class FailureCounter {
  private readonly windows = new Map<string, { failures: number; resetsAt: number }>();
  private lastSweep = 0;

  constructor(
    private readonly limit: RateLimit,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until the key may try again, or 0 when it may try now. */
  retryAfterSeconds(key: string): number {
    const window = this.currentWindow(key);
    if (!window || window.failures < this.limit.max) return 0;
    return Math.max(1, Math.ceil((window.resetsAt - this.now()) / 1000));
  }

  recordFailure(key: string): void {
    const window = this.currentWindow(key);
    if (window) window.failures += 1;
    else {
      this.forgetExpiredWindows();
      this.windows.set(key, { failures: 1, resetsAt: this.now() + this.limit.windowSeconds * 1000 });
    }
  }

  clear(key: string): void {
    this.windows.delete(key);
  }

  private currentWindow(key: string) {
    const window = this.windows.get(key);
    return window && window.resetsAt > this.now() ? window : undefined;
  }

  /** Keeps memory bounded: ended windows are dropped, at most once per window length. */
  private forgetExpiredWindows(): void {
    const now = this.now();
    if (now - this.lastSweep < this.limit.windowSeconds * 1000) return;
    this.lastSweep = now;
    for (const [key, window] of this.windows) if (window.resetsAt <= now) this.windows.delete(key);
  }
}
