import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { metricsRefusal, NOT_FOUND } from './metricsAccess.js';

// Probes and metrics for an orchestrator, outside /api (no session, no onboarding gate):
//   GET /livez    the process answers (liveness: restart it when this fails)
//   GET /readyz   it can serve: the database answers and, when a cluster is configured, the
//                 cluster gateway does (readiness: send it traffic). Not the leader lock:
//                 every replica serves, one runs the background work.
//   GET /metrics  Prometheus text; with METRICS_TOKEN set, only for `Authorization: Bearer <it>`;
//                 in production without METRICS_TOKEN, 404 (metricsAccess.ts). With METRICS_PORT
//                 set it is served on that port only, and 404 here.

const CHECK_TIMEOUT_MS = 2000;
const tags = ['health'];

/** Resolves with the check's outcome, or 'timeout' after CHECK_TIMEOUT_MS. */
async function check(probe: () => Promise<unknown>): Promise<'ok' | 'failed' | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([probe().then((result) => (result === false ? 'failed' : 'ok')), timeout]);
  } catch {
    return 'failed';
  } finally {
    clearTimeout(timer);
  }
}

const checkState = z.enum(['ok', 'failed', 'timeout']);

export function healthRoutes({ db, cluster, config, metrics }: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/livez',
      { schema: { tags, summary: 'Liveness: the process answers', response: { 200: z.object({ status: z.literal('ok') }) } } },
      async () => ({ status: 'ok' as const }),
    );

    app.get(
      '/readyz',
      {
        schema: {
          tags,
          summary: 'Readiness: the database and (when configured) the cluster answer',
          response: {
            200: z.object({ status: z.literal('ready'), checks: z.record(z.string(), checkState) }),
            503: z.object({ status: z.literal('unavailable'), checks: z.record(z.string(), checkState) }),
          },
        },
      },
      async (_request, reply) => {
        const checks: Record<string, 'ok' | 'failed' | 'timeout'> = {
          database: await check(() => sql`select 1`.execute(db)),
        };
        if (cluster.mode !== 'none') checks.cluster = await check(() => cluster.health());
        const ready = Object.values(checks).every((state) => state === 'ok');
        return ready ? { status: 'ready' as const, checks } : reply.code(503).send({ status: 'unavailable' as const, checks });
      },
    );

    app.get(
      '/metrics',
      { schema: { tags, summary: 'Prometheus metrics (Bearer METRICS_TOKEN when set; 404 in production without it)', hide: false } },
      async (request, reply) => {
        // Served on METRICS_PORT instead: 404 here.
        if (config.metricsPort !== null) return reply.code(404).type('application/json; charset=utf-8').send(NOT_FOUND);
        const refusal = metricsRefusal(config, request.headers.authorization);
        if (refusal) return reply.code(refusal.status).headers(refusal.headers).type('application/json; charset=utf-8').send(refusal.body);
        const text = await metrics.registry.metrics();
        return reply.type(metrics.registry.contentType).send(text);
      },
    );
  };
}
