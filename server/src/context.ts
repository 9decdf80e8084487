import type { Kysely } from 'kysely';
import type { BackgroundTasks } from './background.js';
import type { ClusterGateway } from './cluster/gateway.js';
import type { Clock } from './clock.js';
import type { Config } from './config/config.js';
import type { Database } from './db/schema.js';
import type { Metrics } from './health/metrics.js';
import type { OutboxSender } from './mail/outbox.js';
import type { Broadcaster } from './broadcasting/broadcaster.js';
import type { ClusterSync } from './effects/clusterSync.js';

/** What every domain's routes get from buildApp: configuration and shared services. */
export interface AppContext {
  config: Config;
  db: Kysely<Database>;
  /** The time every expiry, warning and validity is decided by (tests move it). */
  clock: Clock;
  /**
   * The mail outbox: mails are written with enqueueMail (mail/outbox.ts) in the action's
   * transaction, then `outbox.kick()` after the commit sends them. Nothing sends directly.
   */
  outbox: Pick<OutboxSender, 'kick'>;
  tasks: BackgroundTasks;
  /** Realtime events to users' and workspaces' private channels (a no-op without a realtime server). */
  broadcaster: Broadcaster;
  /**
   * Asks the reconciler for a pass after a change to cluster state. Domain code does not call it
   * directly: it says `clusterSync: true` in its AfterCommit (effects/afterCommit.ts).
   */
  clusterSync: ClusterSync;
  /** The cluster (noneGateway with CLUSTER=none). Never called inside a transaction. */
  cluster: ClusterGateway;
  /** This process's Prometheus metrics (GET /metrics). */
  metrics: Metrics;
}
