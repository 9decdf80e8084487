import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api } from '@kubernetes/client-node';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pino from 'pino';
import { buildApp } from '../src/app.js';
import type { ClusterGateway } from '../src/cluster/gateway.js';
import { kubeConfigFor, kubernetesGateway } from '../src/cluster/kubernetesGateway.js';
import { noneGateway } from '../src/cluster/noneGateway.js';
import { type SandboxCluster, startSandboxCluster } from '../src/cluster/sandbox/server.js';
import { type Config, loadConfig, type RateLimits } from '../src/config/config.js';
import type { NodeRecord, User } from '../src/db/schema.js';
import { createMailer, type Mailer } from '../src/mail/mailer.js';
import type { NodeServices } from '../src/nodes/records.js';
import type { Broadcaster } from '../src/broadcasting/broadcaster.js';
import { createUser } from '../src/users/users.js';
import { createTestDatabase, DEFAULT_PASSWORD, injectorFor, type TestDatabase, uniqueEmail } from './helpers.js';

// The nodes tests' world: the app as main.ts builds it, with the sandbox cluster over HTTPS
// (or no cluster), a real database, and a broadcaster that keeps what it was asked to send
// (the realtime server itself is tested in realtime.test.ts).

export const FAST = { scheduleMs: 30, startMs: 80, logIntervalMs: 150, heartbeatMs: 300, terminationMs: 100, nodeReadyMs: 300, nodeMonitorGraceMs: 900 };

export interface Broadcast {
  userId: number;
  event: string;
  payload: any;
}

export interface NodesWorld {
  app: FastifyInstance;
  config: Config;
  database: TestDatabase;
  gateway: ClusterGateway;
  /** The running sandbox (throws when stopped or with `cluster: 'none'`). */
  sandbox(): SandboxCluster;
  broadcasts: Broadcast[];
  services: NodeServices;
  stopSandbox(): Promise<void>;
  /** Starts the sandbox again on the same port, with the same CA and admin token. */
  startSandbox(): Promise<SandboxCluster>;
  inject(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, options?: { token?: string; body?: unknown; headers?: Record<string, string> }): Promise<LightMyRequestResponse>;
  person(options?: { admin?: boolean; firstname?: string }): Promise<{ user: User; token: string }>;
  node(id: number): Promise<NodeRecord>;
  /** A client of the running sandbox's API with its admin token (or another bearer token). */
  kube(token?: string): CoreV1Api;
  close(): Promise<void>;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

export async function startNodesWorld(
  options: { cluster?: 'sandbox' | 'none'; rateLimits?: Partial<RateLimits> & Record<string, unknown>; /** Listen on loopback (APP_URL = its address). */ listen?: boolean } = {},
): Promise<NodesWorld> {
  const workDir = mkdtempSync(join(tmpdir(), 'nodes-test-'));
  const storageDir = join(workDir, 'storage');
  const staticDir = join(workDir, 'dist');
  mkdirSync(staticDir, { recursive: true });
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Testbed Console</title>');

  let sandbox: SandboxCluster | null = null;
  let gateway: ClusterGateway = noneGateway;
  const port = await freePort();
  const startSandbox = async () => {
    sandbox = await startSandboxCluster({ storageDir, host: '127.0.0.1', port, timings: FAST });
    return sandbox;
  };
  if ((options.cluster ?? 'sandbox') === 'sandbox') {
    const first = await startSandbox();
    gateway = kubernetesGateway(kubeConfigFor({ server: first.url, caPem: first.caPem, token: first.adminToken }), 'sandbox');
  }

  const database = await createTestDatabase(workDir);
  const appPort = options.listen ? await freePort() : 0;
  const base = loadConfig(
    {
      STORAGE_DIR: storageDir,
      APP_URL: options.listen ? `http://127.0.0.1:${appPort}` : 'http://console.test',
      APP_KEY: 'test-app-key-not-secret-0123456789',
      DATABASE_URL: database.url,
      STATIC_DIR: staticDir,
      RATE_LIMITS: options.rateLimits ? 'on' : 'off',
      CLUSTER: options.cluster ?? 'sandbox',
    },
    { envFile: null },
  );
  const config: Config = options.rateLimits ? { ...base, rateLimits: { ...base.rateLimits!, ...options.rateLimits } as RateLimits } : base;
  const logger = pino({ level: 'silent' });
  const mailer: Mailer = createMailer(config, logger);
  const broadcasts: Broadcast[] = [];
  const broadcaster: Broadcaster = {
    toUser: (userId, event, payload) => broadcasts.push({ userId, event, payload: JSON.parse(JSON.stringify(payload)) }),
    toWorkspace() {},
    rightsChanged() {},
  };
  const app = await buildApp({ config, db: database.db, mailer, logger, broadcaster, cluster: gateway });
  if (options.listen) await app.listen({ host: '127.0.0.1', port: appPort });

  const inject: NodesWorld['inject'] = injectorFor(app);

  return {
    app,
    config,
    database,
    gateway,
    sandbox() {
      if (!sandbox) throw new Error('the sandbox is not running');
      return sandbox;
    },
    broadcasts,
    services: { db: database.db, config, broadcaster, cluster: gateway },
    async stopSandbox() {
      await sandbox?.close();
      sandbox = null;
    },
    startSandbox,
    inject,
    async person({ admin = false, firstname = 'Node' } = {}) {
      const user = await createUser(database.db, { firstname, lastname: 'Owner', email: uniqueEmail('node'), password: DEFAULT_PASSWORD, admin, verified: true });
      const login = await inject('POST', '/login', { body: { email: user.email, password: DEFAULT_PASSWORD } });
      if (login.statusCode !== 200) throw new Error(`login: ${login.statusCode} ${login.body}`);
      return { user, token: login.json().token as string };
    },
    node: (id) => database.db.selectFrom('nodes').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
    kube(token) {
      if (!sandbox) throw new Error('the sandbox is not running');
      return kubeConfigFor({ server: sandbox.url, caPem: sandbox.caPem, token: token ?? sandbox.adminToken }).makeApiClient(CoreV1Api);
    },
    async close() {
      await app.close();
      mailer.close();
      await database.drop();
      await sandbox?.close();
      rmSync(workDir, { recursive: true, force: true });
    },
  };
}

/** The node secret inside an installation_url. */
export const secretOf = (installationUrl: string) => installationUrl.split('/agent/install/')[1];

/** A Node object as a kubelet registers it, for the sandbox store (ready or not). */
export function kubeletNode(name: string, options: { ready?: 'True' | 'False' | 'Unknown'; heartbeat?: Date; pressure?: string; ip?: string } = {}) {
  const now = (options.heartbeat ?? new Date()).toISOString().replace(/\.\d+Z$/, 'Z');
  const condition = (type: string, status: string) => ({ type, status, lastHeartbeatTime: now, lastTransitionTime: now, reason: `Kubelet${type}`, message: `${type} is ${status}` });
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'arm64' } },
    spec: {},
    status: {
      capacity: { cpu: '4', memory: '8000000Ki', pods: '110', 'ephemeral-storage': '30000000Ki' },
      conditions: [
        condition('MemoryPressure', options.pressure === 'MemoryPressure' ? 'True' : 'False'),
        condition('DiskPressure', options.pressure === 'DiskPressure' ? 'True' : 'False'),
        condition('PIDPressure', 'False'),
        condition('Ready', options.ready ?? 'True'),
      ],
      addresses: [
        { type: 'InternalIP', address: options.ip ?? '192.168.1.50' },
        { type: 'Hostname', address: name },
      ],
      nodeInfo: {
        architecture: 'arm64',
        operatingSystem: 'linux',
        osImage: 'Debian GNU/Linux 12 (bookworm)',
        kubeletVersion: 'v1.32.0',
        kernelVersion: '6.1.0-rpi7-rpi-v8',
        containerRuntimeVersion: 'containerd://1.7.24',
      },
    },
  };
}

/** Polls `check` until it returns something truthy, or fails after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined | null | false>, what: string, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
