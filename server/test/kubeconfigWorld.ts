import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import yaml from 'js-yaml';
import pino from 'pino';
import { expect } from 'vitest';
import { buildApp } from '../src/app.js';
import type { ClusterGateway } from '../src/cluster/gateway.js';
import { kubeConfigFor, kubernetesGateway } from '../src/cluster/kubernetesGateway.js';
import { createReconciler, type Reconciler, type ReconcilerOptions } from '../src/cluster/reconciler.js';
import { type SandboxCluster, startSandboxCluster } from '../src/cluster/sandbox/server.js';
import { loadConfig } from '../src/config/config.js';
import { timestamp } from '../src/db/database.js';
import type { TeamRole, WorkspaceRole } from '../src/db/schema.js';
import { createMailer, type Mailer } from '../src/mail/mailer.js';
import type { Broadcaster } from '../src/broadcasting/broadcaster.js';
import { createUser } from '../src/users/users.js';
import { FAST_SANDBOX_TIMINGS, kubectlWith } from './kubectl.js';
import { createTestDatabase, DEFAULT_PASSWORD, type TestDatabase, uniqueEmail } from './helpers.js';

// The world of the kubeconfig tests: the console (buildApp) on a real database, the sandbox
// cluster over HTTPS, a reconciler, people and teams made directly in the database, and ways to
// ask the cluster whether a downloaded kubeconfig still works (kubectl, or one HTTPS request
// with its token when there are many to try).

export interface KubeconfigWorld {
  dir: string;
  sandbox: SandboxCluster;
  /** The gateway the reconciler uses (straight to the sandbox). */
  gateway: ClusterGateway;
  database: TestDatabase;
  app: FastifyInstance;
  reconciler: Reconciler;
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

/**
 * `appGateway` wraps the gateway the API routes get (the race tests slow it down, as a cluster
 * across a network is slower than the sandbox on loopback); the reconciler gets the plain one.
 */
export async function startKubeconfigWorld(
  options: { appGateway?: (gateway: ClusterGateway) => ClusterGateway; reconciler?: Partial<ReconcilerOptions> } = {},
): Promise<KubeconfigWorld> {
  const dir = mkdtempSync(join(tmpdir(), 'kubeconfig-world-'));
  const storageDir = join(dir, 'storage');
  const staticDir = join(dir, 'dist');
  mkdirSync(staticDir, { recursive: true });
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Testbed Console</title>');
  const sandbox = await startSandboxCluster({ storageDir, host: '127.0.0.1', port: await freePort(), timings: FAST_SANDBOX_TIMINGS });
  const gateway = kubernetesGateway(kubeConfigFor({ server: sandbox.url, caPem: sandbox.caPem, token: sandbox.adminToken }), 'sandbox');
  const database = await createTestDatabase(dir);
  const config = loadConfig(
    { STORAGE_DIR: storageDir, APP_URL: 'http://console.test', APP_KEY: 'test-app-key-not-secret-0123456789', DATABASE_URL: database.url, STATIC_DIR: staticDir, RATE_LIMITS: 'off', CLUSTER: 'sandbox' },
    { envFile: null },
  );
  const logger = pino({ level: 'silent' });
  const mailer: Mailer = createMailer(config, logger);
  const broadcaster: Broadcaster = { toUser() {}, toWorkspace() {}, rightsChanged() {} };
  const app = await buildApp({ config, db: database.db, mailer, logger, cluster: options.appGateway?.(gateway) ?? gateway, broadcaster });
  const reconciler = createReconciler({ db: database.db, gateway, sync: app.clusterSync, ...options.reconciler });
  return {
    dir,
    sandbox,
    gateway,
    database,
    app,
    reconciler,
    async close() {
      await reconciler.stop();
      await app.close();
      mailer.close();
      await database.drop();
      await sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function injector(world: KubeconfigWorld) {
  return (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, token?: string, body?: unknown) =>
    world.app.inject({
      method,
      url,
      headers: {
        accept: 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      payload: body === undefined ? undefined : JSON.stringify(body),
    });
}

let counter = 0;
export const unique = (prefix: string) => `${prefix}${process.pid % 1000}${Date.now() % 100000}${++counter}`;

export async function signedIn(world: KubeconfigWorld, firstname: string, options: { admin?: boolean } = {}) {
  const user = await createUser(world.database.db, {
    firstname,
    lastname: 'Tester',
    email: uniqueEmail(firstname.toLowerCase()),
    password: DEFAULT_PASSWORD,
    admin: options.admin ?? false,
    verified: true,
  });
  const login = await injector(world)('POST', '/login', undefined, { email: user.email, password: DEFAULT_PASSWORD });
  expect(login.statusCode).toBe(200);
  return { user, token: login.json().token as string };
}
export type Person = Awaited<ReturnType<typeof signedIn>>;

export const addTeamMember = (world: KubeconfigWorld, teamId: number, userId: number, role: TeamRole) =>
  world.database.db.insertInto('team_members').values({ team_id: teamId, user_id: userId, role, enabled: 1, created_at: timestamp() }).execute();
export const addWorkspaceMember = (world: KubeconfigWorld, workspaceId: number, userId: number, role: WorkspaceRole) =>
  world.database.db.insertInto('workspace_members').values({ workspace_id: workspaceId, user_id: userId, role, created_at: timestamp() }).execute();

/**
 * A team (owner, member) with one workspace in the cluster, both of them in it; and a platform
 * admin. The owner and the admin may be given (signing people in is slow: Argon2); the member is new.
 */
export async function teamWithWorkspace(world: KubeconfigWorld, given: { owner?: Person; admin?: Person } = {}) {
  const [owner, member, admin] = await Promise.all([
    given.owner ?? signedIn(world, 'Olivia'),
    signedIn(world, 'Mia'),
    given.admin ?? signedIn(world, 'Ada', { admin: true }),
  ]);
  const name = unique('kc');
  const now = timestamp();
  const db = world.database.db;
  const team = await db
    .insertInto('teams')
    .values({ name, fullname: `Team ${name}`, shortname: name, affiliation: 'Uni', city: null, country: 'FR', url: 'https://example.org', joining_reason: 'why', joining_category: 'Research', created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  await addTeamMember(world, team.id, owner.user.id, 'owner');
  await addTeamMember(world, team.id, member.user.id, 'member');
  const workspace = await db
    .insertInto('workspaces')
    .values({ team_id: team.id, name: 'ws', label: 'Space', description: null, namespace: `${name}-ws`, created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  await addWorkspaceMember(world, workspace.id, owner.user.id, 'manager');
  await addWorkspaceMember(world, workspace.id, member.user.id, 'member');
  expect((await world.reconciler.reconcileOnce()).failed).toBe(0);
  return { team, workspace, people: { owner, member, admin } };
}

/** Writes a downloaded kubeconfig to a file; answers its path. */
export function saveKubeconfig(world: KubeconfigWorld, kubeconfig: string): string {
  const file = join(world.dir, `${unique('kubeconfig')}.yaml`);
  writeFileSync(file, kubeconfig);
  return file;
}

/**
 * What kubectl prints when the cluster refuses a kubeconfig's token (401): "Unauthorized", or
 * "the server has asked for the client to provide credentials", depending on the request.
 */
export const UNAUTHORIZED = /Unauthorized|provide credentials/;

/** kubectl with this kubeconfig: its stdout, or what it printed on stderr when it failed. */
export async function kubectlOutcome(file: string, ...args: string[]): Promise<{ ok: boolean; output: string }> {
  return kubectlWith(() => file)(...args).then(
    (stdout) => ({ ok: true, output: stdout }),
    (error: { stderr?: string; message: string }) => ({ ok: false, output: error.stderr || error.message }),
  );
}

/**
 * The HTTP status the cluster answers a kubeconfig's token for listing the pods of its namespace
 * (200: it works; 401: the token is void; 403: valid, but bound to nothing there). One HTTPS
 * request, for the many kubeconfigs of a race; kubectl checks a few of them as a person would.
 */
export function clusterStatusFor(world: KubeconfigWorld, kubeconfig: string): Promise<number> {
  const parsed = yaml.load(kubeconfig) as {
    clusters: { cluster: { server: string } }[];
    users: { user: { token: string } }[];
    contexts: { context: { namespace: string } }[];
  };
  const url = new URL(`/api/v1/namespaces/${parsed.contexts[0].context.namespace}/pods`, parsed.clusters[0].cluster.server);
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, { method: 'GET', ca: world.sandbox.caPem, headers: { authorization: `Bearer ${parsed.users[0].user.token}` } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}
