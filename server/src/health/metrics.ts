import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The Prometheus metrics of one server process (GET /metrics). A registry per app, not
 * prom-client's global one, so that tests can build many apps in one process. What only
 * main.ts knows (the realtime server, the reconciler, the leader lock, the mail outbox) is
 * reported through `sources`, read at scrape time.
 */
export interface MetricsSources {
  realtime?: () => { connections: number; subscriptions: number };
  /** Cluster work waiting (pending workspaces and memberships, revocations, deletions) and refused. */
  reconciler?: () => Promise<{ pending: number; failed: number }>;
  /** Mails written but not sent yet. */
  mailOutbox?: () => Promise<number>;
  /** Whether this process holds the leader lock (runs the background work). */
  leader?: () => boolean;
}

export interface Metrics {
  readonly registry: Registry;
  /** HTTP answers by method, route pattern (not the raw URL: bounded labels) and status. */
  readonly httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  /** Reconciler passes by result (ok, failed): main.ts counts them. */
  readonly reconcilerPasses: Counter<'result'>;
  readonly sources: MetricsSources;
}

export function createMetrics(options: { defaultMetrics?: boolean } = {}): Metrics {
  const registry = new Registry();
  // Process metrics (CPU, memory, event loop lag, handles) for the running server only.
  if (options.defaultMetrics) collectDefaultMetrics({ register: registry });
  const sources: MetricsSources = {};

  const httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request durations by method, route and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const reconcilerPasses = new Counter({
    name: 'reconciler_passes_total',
    help: 'Reconciler passes by result',
    labelNames: ['result'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'realtime_connections',
    help: 'Open realtime (Pusher protocol) connections on this process',
    registers: [registry],
    collect() {
      if (sources.realtime) this.set(sources.realtime().connections);
    },
  });
  new Gauge({
    name: 'realtime_subscriptions',
    help: 'Channel subscriptions held on this process',
    registers: [registry],
    collect() {
      if (sources.realtime) this.set(sources.realtime().subscriptions);
    },
  });
  new Gauge({
    name: 'reconciler_queue',
    help: 'Cluster work waiting: pending workspaces and memberships, revocations, deletions',
    registers: [registry],
    async collect() {
      const counts = await readOrNothing(sources.reconciler);
      if (counts) this.set(counts.pending);
    },
  });
  new Gauge({
    name: 'reconciler_errors',
    help: 'Workspaces and memberships the cluster refused (cluster_state error)',
    registers: [registry],
    async collect() {
      const counts = await readOrNothing(sources.reconciler);
      if (counts) this.set(counts.failed);
    },
  });
  new Gauge({
    name: 'mail_outbox_depth',
    help: 'Mails written but not sent yet',
    registers: [registry],
    async collect() {
      const depth = await readOrNothing(sources.mailOutbox);
      if (depth !== undefined) this.set(depth);
    },
  });
  new Gauge({
    name: 'leader',
    help: '1 when this process holds the leader lock and runs the background work',
    registers: [registry],
    collect() {
      if (sources.leader) this.set(sources.leader() ? 1 : 0);
    },
  });
  return { registry, httpDuration, reconcilerPasses, sources };
}

/**
 * A gauge read from the database: during an outage it keeps its last value rather than failing
 * the whole scrape, so the process metrics and `leader` are still reported.
 */
async function readOrNothing<T>(source: (() => Promise<T>) | undefined): Promise<T | undefined> {
  if (!source) return undefined;
  try {
    return await source();
  } catch {
    return undefined;
  }
}
