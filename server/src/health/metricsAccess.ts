import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

// Who may read GET /metrics (route counts, the leader flag, queue depths: nothing for the
// public). With METRICS_TOKEN set: the holder of `Authorization: Bearer <it>` only. Without
// it: anybody outside production (a developer's curl), nobody in production, where /metrics
// answers 404 `{"message": "Not found."}` (the server still starts; it says so in its log).

export type MetricsAccess = 'allowed' | 'unauthenticated' | 'hidden';

export interface MetricsSettings {
  production: boolean;
  metricsToken: string | null;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** What a request for /metrics with this Authorization header gets. */
export function metricsAccess(settings: MetricsSettings, authorization: string | undefined): MetricsAccess {
  if (settings.metricsToken === null) return settings.production ? 'hidden' : 'allowed';
  const given = /^Bearer (.+)$/.exec(authorization ?? '')?.[1] ?? '';
  return sameSecret(given, settings.metricsToken) ? 'allowed' : 'unauthenticated';
}

export const UNAUTHENTICATED = { message: 'Unauthenticated.' };
export const NOT_FOUND = { message: 'Not found.' };

/** A refusal of /metrics as the answer's status, JSON body and headers (the main port and METRICS_PORT alike). */
export interface MetricsRefusal {
  status: number;
  body: { message: string };
  headers: Record<string, string>;
}

/** The refusal a request for /metrics gets, or null when it may read the metrics. */
export function metricsRefusal(settings: MetricsSettings, authorization: string | undefined): MetricsRefusal | null {
  const access = metricsAccess(settings, authorization);
  if (access === 'hidden') return { status: 404, body: NOT_FOUND, headers: {} };
  if (access === 'unauthenticated') return { status: 401, body: UNAUTHENTICATED, headers: { 'www-authenticate': 'Bearer' } };
  return null;
}

export interface MetricsServer {
  readonly port: number;
  close(): Promise<void>;
}

/**
 * GET /metrics alone on a port of its own (METRICS_PORT), for Prometheus inside the cluster:
 * a port that no Ingress routes. Same access rule as on the main port; anything else is 404.
 */
export async function startMetricsServer(options: { host: string; port: number; settings: MetricsSettings; registry: Registry }): Promise<MetricsServer> {
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) => ({ status, body: JSON.stringify(body), headers: { 'content-type': 'application/json; charset=utf-8', ...headers } });
  const server: Server = createServer((request, response) => {
    const answer = async () => {
      const path = (request.url ?? '').split('?')[0];
      if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) return json(404, NOT_FOUND);
      const refusal = metricsRefusal(options.settings, request.headers.authorization);
      if (refusal) return json(refusal.status, refusal.body, refusal.headers);
      return { status: 200, body: await options.registry.metrics(), headers: { 'content-type': options.registry.contentType } };
    };
    answer()
      .catch(() => json(500, { message: 'Server error.' }))
      .then(({ status, body, headers }) => {
        response.writeHead(status, { ...headers, 'cache-control': 'no-store' });
        response.end(request.method === 'HEAD' ? undefined : body);
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
