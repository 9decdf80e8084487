import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { type ClusterGateway, IDENTITY_NAMESPACE } from '../src/cluster/gateway.js';
import { kubeConfigFor, kubernetesGateway } from '../src/cluster/kubernetesGateway.js';
import { createReconciler, type Reconciler } from '../src/cluster/reconciler.js';
import { type SandboxCluster, startSandboxCluster } from '../src/cluster/sandbox/server.js';
import { loadConfig } from '../src/config/config.js';
import { timestamp } from '../src/db/database.js';
import { createMailer, type Mailer } from '../src/mail/mailer.js';
import type { Broadcaster } from '../src/broadcasting/broadcaster.js';
import { createUser } from '../src/users/users.js';
import { createTestDatabase, DEFAULT_PASSWORD, linkIn, startMailbox, type Mailbox, type TestDatabase, uniqueEmail } from './helpers.js';

// An accepted invitation reaches the cluster like an approved JoinWorkspace (the
// reconciler gives the person's service account and role binding in the workspace's namespace
// of the real sandbox cluster, over HTTPS), and the realtime side hears of it (rights re-checked,
// InvitationAccepted to the inviter). On SQLite and PostgreSQL.

let workDir: string;
let sandbox: SandboxCluster;
let gateway: ClusterGateway;
let database: TestDatabase;
let mailer: Mailer;
let mailbox: Mailbox;
let app: FastifyInstance;
let reconciler: Reconciler;
const rightsChanges: number[][] = [];
const toUser: { userId: number; event: string; payload: any }[] = [];
const broadcaster: Broadcaster = {
  toUser: (userId, event, payload) => void toUser.push({ userId, event, payload }),
  toWorkspace() {},
  rightsChanged: (ids) => void rightsChanges.push([...ids]),
};

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'invitations-cluster-test-'));
  const storageDir = join(workDir, 'storage');
  const staticDir = join(workDir, 'dist');
  mkdirSync(staticDir, { recursive: true });
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Testbed Console</title>');
  sandbox = await startSandboxCluster({ storageDir, host: '127.0.0.1', port: await freePort() });
  gateway = kubernetesGateway(kubeConfigFor({ server: sandbox.url, caPem: sandbox.caPem, token: sandbox.adminToken }), 'sandbox');
  database = await createTestDatabase(workDir);
  mailbox = await startMailbox();
  const config = loadConfig(
    {
      STORAGE_DIR: storageDir,
      APP_URL: 'http://console.test',
      APP_KEY: 'test-app-key-not-secret-0123456789',
      DATABASE_URL: database.url,
      MAIL_URL: mailbox.url,
      STATIC_DIR: staticDir,
      RATE_LIMITS: 'off',
      CLUSTER: 'sandbox',
    },
    { envFile: null },
  );
  const logger = pino({ level: 'silent' });
  mailer = createMailer(config, logger);
  app = await buildApp({ config, db: database.db, mailer, logger, cluster: gateway, broadcaster });
  reconciler = createReconciler({ db: database.db, gateway, sync: app.clusterSync });
});

afterAll(async () => {
  await reconciler?.stop();
  await app?.close();
  mailer?.close();
  await mailbox?.close();
  await database?.drop();
  await sandbox?.close();
  rmSync(workDir, { recursive: true, force: true });
});

function inject(method: 'GET' | 'POST', url: string, token?: string, body?: unknown) {
  return app.inject({
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

async function person(firstname: string) {
  const user = await createUser(database.db, { firstname, lastname: 'Tester', email: uniqueEmail(firstname.toLowerCase()), password: DEFAULT_PASSWORD, verified: true });
  const login = await inject('POST', '/login', undefined, { email: user.email, password: DEFAULT_PASSWORD });
  expect(login.statusCode).toBe(200);
  return { user, token: login.json().token as string };
}

describe('an accepted invitation', () => {
  it('gives cluster access in the invited workspaces through the reconciler, and tells the realtime side', async () => {
    const owner = await person('Olivia');
    const guest = await person('Gus');
    const now = timestamp();
    const name = `inv${process.pid % 1000}${Date.now() % 100000}`;
    const team = await database.db
      .insertInto('teams')
      .values({ name, fullname: `Team ${name}`, shortname: name, affiliation: 'Uni', city: null, country: 'FR', url: 'https://example.org', joining_reason: 'why', joining_category: 'Research', created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
    await database.db.insertInto('team_members').values({ team_id: team.id, user_id: owner.user.id, role: 'owner', enabled: 1, created_at: now }).execute();
    const workspace = await database.db
      .insertInto('workspaces')
      .values({ team_id: team.id, name: 'radio', label: 'Radio', description: null, namespace: `${name}-radio`, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
    expect((await reconciler.reconcileOnce()).failed).toBe(0);
    const binding = () => sandbox.store.get('rolebindings', workspace.namespace, `testbed-user-${guest.user.id}`);
    expect(binding()).toBeUndefined();

    const invited = await inject('POST', `/api/tenants/${team.id}/invitations`, owner.token, { email: guest.user.email, role: 'member', workspace_ids: [workspace.id] });
    expect(invited.statusCode, invited.body).toBe(201);
    await app.backgroundTasks.idle();
    const link = linkIn(await mailbox.waitFor(guest.user.email, { subject: /invites you/ }), '/invitations/');
    const accepted = await inject('POST', `/api${link.pathname}/accept`, guest.token);
    expect(accepted.statusCode, accepted.body).toBe(200);

    expect(rightsChanges).toContainEqual([guest.user.id]);
    expect(toUser).toContainEqual({
      userId: owner.user.id,
      event: 'InvitationAccepted',
      payload: { id: invited.json().id, team_id: team.id, email: guest.user.email, user_id: guest.user.id },
    });

    expect((await reconciler.reconcileOnce()).failed).toBe(0);
    expect(binding()).toBeDefined();
    expect(sandbox.store.get('serviceaccounts', IDENTITY_NAMESPACE, `member-w${workspace.id}-u${guest.user.id}`)).toBeDefined();
    const membership = await database.db
      .selectFrom('workspace_members')
      .select('cluster_state')
      .where('workspace_id', '=', workspace.id)
      .where('user_id', '=', guest.user.id)
      .executeTakeFirstOrThrow();
    expect(membership.cluster_state).toBe('ready');
    // And the kubeconfig of the workspace is theirs to download.
    const kubeconfig = await inject('POST', `/api/subnamespaces/${workspace.id}/kubeconfig`, guest.token);
    expect(kubeconfig.statusCode, kubeconfig.body).toBe(201);
  });
});
