import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyBaseLogger, FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import pino from 'pino';
import { type BuildAppOptions, buildApp } from '../../src/app.js';
import { type Broadcaster, realtimeBroadcaster } from '../../src/broadcasting/broadcaster.js';
import type { ClusterGateway } from '../../src/cluster/gateway.js';
import { noneGateway } from '../../src/cluster/noneGateway.js';
import { createReconciler, type Reconciler, type ReconcilerOptions } from '../../src/cluster/reconciler.js';
import type { Clock } from '../../src/clock.js';
import { type Config, loadConfig } from '../../src/config/config.js';
import { createClusterSync } from '../../src/effects/clusterSync.js';
import type { Database, User } from '../../src/db/schema.js';
import { createMetrics, type Metrics } from '../../src/health/metrics.js';
import { createMailer, type Mailer } from '../../src/mail/mailer.js';
import type { NodeServices } from '../../src/nodes/records.js';
import { createNodeWatcher, type NodeWatcher, type NodeWatcherOptions } from '../../src/nodes/watcher.js';
import { createUser as createUserRecord } from '../../src/users/users.js';
import { startTestCluster, type TestCluster, type TestClusterOptions } from './cluster.js';
import { createTestDatabase, type TestDatabase, unreachableDatabase } from './database.js';
import { type Mailbox, startMailbox } from './mailbox.js';
import { REALTIME_APP_KEY, startTestRealtime, type TestRealtime, type TestRealtimeOptions } from './realtime.js';
import { freePort, uniqueEmail } from './utilities.js';

// createTestContext: the app exactly as main.ts builds it, on a real database (a temporary
// SQLite file, or a schema of its own on the PostgreSQL server named by DATABASE_URL), sending
// its mail to a real SMTP server on loopback; and, when the test asks for them, the sandbox
// cluster, the reconciler, the node watcher and the realtime server. Everything it starts, its
// close stops.

export const TEST_APP_URL = 'http://console.test';
export const DEFAULT_PASSWORD = 'correct horse battery staple';

export interface InjectOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export type Inject = (
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE' | 'HEAD',
  url: string,
  options?: InjectOptions,
) => Promise<LightMyRequestResponse>;

export interface TestUser {
  user: User;
  password: string;
}

export interface SignedInUser extends TestUser {
  token: string;
}

/** A broadcast the app asked for to one user's channel (its payload copied as sent). */
export interface Broadcast {
  userId: number;
  event: string;
  payload: any;
}

export interface TestContextOptions {
  /** Configuration over the test defaults (RATE_LIMITS=off, APP_URL=TEST_APP_URL, …). */
  config?: Partial<Config>;
  /**
   * The sandbox cluster over HTTPS, the app's gateway going to it. Without it the app has no
   * cluster (the none gateway), as with CLUSTER=none.
   */
  cluster?: boolean | TestClusterOptions;
  /** A reconciler on the sandbox cluster, not started: tests run its passes (reconcileOnce) or start it. */
  reconciler?: boolean | Omit<Partial<ReconcilerOptions>, 'db' | 'gateway'>;
  /** A node watcher on the sandbox cluster, started. */
  nodeWatcher?: boolean | NodeWatcherOptions;
  /**
   * The realtime server with its rights checks, the app broadcasting to it and listening on
   * loopback (pusher-js asks it to authorize private channels).
   */
  realtime?: boolean | TestRealtimeOptions;
  /**
   * The app listens on loopback (`baseUrl`): 'loopback' keeps APP_URL; 'appUrl' makes its
   * address APP_URL, for what calls the app back at the URL it gives (the node install script).
   */
  listen?: 'loopback' | 'appUrl';
  /** 'unreachable': a PostgreSQL nobody listens on, not migrated (every query fails). */
  database?: 'unreachable';
  logger?: FastifyBaseLogger;
  /** Sees every route as it is registered (buildApp's `onRoute`). */
  onRoute?: BuildAppOptions['onRoute'];
  /** Told of every query the database runs. */
  onQuery?: (sql: string) => void;
  /** The app's clock (a movableClock to test what time decides); none = the system clock. */
  clock?: Clock;
}

export interface TestContext {
  app: FastifyInstance;
  db: Kysely<Database>;
  config: Config;
  mailbox: Mailbox;
  /** A directory of the test's own (removed on close), for the files it writes. */
  dir: string;
  /** The app's metrics registry. */
  metrics: Metrics;
  /** What the app sends to users' channels, oldest first (tests may empty it). */
  broadcasts: Broadcast[];
  /** The users of each rightsChanged call, oldest first (tests may empty it). */
  rightsChanges: number[][];
  /** The broadcaster the app was given (records, and forwards to the realtime server if any). */
  broadcaster: Broadcaster;
  /** What the app's node routes work with (for the node watcher and domain functions). */
  services: NodeServices;
  /** The sandbox cluster (option `cluster`). */
  readonly cluster: TestCluster;
  /** The reconciler (option `reconciler`). */
  readonly reconciler: Reconciler;
  /** The started node watcher (option `nodeWatcher`). */
  readonly nodeWatcher: NodeWatcher;
  /** The realtime server and its clients (option `realtime`). */
  readonly realtime: TestRealtime;
  /** http://127.0.0.1:PORT of the listening app (options `listen` or `realtime`). */
  readonly baseUrl: string;
  /** A request as the console makes it: Accept JSON, bearer token when given, JSON body. */
  inject: Inject;
  /** A unique, valid registration payload; `overrides` replace fields. */
  registration(overrides?: Record<string, unknown>): Record<string, unknown>;
  register(overrides?: Record<string, unknown>): Promise<LightMyRequestResponse>;
  /** POST /login; the session token, or an error naming the answer. */
  login(email: string, password?: string): Promise<string>;
  /** A user created directly in the database: verified and policy accepted unless told. */
  createUser(options?: Partial<{ email: string; password: string; firstname: string; lastname: string; verified: boolean; admin: boolean; enabled: boolean }>): Promise<TestUser>;
  /** A fully onboarded user, logged in. */
  signedInUser(options?: Parameters<TestContext['createUser']>[0]): Promise<SignedInUser>;
  /**
   * Another app on the same database, configuration, cluster and broadcaster, as a second server
   * process (replica) would be; closed with the context.
   */
  replica(): Promise<{ app: FastifyInstance; inject: Inject }>;
  /** Waits for background work (mail) to finish. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/** A minimal built console, so the static and SPA behaviour can be tested without a build. */
function writeFakeConsole(dir: string): void {
  mkdirSync(join(dir, 'assets'), { recursive: true });
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><html><head><title>Testbed Console</title><script type="module" src="/assets/app.js"></script></head><body><div id="root"></div></body></html>',
  );
  writeFileSync(join(dir, 'assets', 'app.js'), 'console.log("console");\n');
}

/** An option given as `true` or as its settings: the settings; absent or `false`: undefined. */
const optionsOf = <T extends object>(option: boolean | T | undefined): T | undefined => (option === true ? ({} as T) : option || undefined);

/** The part asked for, or an error saying which option gives it. */
function given<T>(value: T | null, what: string, option: string): T {
  if (value === null) throw new Error(`this test context has no ${what}: createTestContext({ ${option} })`);
  return value;
}

export async function createTestContext(options: TestContextOptions = {}): Promise<TestContext> {
  const clusterOptions = optionsOf(options.cluster);
  const reconcilerOptions = optionsOf(options.reconciler);
  const watcherOptions = optionsOf(options.nodeWatcher);
  const realtimeOptions = optionsOf(options.realtime);
  if ((reconcilerOptions || watcherOptions) && !clusterOptions) throw new Error('the reconciler and the node watcher need the sandbox: createTestContext({ cluster: true, … })');

  const workDir = mkdtempSync(join(tmpdir(), 'testbed-console-test-'));
  const storageDir = join(workDir, 'storage');
  const staticDir = join(workDir, 'dist');
  writeFakeConsole(staticDir);

  // Every part started is stopped by close, also when a later part fails to start: first what
  // works on the app's database and cluster, then the apps, then mail, database and sandbox.
  let mailbox: Mailbox | null = null;
  let database: TestDatabase | null = null;
  let cluster: TestCluster | null = null;
  let realtime: Awaited<ReturnType<typeof startTestRealtime>> | null = null;
  let mailer: Mailer | null = null;
  let app: FastifyInstance | null = null;
  let reconciler: Reconciler | null = null;
  let nodeWatcher: NodeWatcher | null = null;
  const replicas: { app: FastifyInstance; mailer: Mailer }[] = [];
  const close = async () => {
    await nodeWatcher?.stop();
    await reconciler?.stop();
    await realtime?.close();
    for (const replica of replicas.splice(0)) {
      await replica.app.close();
      replica.mailer.close();
    }
    await app?.close();
    mailer?.close();
    await mailbox?.close();
    await database?.drop();
    await cluster?.stop();
    rmSync(workDir, { recursive: true, force: true });
  };

  try {
    mailbox = await startMailbox();
    database = options.database === 'unreachable' ? await unreachableDatabase() : await createTestDatabase(workDir, { onQuery: options.onQuery });
    if (clusterOptions) cluster = await startTestCluster(storageDir, clusterOptions);
    const appPort = options.listen === 'appUrl' ? await freePort() : 0;
    const loaded = loadConfig(
      {
        STORAGE_DIR: storageDir,
        APP_URL: options.listen === 'appUrl' ? `http://127.0.0.1:${appPort}` : TEST_APP_URL,
        APP_KEY: 'test-app-key-not-secret-0123456789',
        DATABASE_URL: database.url,
        MAIL_URL: mailbox.url,
        MAIL_FROM: 'console@testbed.test',
        STATIC_DIR: staticDir,
        // Each throttling test turns on the limit it exercises, with small numbers.
        RATE_LIMITS: 'off',
        // Every answer is also checked by its zod schema against the compiled serialiser's.
        CHECK_ANSWERS: 'on',
      },
      { envFile: null },
    );
    let config: Config = { ...loaded, ...options.config };
    if (realtimeOptions) {
      realtime = await startTestRealtime({ appKey: config.appKey, db: database.db }, realtimeOptions);
      config = { ...config, realtime: { ...config.realtime, key: REALTIME_APP_KEY, port: realtime.server.port } };
    }

    const broadcasts: Broadcast[] = [];
    const rightsChanges: number[][] = [];
    const forward = realtime ? realtimeBroadcaster(realtime.server) : null;
    const broadcaster: Broadcaster = {
      toUser(userId, event, payload) {
        broadcasts.push({ userId, event, payload: JSON.parse(JSON.stringify(payload)) });
        forward?.toUser(userId, event, payload);
      },
      toWorkspace(workspaceId, event, payload) {
        forward?.toWorkspace(workspaceId, event, payload);
      },
      rightsChanged(userIds) {
        rightsChanges.push([...userIds]);
        forward?.rightsChanged(userIds);
      },
    };
    const appGateway: ClusterGateway = cluster ? (clusterOptions?.appGateway?.(cluster.gateway) ?? cluster.gateway) : noneGateway;
    const logger = options.logger ?? pino({ level: 'silent' });
    const metrics = createMetrics();
    const db = database.db;
    mailer = createMailer(config, logger);
    // The app's decisions reach the reconciler (when there is one) as in main.ts, replicas' too.
    const clusterSync = createClusterSync();
    app = await buildApp({ config, db, mailer, logger, broadcaster, cluster: appGateway, clusterSync, clock: options.clock, metrics, onRoute: options.onRoute });
    let baseUrl: string | null = null;
    if (options.listen || realtime) {
      await app.listen({ host: '127.0.0.1', port: appPort });
      baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      realtime?.listening(baseUrl);
    }
    const services: NodeServices = { db, config, broadcaster, cluster: appGateway };
    if (cluster && reconcilerOptions) reconciler = createReconciler({ db, gateway: cluster.gateway, sync: clusterSync, ...reconcilerOptions });
    if (watcherOptions) {
      nodeWatcher = createNodeWatcher(services, watcherOptions);
      nodeWatcher.start();
    }

    const inject = injectorFor(app);
    const registration: TestContext['registration'] = (fields = {}) => ({
      firstname: 'Ada',
      lastname: 'Lovelace',
      email: uniqueEmail('ada'),
      password: DEFAULT_PASSWORD,
      password_confirmation: DEFAULT_PASSWORD,
      ...fields,
    });
    const login: TestContext['login'] = async (email, password = DEFAULT_PASSWORD) => {
      const response = await inject('POST', '/login', { body: { email, password } });
      if (response.statusCode !== 200) throw new Error(`login as ${email}: ${response.statusCode} ${response.body}`);
      return response.json().token;
    };
    const createUser: TestContext['createUser'] = async (fields = {}) => {
      const password = fields.password ?? DEFAULT_PASSWORD;
      let user = await createUserRecord(db, {
        firstname: fields.firstname ?? 'Grace',
        lastname: fields.lastname ?? 'Hopper',
        email: fields.email ?? uniqueEmail('grace'),
        password,
        admin: fields.admin ?? false,
        verified: fields.verified ?? true,
        // Verified and accepted at the app's time, so that a test moving the clock years ahead
        // does not find the acceptance too old.
        now: options.clock?.now(),
      });
      if (fields.enabled === false) {
        user = await db.updateTable('users').set({ enabled: 0 }).where('id', '=', user.id).returningAll().executeTakeFirstOrThrow();
      }
      return { user, password };
    };

    const built = app;
    const caught = mailbox;
    return {
      app: built,
      db,
      config,
      mailbox: caught,
      dir: workDir,
      metrics,
      broadcasts,
      rightsChanges,
      broadcaster,
      services,
      get cluster() {
        return given(cluster, 'sandbox cluster', 'cluster: true');
      },
      get reconciler() {
        return given(reconciler, 'reconciler', 'cluster: true, reconciler: true');
      },
      get nodeWatcher() {
        return given(nodeWatcher, 'node watcher', 'cluster: true, nodeWatcher: true');
      },
      get realtime() {
        return given(realtime, 'realtime server', 'realtime: true');
      },
      get baseUrl() {
        return given(baseUrl, 'listening app', "listen: 'loopback'");
      },
      inject,
      registration,
      register: (fields) => inject('POST', '/register', { body: registration(fields) }),
      login,
      createUser,
      async signedInUser(fields) {
        const created = await createUser(fields);
        return { ...created, token: await login(created.user.email, created.password) };
      },
      async replica() {
        const replicaMailer = createMailer(config, logger);
        const replicaApp = await buildApp({ config, db, mailer: replicaMailer, logger, broadcaster, cluster: appGateway, clusterSync, clock: options.clock });
        replicas.push({ app: replicaApp, mailer: replicaMailer });
        return { app: replicaApp, inject: injectorFor(replicaApp) };
      },
      idle: () => built.backgroundTasks.idle(),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** TestContext['inject'] for an app: requests as the console makes them. */
function injectorFor(app: FastifyInstance): Inject {
  return (method, url, { token, body, headers } = {}) =>
    app.inject({
      method,
      url,
      headers: {
        accept: 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      payload: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
}
