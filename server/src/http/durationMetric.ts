import type { FastifyInstance } from 'fastify';

/** Where each answer's duration goes: prom-client's Histogram has this shape. */
export interface DurationHistogram {
  observe(labels: { method: string; route: string; status_code: string }, seconds: number): void;
}

/**
 * Every answer's duration, labelled by route pattern (bounded), not by the URL asked for.
 * A callback hook (every answer runs it; it never waits).
 */
export function installDurationMetric(app: FastifyInstance, histogram: DurationHistogram): void {
  app.addHook('onResponse', (request, reply, done) => {
    histogram.observe(
      { method: request.method, route: request.routeOptions.url ?? 'unmatched', status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    done();
  });
}
