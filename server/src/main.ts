import pino from 'pino';
import { buildApp } from './app.js';
import { connectCluster } from './cluster/connect.js';
import { clusterWorkCounts, createReconciler } from './cluster/reconciler.js';
import { createClusterSync } from './effects/clusterSync.js';
import { systemClock } from './clock.js';
import { createLifecycleRunner } from './lifecycle/runner.js';
import { lifecycleSteps } from './lifecycle/steps.js';
import { createMetrics } from './health/metrics.js';
import { startMetricsServer } from './health/metricsAccess.js';
import { createNodeWatcher } from './nodes/watcher.js';
import { ConfigError, loadConfig } from './config/config.js';
import { createDatabase, openConnections } from './db/database.js';
import { createLogger } from './logging/logger.js';
import { clientAddressResolver } from './http/clientAddress.js';
import { isDatabaseUnavailable } from './http/errors.js';
import { migrate } from './db/migrate.js';
import { createMailer } from './mail/mailer.js';
import { pendingMailCount } from './mail/outbox.js';
import { realtimeBroadcaster } from './broadcasting/broadcaster.js';
import { busBroadcaster, localBus, postgresBus } from './realtime/bus.js';
import { postgresLeader, soleLeader } from './replicas/leader.js';
import { attachClusterFeeds } from './realtime/clusterFeeds.js';
import { createRealtimeServer, realtimeAppSecret } from './realtime/pusherServer.js';
import { attachRightsChecks } from './realtime/rights.js';
import { platformAdminExists } from './users/users.js';
import { createUsageRunner } from './usage/runner.js';

// The server process: `npm start` runs it compiled (build/server/main.js, scripts/build-server.mjs);
// `node --import tsx server/src/main.ts` runs it from source.

const ADMIN_HINT = [
  'There is no platform admin yet. Create one with:',
  "  npm run cli -- user:create --email you@example.org --password '<a long passphrase>' --firstname <First> --lastname <Last> --admin --verified",
].join('\n');

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config);
  const db = createDatabase(config.databaseUrl, {
    poolSize: config.databasePoolSize,
    onPoolError: (error) => logger.warn({ err: error }, 'A database connection failed; the pool opens a new one when needed'),
  });
  // A database that comes up after the console (a pod starting beside its PostgreSQL) is waited for.
  const applied = await withDatabaseRetries(() => migrate(db), logger);
  if (applied.length > 0) logger.info(`Database migrated: ${applied.join(', ')}`);
  await openConnections(db, config.databasePoolSize);

  const mailer = createMailer(config, logger);
  // The realtime server listens on HOST (like the API), port REVERB_PORT; REVERB_HOST is the
  // host name the console connects to (GET /api/settings).
  const realtime = await createRealtimeServer({
    port: config.realtime.port,
    host: config.host,
    appKey: config.realtime.key,
    appSecret: realtimeAppSecret(config.appKey),
    logger,
    limits: config.realtimeLimits,
    // Its per-address connection limit keys on the client address the API sees (TRUST_PROXY).
    clientAddress: clientAddressResolver(config.trustProxy),
  });
  // Subscriptions end when the rights behind them do (Broadcaster.rightsChanged, and a periodic pass).
  const rights = attachRightsChecks({ realtime, db, logger, intervalMs: config.realtimeLimits.recheckSeconds * 1000 });
  const cluster = await connectCluster(config);
  logger.info(cluster.description);
  const metrics = createMetrics({ defaultMetrics: true });
  metrics.sources.realtime = () => ({ connections: realtime.connectionCount(), subscriptions: realtime.subscriptions().length });
  // Decisions in this replica's app ask for a pass here; the reconciler listens while it leads.
  const clusterSync = createClusterSync();
  const reconciler =
    cluster.gateway.mode === 'none'
      ? null
      : createReconciler({
          db,
          gateway: cluster.gateway,
          logger,
          sync: clusterSync,
          onPass: (result) => metrics.reconcilerPasses.inc({ result: result.failed > 0 ? 'failed' : 'ok' }),
        });
  if (reconciler) metrics.sources.reconciler = () => clusterWorkCounts(db);
  metrics.sources.mailOutbox = () => pendingMailCount(db);
  // Replicas (docs/architecture.md): every broadcast and rights change goes through the bus, and each
  // replica delivers what the bus hands back to its own websocket clients, exactly once.
  const postgres = /^postgres(ql)?:/.test(config.databaseUrl);
  const bus = postgres ? postgresBus({ url: config.databaseUrl, db, logger }) : localBus(logger);
  const local = realtimeBroadcaster(realtime, logger);
  bus.onMessage((message) => {
    if (message.kind === 'broadcast') realtime.broadcast(message.channel, message.event, message.payload);
    else local.rightsChanged(message.userIds);
  });
  await withDatabaseRetries(() => bus.ready(), logger);
  const broadcaster = busBroadcaster(bus);
  // Nodes: cluster Node changes become node status, activity and NodeStatusChanged events.
  const nodeWatcher =
    cluster.gateway.mode === 'none' ? null : createNodeWatcher({ db, config, cluster: cluster.gateway, broadcaster, logger });
  // Workspace pod events and pod logs, fed from the cluster while somebody listens on this replica.
  const feeds = attachClusterFeeds({ realtime, gateway: cluster.gateway, db, logger });
  const app = await buildApp({ config, db, mailer, logger, broadcaster, clusterSync, cluster: cluster.gateway, metrics });
  await app.listen({ host: config.host, port: config.port });

  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  logger.info(`Testbed Console listening on http://${config.host}:${port}`);
  // The one address (APP_URL) that mailed links, realtime and sign-in callbacks use; a browser at
  // another loopback name of it is redirected there (http/canonicalAddress.ts).
  logger.info(`Open ${config.appUrl}`);
  logger.info(`Realtime (Pusher protocol 7) listening on ws://${config.host}:${realtime.port}/app/${config.realtime.key}`);
  // Prometheus on a port of its own (METRICS_PORT), which no Ingress routes; else on PORT.
  const metricsServer =
    config.metricsPort === null ? null : await startMetricsServer({ host: config.host, port: config.metricsPort, settings: config, registry: metrics.registry });
  if (metricsServer) logger.info(`Metrics (Prometheus) on http://${config.host}:${metricsServer.port}/metrics`);
  if (config.production && config.metricsToken === null) {
    logger.warn('METRICS_TOKEN is not set: GET /metrics answers 404 in production. Set it to let Prometheus scrape with that bearer token.');
  }
  if (!config.mailUrl) logger.info('MAIL_URL is not set: mails (with their links) are written to this log.');
  if (!(await platformAdminExists(db))) {
    if (config.logFormat === 'pretty') logger.info(ADMIN_HINT);
    else {
      // JSON would turn the hint's line breaks into \n: the entry says what is missing, and the
      // command goes to standard error as real lines (standard output stays JSON only).
      logger.info('There is no platform admin yet (see the command on standard error).');
      process.stderr.write(`${ADMIN_HINT}\n`);
    }
  }
  // Expiry, warnings, retention and memberships that end (docs/lifecycle.md).
  const lifecycle = createLifecycleRunner({
    db,
    config,
    clock: systemClock,
    steps: lifecycleSteps,
    services: { broadcaster, clusterSync, outbox: app.mailOutbox, tasks: app.backgroundTasks },
    logger,
  });
  // Usage accounting (docs/usage.md): the running pods' requests, per workspace and hour, on the
  // same clock. Without a cluster there is nothing to count.
  const usage =
    cluster.gateway.mode === 'none'
      ? null
      : createUsageRunner({ db, gateway: cluster.gateway, clock: systemClock, intervalMs: config.usageSampleSeconds * 1000, logger });
  // Background work that must run once across the replicas runs in the leader only.
  const backgroundWork = {
    start() {
      reconciler?.start();
      nodeWatcher?.start();
      // Mail retries and mails a killed replica left (every replica kicks its own fresh ones).
      app.mailOutbox.start();
      lifecycle.start();
      usage?.start();
    },
    async stop() {
      await usage?.stop();
      await lifecycle.stop();
      await reconciler?.stop();
      await nodeWatcher?.stop();
      await app.mailOutbox.stop();
    },
  };
  const leader = postgres ? postgresLeader({ url: config.databaseUrl, work: backgroundWork, logger }) : soleLeader(backgroundWork);
  metrics.sources.leader = () => leader.isLeader();

  let stopping = false;
  /** `reason`: what asked for it, e.g. "SIGTERM received". */
  const stop = async (reason: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${reason}: finishing open requests and pending mail, then stopping.`);
    // Whatever hangs (a peer that never closes, a stuck cluster call), the process ends within
    // STOP_TIMEOUT_MS: an orchestrator waits 30 s by default before it kills.
    setTimeout(() => {
      logger.error('Stopping took too long; exiting now.');
      process.exit(1);
    }, STOP_TIMEOUT_MS).unref();
    feeds.close();
    await rights.close();
    await realtime.close();
    await metricsServer?.close();
    await app.close();
    // Stops the reconciler and the node watch if this replica leads, and hands the lock over.
    await leader.close();
    await bus.close();
    await cluster.close();
    mailer.close();
    await db.destroy();
    logger.flush();
    process.exit(0);
  };
  // SIGHUP: the terminal that started it is gone (npm start in a closed session).
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stop(`${signal} received`));
  // Started by scripts/start.mjs (npm start), the server is linked to it by an IPC channel: when
  // that process ends, however it ended (SIGKILL included), the channel closes, and the server
  // stops rather than keep its ports with nobody left to stop it.
  if (process.channel) process.on('disconnect', () => void stop('The process that started the server is gone'));
}

const STOP_TIMEOUT_MS = 10_000;
const DATABASE_WAIT_MS = Number(process.env.DATABASE_WAIT_SECONDS ?? 60) * 1000;

async function withDatabaseRetries<T>(action: () => Promise<T>, logger: pino.Logger): Promise<T> {
  const deadline = Date.now() + DATABASE_WAIT_MS;
  for (let attempt = 1; ; attempt++) {
    try {
      return await action();
    } catch (error) {
      if (!isDatabaseUnavailable(error) || Date.now() > deadline) throw error;
      logger.warn(`Cannot reach the database yet (${(error as Error).message}); retrying (attempt ${attempt}).`);
      await new Promise((resolve) => setTimeout(resolve, Math.min(500 * attempt, 5000)));
    }
  }
}

// A database outage must not end the process: work running outside a request (reconciler,
// watchers, rights checks) may see the failure as a rejected promise nobody awaits. Those are
// logged and the process keeps serving; anything else unexpected still ends it, as Node would.
process.on('unhandledRejection', (reason) => {
  if (isDatabaseUnavailable(reason)) {
    console.error(`Background work failed while the database was unavailable: ${(reason as Error).message}`);
    return;
  }
  throw reason;
});

/** Problems the operator fixes (configuration, a busy port) are said plainly, without a stack. */
function startupProblem(error: unknown): string | undefined {
  if (error instanceof ConfigError) return error.message;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const address = error as { address?: string; port?: number };
  if (code === 'EADDRINUSE') return `Cannot listen on ${address.address}:${address.port}: the port is in use. Set PORT or REVERB_PORT (or HOST) to another value.`;
  if (code === 'ECONNREFUSED') return `Cannot reach the database (${(error as Error).message}). Check DATABASE_URL.`;
  return undefined;
}

main().catch((error: unknown) => {
  console.error(startupProblem(error) ?? error);
  process.exit(1);
});
