import rateLimit, { type FastifyRateLimitStore, type RateLimitHook, type RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RateLimit } from '../config/config.js';
import { tooManyAttempts } from './errors.js';
import type { Throttle } from './throttle.js';

/**
 * @fastify/rate-limit for limits where every request counts (registration, reset links,
 * verification resends, machine registrations). Routes opt in with
 * `config: { rateLimit: routeRateLimit(...) }`; the answer is the contract's 429 with
 * Retry-After. The counts live in the `throttles` table (through `throttle`), like the login
 * limits, so that every process on the database shares them.
 */
export async function installRateLimiting(app: FastifyInstance, throttle: Throttle | null): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    ...(throttle ? { store: throttleStore(throttle) } : {}),
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
  /** Requests that neither count nor are stopped (they carry their own permission). */
  exempt?: (request: FastifyRequest) => Promise<boolean>,
): RateLimitOptions | false {
  if (!limit) return false;
  return { max: limit.max, timeWindow: limit.windowSeconds * 1000, keyGenerator, hook, ...(exempt ? { allowList: exempt } : {}) };
}

/**
 * A @fastify/rate-limit store over the `throttles` table. The plugin makes one per route
 * (`child`), so keys are prefixed with the route: `route:POST /register:{key}`. Counting is
 * the same atomic upsert as the login throttle, done before the handler runs.
 */
function throttleStore(throttle: Throttle) {
  class ThrottleStore implements FastifyRateLimitStore {
    constructor(
      _options: unknown,
      private readonly prefix = 'route:',
      private readonly windowMs = 60_000,
    ) {}

    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow?: number): void {
      throttle.hit(`${this.prefix}${key}`, timeWindow ?? this.windowMs).then(
        ({ hits, resetsAt }) => callback(null, { current: hits, ttl: throttle.millisecondsUntil(resetsAt) }),
        (error: Error) => callback(error),
      );
    }

    child(routeOptions: { method?: unknown; url?: string; timeWindow?: unknown; routeInfo?: { method?: unknown; url?: string } }): FastifyRateLimitStore {
      const route = routeOptions.routeInfo ?? routeOptions;
      const method = Array.isArray(route.method) ? route.method.join(',') : String(route.method ?? '');
      const windowMs = typeof routeOptions.timeWindow === 'number' ? routeOptions.timeWindow : this.windowMs;
      return new ThrottleStore(undefined, `route:${method} ${route.url ?? ''}:`, windowMs);
    }
  }
  return ThrottleStore;
}
