import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController, type RouteOptions } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { activityRoutes } from './activity/routes.js';
import { adminRoutes } from './admin/routes.js';
import { adminWorkspaceRoutes } from './admin/workspaceRoutes.js';
import { adminUserRoutes } from './admin/userRoutes.js';
import { authRoutes } from './auth/routes.js';
import { BackgroundTasks } from './background.js';
import { type Clock, systemClock } from './clock.js';
import type { ClusterGateway } from './cluster/gateway.js';
import { noneGateway } from './cluster/noneGateway.js';
import { clusterRoutes } from './cluster/routes.js';
import { createClusterSync, type ClusterSync } from './effects/clusterSync.js';
import { createMetrics, type Metrics } from './health/metrics.js';
import { healthRoutes } from './health/routes.js';
import { invitationRoutes } from './invitations/routes.js';
import { oidcRoutes } from './oidc/routes.js';
import { agentRoutes } from './nodes/agentRoutes.js';
import { nodeRoutes } from './nodes/routes.js';
import { adminNodeRoutes } from './admin/nodeRoutes.js';
import { adminSettingsRoutes } from './admin/settingsRoutes.js';
import { adminLifecycleRoutes } from './admin/lifecycleRoutes.js';
import { adminDashboardRoutes } from './admin/dashboardRoutes.js';
import type { Config } from './config/config.js';
import type { AppContext } from './context.js';
import type { Database } from './db/schema.js';
import { installAuthentication } from './http/authenticate.js';
import { trustFunction } from './http/clientAddress.js';
import { installJsonBodies } from './http/body.js';
import { installDurationMetric } from './http/durationMetric.js';
import { installGracefulClose } from './http/closing.js';
import { installCanonicalAddress } from './http/canonicalAddress.js';
import { installNulGuard } from './http/nul.js';
import { answerSerializerCompiler } from './http/answerSerializer.js';
import { answerFrameworkError, installErrorHandler } from './http/errors.js';
import { installOnboardingGate } from './http/onboarding.js';
import { installOpenApi, installOpenApiRoute } from './http/openapi.js';
import { installRateLimiting } from './http/rateLimit.js';
import { installSecurityHeaders } from './http/security.js';
import { Throttle } from './http/throttle.js';
import { installRequestLog } from './http/requestLog.js';
import { installConsole } from './http/static.js';
import type { Mailer } from './mail/mailer.js';
import { createOutboxSender, type OutboxSender } from './mail/outbox.js';
import { type Broadcaster, noopBroadcaster } from './broadcasting/broadcaster.js';
import { realtimeRoutes } from './realtime/routes.js';
import { requestRoutes } from './requests/routes.js';
import { settingsRoutes } from './settings/routes.js';
import { adminTeamRoutes } from './admin/teamRoutes.js';
import { teamMemberRoutes } from './memberships/routes.js';
import { teamRoutes } from './teamPages/routes.js';
import { tokenRoutes } from './tokens/routes.js';
import { authenticateToken } from './tokens/tokens.js';
import { userRoutes } from './profile/routes.js';
import { policyStandingNow } from './policy/inForce.js';
import { policyRoutes } from './policy/routes.js';
import { usageRoutes } from './usage/routes.js';
import { workspaceRoutes } from './workspaces/routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Work still running after its answer went out (mail); `idle()` waits for it. */
    backgroundTasks: BackgroundTasks;
    /**
     * This app's mail outbox sender: its kicks run as background tasks (so `idle()` waits for
     * the mails); main.ts starts its periodic sweep in the leader.
     */
    mailOutbox: OutboxSender;
    /** Where this app's decisions ask for a reconciler pass; a reconciler listens with `sync`. */
    clusterSync: ClusterSync;
  }
}

export interface BuildAppOptions {
  config: Config;
  db: Kysely<Database>;
  mailer: Mailer;
  /** A pino logger; none = silent. */
  logger?: FastifyBaseLogger;
  /** Where realtime events go (main.ts: the Pusher-protocol server); none = nowhere. */
  broadcaster?: Broadcaster;
  /** The cluster gateway (main.ts: per CLUSTER); none = noneGateway. */
  cluster?: ClusterGateway;
  /**
   * Shared with the reconciler (its `sync` option) so that decisions reach it; none = a new one,
   * which a reconciler can still listen to as `app.clusterSync`.
   */
  clusterSync?: ClusterSync;
  /** The time decisions go by; none = the system clock. The leader's lifecycle pass gets the same. */
  clock?: Clock;
  /** This process's metrics (main.ts adds its sources); none = a registry of the app's own. */
  metrics?: Metrics;
  /** Called with every route as it is registered (the route-table fuzz test enumerates them). */
  onRoute?: (route: RouteOptions) => void;
}

/**
 * Each domain's routes, as a plugin made from the shared context. A new domain (teams,
 * workspaces, requests, nodes…) adds its folder and one entry here.
 */
const domains = [
  authRoutes,
  oidcRoutes,
  userRoutes,
  tokenRoutes,
  activityRoutes,
  settingsRoutes,
  teamRoutes,
  teamMemberRoutes,
  invitationRoutes,
  adminTeamRoutes,
  workspaceRoutes,
  requestRoutes,
  usageRoutes,
  adminRoutes,
  adminWorkspaceRoutes,
  adminUserRoutes,
  adminSettingsRoutes,
  policyRoutes,
  adminLifecycleRoutes,
  adminDashboardRoutes,
  realtimeRoutes,
  clusterRoutes,
  nodeRoutes,
  adminNodeRoutes,
  // The node agent's protocol: root paths (/agent/…), authenticated by node secrets, no onboarding gate.
  agentRoutes,
  // /livez, /readyz, /metrics for the orchestrator and Prometheus.
  healthRoutes,
];

/** The whole server, ready but not listening: tests inject into it or listen on port 0. */
export async function buildApp({
  config,
  db,
  mailer,
  logger,
  broadcaster = noopBroadcaster,
  cluster = noneGateway,
  clusterSync = createClusterSync(),
  clock = systemClock,
  metrics = createMetrics(),
  onRoute,
}: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: logger,
    // Fastify's own request logging writes two lines per request; http/requestLog.ts writes at
    // most one, and in production only for errors and slow requests.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1024 * 1024,
    // Token names (up to 255 characters) travel in the path of DELETE /api/tokens/{name}.
    routerOptions: { maxParamLength: 1024 },
    frameworkErrors: answerFrameworkError,
    // request.ip, which every per-address limit keys on: behind a reverse proxy every client
    // would otherwise share the proxy's address. The same trust function serves the realtime
    // server (clientAddressResolver), so both see the same client address.
    trustProxy: config.trustProxy === false ? false : trustFunction(config.trustProxy),
  });
  // First of all hooks, so that it sees every route, plugins' (static files, docs) included.
  if (onRoute) app.addHook('onRoute', onRoute);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(answerSerializerCompiler({ checked: config.checkAnswers }));
  installErrorHandler(app);
  installRequestLog(app, { mode: config.logRequests, slowMs: config.slowRequestMs });
  installJsonBodies(app);
  installNulGuard(app);
  installGracefulClose(app);
  installCanonicalAddress(app, config.appUrl);

  const tasks = new BackgroundTasks(app.log);
  app.decorate('backgroundTasks', tasks);
  // Mails are outbox rows written with the action (mail/outbox.ts); this sender sends them.
  const outbox = createOutboxSender({ db, mailer, logger: app.log, tasks });
  app.decorate('mailOutbox', outbox);
  app.decorate('clusterSync', clusterSync);
  app.addHook('onClose', async () => {
    await outbox.stop();
    await tasks.idle();
  });

  // Plugins that act on every route must be in place before the routes are registered.
  await installSecurityHeaders(app, config.avatarUrl);
  await installOpenApi(app);
  await installRateLimiting(app, config.rateLimits ? new Throttle(db) : null);
  installAuthentication(
    app,
    (bearer) => authenticateToken(db, bearer),
    async (user) => (await policyStandingNow(db, config.lifecycleDefaults, user, clock.now())).required,
  );
  installOnboardingGate(app);

  installDurationMetric(app, metrics.httpDuration);

  const context: AppContext = { config, db, clock, outbox, tasks, broadcaster, clusterSync, cluster, metrics };
  const api = app.withTypeProvider<ZodTypeProvider>();
  for (const routes of domains) await api.register(routes(context));
  installOpenApiRoute(app);
  await installConsole(app, config.staticDir);

  await app.ready();
  return app;
}
