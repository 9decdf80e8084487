import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api, KubeConfig, loadYaml } from '@kubernetes/client-node';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { ClusterError, type ClusterGateway, IDENTITY_NAMESPACE, WORKSPACE_CLUSTER_ROLES } from '../src/cluster/gateway.js';
import { kubeConfigFor, kubernetesGateway } from '../src/cluster/kubernetesGateway.js';
import { createReconciler, type Reconciler } from '../src/cluster/reconciler.js';
import { type SandboxCluster, startSandboxCluster } from '../src/cluster/sandbox/server.js';
import { loadConfig } from '../src/config/config.js';
import { timestamp } from '../src/db/database.js';
import { createMailer, type Mailer } from '../src/mail/mailer.js';
import { createUser } from '../src/users/users.js';
import { kubectlAvailable, kubectlWith } from './kubectl.js';
import { createTestContext, createTestDatabase, DEFAULT_PASSWORD, type TestContext, type TestDatabase, uniqueEmail } from './helpers.js';

// The cluster gateway and its reconciler against the real sandbox API server over HTTPS,
// and the cluster endpoints of docs/api-contract.md ("Cluster").

const FAST = { scheduleMs: 30, startMs: 80, logIntervalMs: 150, heartbeatMs: 400, terminationMs: 100 };

let workDir: string;
let storageDir: string;
let port: number;
let sandbox: SandboxCluster | null = null;
let gateway: ClusterGateway;
let database: TestDatabase;
let mailer: Mailer;
let app: FastifyInstance;
let reconciler: Reconciler;

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

const startSandbox = async () => {
  sandbox = await startSandboxCluster({ storageDir, host: '127.0.0.1', port, timings: FAST });
  return sandbox;
};
const stopSandbox = async () => {
  await sandbox?.close();
  sandbox = null;
};
const store = () => {
  if (!sandbox) throw new Error('the sandbox is not running');
  return sandbox.store;
};

function inject(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, token?: string, body?: unknown) {
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

let counter = 0;
const unique = (prefix: string) => `${prefix}${process.pid % 1000}${Date.now() % 100000}${++counter}`;

async function person(options: { admin?: boolean } = {}) {
  const user = await createUser(database.db, {
    firstname: 'Kube',
    lastname: 'User',
    email: uniqueEmail('kube'),
    password: DEFAULT_PASSWORD,
    admin: options.admin ?? false,
    verified: true,
  });
  const login = await inject('POST', '/login', undefined, { email: user.email, password: DEFAULT_PASSWORD });
  expect(login.statusCode).toBe(200);
  return { user, token: login.json().token as string };
}

async function teamWithOwner() {
  const owner = await person();
  const now = timestamp();
  const name = unique('kt');
  const team = await database.db
    .insertInto('teams')
    .values({ name, fullname: `Team ${name}`, shortname: name, affiliation: null, city: null, country: 'FR', url: null, joining_reason: null, joining_category: 'Research', created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  await database.db.insertInto('team_members').values({ team_id: team.id, user_id: owner.user.id, role: 'owner', enabled: 1, created_at: now }).execute();
  return { team, owner };
}

async function joinTeam(teamId: number) {
  const member = await person();
  await database.db.insertInto('team_members').values({ team_id: teamId, user_id: member.user.id, role: 'member', enabled: 1, created_at: timestamp() }).execute();
  return member;
}

/** The owner asks for a workspace: approved at once (they manage the team). */
async function createWorkspace(teamId: number, ownerToken: string) {
  const response = await inject('POST', '/api/requests/workspaces', ownerToken, { label: 'Space', name: unique('ws-'), team_id: teamId });
  expect(response.statusCode).toBe(201);
  const request = response.json();
  expect(request.status).toBe('Approved');
  return database.db.selectFrom('workspaces').selectAll().where('id', '=', request.object.id).executeTakeFirstOrThrow();
}

const workspaceState = async (id: number) =>
  (await database.db.selectFrom('workspaces').select(['cluster_state', 'cluster_error']).where('id', '=', id).executeTakeFirstOrThrow());

function clientFor(kubeconfig: string): CoreV1Api {
  const kc = new KubeConfig();
  kc.loadFromString(kubeconfig);
  return kc.makeApiClient(CoreV1Api);
}

const statusCodeOf = async (call: Promise<unknown>) => {
  try {
    await call;
    return 200;
  } catch (error) {
    return (error as { code?: number }).code;
  }
};

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'cluster-test-'));
  storageDir = join(workDir, 'storage');
  const staticDir = join(workDir, 'dist');
  mkdirSync(staticDir, { recursive: true });
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Testbed Console</title>');
  port = await freePort();
  // Generate the CA and admin token once; the gateway keeps trusting them across restarts.
  await startSandbox();
  const first = sandbox!;
  gateway = kubernetesGateway(kubeConfigFor({ server: first.url, caPem: first.caPem, token: first.adminToken }), 'sandbox');

  database = await createTestDatabase(workDir);
  const config = loadConfig(
    {
      STORAGE_DIR: storageDir,
      APP_URL: 'http://console.test',
      APP_KEY: 'test-app-key-not-secret-0123456789',
      DATABASE_URL: database.url,
      STATIC_DIR: staticDir,
      RATE_LIMITS: 'off',
      CLUSTER: 'sandbox',
    },
    { envFile: null },
  );
  const logger = pino({ level: 'silent' });
  mailer = createMailer(config, logger);
  app = await buildApp({ config, db: database.db, mailer, logger, cluster: gateway });
  reconciler = createReconciler({ db: database.db, gateway, pollIntervalMs: 100, sync: app.clusterSync });
});

afterAll(async () => {
  await reconciler?.stop();
  await app?.close();
  mailer?.close();
  await database?.drop();
  await stopSandbox();
  rmSync(workDir, { recursive: true, force: true });
});

const haveKubectl = kubectlAvailable('server/test/cluster.test.ts', 'member removal');

/** Pod Security Admission on every workspace namespace (docs/security.md), spelled out. */
const POD_SECURITY_NAMESPACE_LABELS = {
  'pod-security.kubernetes.io/enforce': 'baseline',
  'pod-security.kubernetes.io/enforce-version': 'v1.34',
  'pod-security.kubernetes.io/warn': 'restricted',
  'pod-security.kubernetes.io/warn-version': 'v1.34',
  'pod-security.kubernetes.io/audit': 'restricted',
  'pod-security.kubernetes.io/audit-version': 'v1.34',
};

describe('the gateway on the sandbox', () => {
  it('creates a labelled namespace with quota, limit range and a same-namespace network policy, idempotently', async () => {
    const namespace = unique('gwteam-space');
    for (let round = 0; round < 2; round++) {
      await gateway.ensureWorkspace({ namespace, teamName: 'gwteam', workspaceName: 'space' });
    }
    const ns = store().get('namespaces', undefined, namespace);
    expect(ns?.metadata.labels).toMatchObject({
      'testbed.io/team': 'gwteam',
      'testbed.io/workspace': 'space',
      'app.kubernetes.io/managed-by': 'testbed-console',
      ...POD_SECURITY_NAMESPACE_LABELS,
    });
    expect(store().list('resourcequotas', namespace)).toHaveLength(1);
    expect(store().list('resourcequotas', namespace)[0].spec.hard).toMatchObject({ pods: '50', 'limits.memory': '32Gi' });
    expect(store().list('limitranges', namespace)[0].spec.limits[0]).toMatchObject({ type: 'Container', default: { cpu: '500m' } });
    const [policy] = store().list('networkpolicies', namespace);
    expect(policy.spec).toEqual({ podSelector: {}, policyTypes: ['Ingress'], ingress: [{ from: [{ podSelector: {} }] }] });

    // A label changed by hand comes back.
    store().modify('namespaces', undefined, namespace, (object) => {
      object.metadata.labels = { other: 'x' };
    });
    await gateway.ensureWorkspace({ namespace, teamName: 'gwteam', workspaceName: 'space' });
    expect(store().get('namespaces', undefined, namespace)?.metadata.labels).toMatchObject({ other: 'x', 'testbed.io/team': 'gwteam' });
  });

  it('gives a member a service account per workspace in testbed-identities and a RoleBinding to the console ClusterRole, idempotently; revoking deletes both', async () => {
    const namespace = unique('gwteam-access');
    await gateway.ensureWorkspace({ namespace, teamName: 'gwteam', workspaceName: 'access' });
    const target = { namespace, workspaceId: 31, userId: 4242 };
    await gateway.ensureClusterRoles();
    for (let round = 0; round < 2; round++) await gateway.ensureMemberAccess({ ...target, role: 'member' });
    expect(store().get('serviceaccounts', IDENTITY_NAMESPACE, 'member-w31-u4242')?.metadata.labels).toMatchObject({
      'testbed.io/user': '4242',
      'testbed.io/workspace-id': '31',
    });
    const binding = store().get('rolebindings', namespace, 'testbed-user-4242');
    expect(binding?.roleRef).toMatchObject({ kind: 'ClusterRole', name: 'testbed-workspace-member' });
    expect(binding?.subjects).toEqual([{ kind: 'ServiceAccount', name: 'member-w31-u4242', namespace: IDENTITY_NAMESPACE }]);
    expect(store().get('clusterroles', undefined, 'testbed-workspace-member')?.rules).toEqual(WORKSPACE_CLUSTER_ROLES.member);
    expect(store().get('clusterroles', undefined, 'testbed-workspace-manager')?.rules).toEqual(WORKSPACE_CLUSTER_ROLES.manager);

    // A role change rebinds; a ClusterRole edited by hand comes back on the next resync.
    await gateway.ensureMemberAccess({ ...target, role: 'manager' });
    expect(store().get('rolebindings', namespace, 'testbed-user-4242')?.roleRef.name).toBe('testbed-workspace-manager');
    store().modify('clusterroles', undefined, 'testbed-workspace-member', (role) => {
      role.rules = [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }];
    });
    await gateway.ensureClusterRoles();
    expect(store().get('clusterroles', undefined, 'testbed-workspace-member')?.rules).toEqual(WORKSPACE_CLUSTER_ROLES.member);

    const issued = await gateway.issueKubeconfigToken({ ...target, expirationSeconds: 3600 });
    expect(issued.token).toBeTruthy();
    expect(new Date(issued.expiresAt).getTime()).toBeGreaterThan(Date.now());

    await gateway.revokeMemberAccess(target);
    await gateway.revokeMemberAccess(target);
    expect(store().get('rolebindings', namespace, 'testbed-user-4242')).toBeUndefined();
    expect(store().get('serviceaccounts', IDENTITY_NAMESPACE, 'member-w31-u4242')).toBeUndefined();
  });

  it('maps the cluster errors to ClusterError kinds', async () => {
    const error = await gateway.ensureWorkspace({ namespace: 'Not_A_Valid_Name', teamName: 't', workspaceName: 'w' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ClusterError);
    expect(error).toMatchObject({ kind: 'invalid' });
    const missing = await gateway.issueKubeconfigToken({ userId: 999999, workspaceId: 1, namespace: 'x', expirationSeconds: 3600 }).catch((caught: unknown) => caught);
    expect(missing).toMatchObject({ kind: 'not-found' });
    expect(await gateway.health()).toBe(true);
    expect(gateway.clusterInfo()).toEqual({ ca: sandbox!.caPem, server: sandbox!.url });
  });

  it('hands out the public API server address (CLUSTER_SERVER_URL) while talking to its own', async () => {
    const kc = kubeConfigFor({ server: sandbox!.url, caPem: sandbox!.caPem, token: sandbox!.adminToken });
    const behindProxy = kubernetesGateway(kc, 'sandbox', { publicServer: 'https://k8s.example.org:6443' });
    expect(await behindProxy.health()).toBe(true);
    expect(behindProxy.clusterInfo()).toEqual({ ca: sandbox!.caPem, server: 'https://k8s.example.org:6443' });
    const token = await behindProxy.createBootstrapToken({ ttlSeconds: 600, description: 'public address test' });
    expect(token.apiServer).toBe('k8s.example.org:6443');
  });
});

describe('Pod Security labels on workspace namespaces', () => {
  it('the reconciler adds them to a namespace made without them, and writes nothing once they match', async () => {
    const { team, owner } = await teamWithOwner();
    const workspace = await createWorkspace(team.id, owner.token);
    await reconciler.reconcileOnce();
    expect(store().get('namespaces', undefined, workspace.namespace)?.metadata.labels).toMatchObject(POD_SECURITY_NAMESPACE_LABELS);

    // A namespace as the console made it before Pod Security: its labels without them.
    store().modify('namespaces', undefined, workspace.namespace, (object) => {
      object.metadata.labels = Object.fromEntries(Object.entries(object.metadata.labels ?? {}).filter(([key]) => !key.startsWith('pod-security.')));
    });
    const before = store().get('namespaces', undefined, workspace.namespace)!;
    expect(before.metadata.labels).not.toHaveProperty('pod-security.kubernetes.io/enforce');
    // Pods there are not refused yet.
    expect(await gatewayPodCreate(workspace.namespace, 'before-labels')).toBe(200);

    expect((await reconciler.reconcileOnce({ all: true })).failed).toBe(0);
    const labelled = store().get('namespaces', undefined, workspace.namespace)!;
    expect(labelled.metadata.labels).toMatchObject({ ...POD_SECURITY_NAMESPACE_LABELS, 'testbed.io/team': team.name });
    expect(labelled.metadata.resourceVersion).not.toBe(before.metadata.resourceVersion);
    expect(await gatewayPodCreate(workspace.namespace, 'after-labels')).toBe(403);

    // Compared before writing: a resync with matching labels leaves the namespace untouched.
    await reconciler.reconcileOnce({ all: true });
    expect(store().get('namespaces', undefined, workspace.namespace)?.metadata.resourceVersion).toBe(labelled.metadata.resourceVersion);
  });

  it('tells the workspace answer which levels apply', async () => {
    const { team, owner } = await teamWithOwner();
    const workspace = await createWorkspace(team.id, owner.token);
    await reconciler.reconcileOnce(); // leaves nothing pending for the tests after this one
    const answer = await inject('GET', `/api/subnamespaces/${workspace.id}`, owner.token);
    expect(answer.statusCode).toBe(200);
    expect(answer.json().pod_security).toEqual({ enforce: 'baseline', warn: 'restricted', audit: 'restricted', version: 'v1.34' });
  });
});

/** Creates a privileged hostPID pod in the namespace with the admin's client; the HTTP status. */
async function gatewayPodCreate(namespace: string, name: string): Promise<number | undefined> {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'sandbox', server: sandbox!.url, caData: Buffer.from(sandbox!.caPem).toString('base64') }],
    users: [{ name: 'admin', token: sandbox!.adminToken }],
    contexts: [{ name: 'admin', cluster: 'sandbox', user: 'admin' }],
    currentContext: 'admin',
  });
  const pod = { metadata: { name }, spec: { hostPID: true, containers: [{ name: 'x', image: 'busybox', securityContext: { privileged: true } }] } };
  return statusCodeOf(kc.makeApiClient(CoreV1Api).createNamespacedPod({ namespace, body: pod }));
}

describe('approvals while the cluster is down converge later', () => {
  it('approves with the cluster down, stays pending, then becomes ready once it is back', async () => {
    await stopSandbox();
    const { team, owner } = await teamWithOwner();
    const workspace = await createWorkspace(team.id, owner.token);
    expect(await workspaceState(workspace.id)).toMatchObject({ cluster_state: 'pending' });

    const failed = await reconciler.reconcileOnce();
    expect(failed.failed).toBeGreaterThan(0);
    expect(await workspaceState(workspace.id)).toMatchObject({ cluster_state: 'pending', cluster_error: expect.any(String) });
    expect(reconciler.lastError).toBeTruthy();

    // The kubeconfig is not ready yet, the pods cannot be listed; never a 500.
    expect((await inject('POST', `/api/subnamespaces/${workspace.id}/kubeconfig`, owner.token)).statusCode).toBe(409);
    const pods = await inject('GET', `/api/pods?namespace=${workspace.namespace}`, owner.token);
    expect(pods.statusCode).toBe(503);
    expect(pods.json().message).toBe('The cluster cannot be reached right now. Try again in a minute.');
    const info = await inject('GET', '/api/cluster', owner.token);
    expect(info.json()).toMatchObject({ mode: 'sandbox', reachable: false });

    await startSandbox();
    const done = await reconciler.reconcileOnce({ all: true });
    expect(done.failed).toBe(0);
    expect(await workspaceState(workspace.id)).toMatchObject({ cluster_state: 'ready', cluster_error: null });
    const member = await database.db.selectFrom('workspace_members').selectAll().where('workspace_id', '=', workspace.id).executeTakeFirstOrThrow();
    expect(member.cluster_state).toBe('ready');
    expect(store().get('namespaces', undefined, workspace.namespace)?.metadata.labels).toMatchObject({ 'testbed.io/team': team.name });
    expect(store().get('rolebindings', workspace.namespace, `testbed-user-${owner.user.id}`)).toBeDefined();
  });

  it('converges by itself within a second or two after a decision when the loop runs', async () => {
    reconciler.start();
    try {
      const { team, owner } = await teamWithOwner();
      const workspace = await createWorkspace(team.id, owner.token);
      const deadline = Date.now() + 3000;
      while ((await workspaceState(workspace.id)).cluster_state !== 'ready') {
        if (Date.now() > deadline) throw new Error('the workspace did not become ready');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(store().get('namespaces', undefined, workspace.namespace)).toBeDefined();
    } finally {
      await reconciler.stop();
    }
  });

  it('marks a permanent refusal as error and the request as Error', async () => {
    const refusing: ClusterGateway = {
      ...gateway,
      ensureWorkspace: () => Promise.reject(new ClusterError('invalid', 'namespace name too long', 422)),
    };
    const { team, owner } = await teamWithOwner();
    const workspace = await createWorkspace(team.id, owner.token);
    const refused = createReconciler({ db: database.db, gateway: refusing });
    await refused.reconcileOnce();
    expect(await workspaceState(workspace.id)).toMatchObject({ cluster_state: 'error', cluster_error: 'namespace name too long' });
    const request = await database.db.selectFrom('requests').selectAll().where('workspace_id', '=', workspace.id).executeTakeFirstOrThrow();
    expect(request.status).toBe('Error');
    expect(request.decision_message).toContain('namespace name too long');
    // Not retried by later passes.
    await reconciler.reconcileOnce({ all: true });
    expect((await workspaceState(workspace.id)).cluster_state).toBe('error');
  });
});

describe('kubeconfigs and pods', () => {
  let team: Awaited<ReturnType<typeof teamWithOwner>>['team'];
  let owner: Awaited<ReturnType<typeof person>>;
  let member: Awaited<ReturnType<typeof person>>;
  let outsider: Awaited<ReturnType<typeof person>>;
  let admin: Awaited<ReturnType<typeof person>>;
  let workspace: Awaited<ReturnType<typeof createWorkspace>>;
  let other: Awaited<ReturnType<typeof createWorkspace>>;

  beforeAll(async () => {
    ({ team, owner } = await teamWithOwner());
    workspace = await createWorkspace(team.id, owner.token);
    other = await createWorkspace(team.id, owner.token);
    member = await joinTeam(team.id);
    outsider = await person();
    admin = await person({ admin: true });
    // The member asks to join the workspace; the owner approves.
    const asked = await inject('PATCH', '/api/requests/workspaces/', member.token, { team_id: team.id, name: workspace.name });
    expect(asked.json().status).toBe('Pending');
    const approved = await inject('PATCH', `/api/requests/${asked.json().id}`, owner.token, { action: 'approve' });
    expect(approved.json().status).toBe('Approved');
    await reconciler.reconcileOnce();
    const states = await database.db.selectFrom('workspace_members').select(['user_id', 'cluster_state']).where('workspace_id', '=', workspace.id).execute();
    expect(states.map((row) => row.cluster_state)).toEqual(['ready', 'ready']);
    expect(store().get('rolebindings', workspace.namespace, `testbed-user-${member.user.id}`)).toBeDefined();

    const adminKc = kubeConfigFor({ server: sandbox!.url, caPem: sandbox!.caPem, token: sandbox!.adminToken });
    await adminKc.makeApiClient(CoreV1Api).createNamespacedPod({
      namespace: workspace.namespace,
      body: { metadata: { name: 'web-1' }, spec: { containers: [{ name: 'main', image: 'nginx:1.27' }] } },
    });
  });

  it('gives a member a YAML kubeconfig whose token works in the namespace and is Forbidden elsewhere', async () => {
    const response = await inject('POST', `/api/subnamespaces/${workspace.id}/kubeconfig`, member.token);
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({ namespace: workspace.namespace, filename: `${workspace.namespace}.kubeconfig` });
    expect(new Date(body.expires_at).getTime()).toBeGreaterThan(Date.now());
    expect(body.kubeconfig).toMatch(/^apiVersion: v1\n/m);
    const parsed = loadYaml<Record<string, any>>(body.kubeconfig);
    expect(parsed['current-context']).toBe(workspace.namespace);
    expect(parsed.contexts[0].context.namespace).toBe(workspace.namespace);
    expect(parsed.clusters[0].cluster.server).toBe(sandbox!.url);
    expect(Buffer.from(parsed.clusters[0].cluster['certificate-authority-data'], 'base64').toString()).toBe(sandbox!.caPem);

    const client = clientFor(body.kubeconfig);
    const pods = await client.listNamespacedPod({ namespace: workspace.namespace });
    expect(pods.items.map((pod) => pod.metadata?.name)).toEqual(['web-1']);
    expect(await statusCodeOf(client.listNamespacedPod({ namespace: other.namespace }))).toBe(403);

    // Revoked (removed from the workspace): the account is gone, so the same token is refused
    // outright, and access given again later needs a new kubeconfig.
    const target = { namespace: workspace.namespace, workspaceId: workspace.id, userId: member.user.id };
    await gateway.revokeMemberAccess(target);
    expect(await statusCodeOf(client.listNamespacedPod({ namespace: workspace.namespace }))).toBe(401);
    await gateway.ensureMemberAccess({ ...target, role: 'member' });
    expect(await statusCodeOf(client.listNamespacedPod({ namespace: workspace.namespace }))).toBe(401);
  });

  it('refuses outsiders and platform admins who are not members (403) and unknown workspaces (404)', async () => {
    expect((await inject('POST', `/api/subnamespaces/${workspace.id}/kubeconfig`, outsider.token)).statusCode).toBe(403);
    expect((await inject('POST', `/api/subnamespaces/${other.id}/kubeconfig`, member.token)).statusCode).toBe(403);
    expect((await inject('POST', '/api/subnamespaces/999999/kubeconfig', member.token)).statusCode).toBe(404);
    expect((await inject('POST', `/api/subnamespaces/${workspace.id}/kubeconfig`)).statusCode).toBe(401);
    const asAdmin = await inject('POST', `/api/subnamespaces/${workspace.id}/kubeconfig`, admin.token);
    expect(asAdmin.statusCode).toBe(403);
    expect(asAdmin.json().message).toBe('You are not a member of this workspace.');
  });

  it('lists pods for members and admins only', async () => {
    const deadline = Date.now() + 3000;
    let pods = (await inject('GET', `/api/pods?namespace=${workspace.namespace}`, member.token)).json();
    while (pods[0]?.status.phase !== 'Running' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      pods = (await inject('GET', `/api/pods?namespace=${workspace.namespace}`, member.token)).json();
    }
    expect(pods).toEqual([
      {
        name: 'web-1',
        namespace: workspace.namespace,
        status: { phase: 'Running', podIP: expect.stringMatching(/^10\.244\./), hostIP: expect.any(String), startTime: expect.any(String) },
      },
    ]);
    expect((await inject('GET', `/api/pods?namespace=${workspace.namespace}`, admin.token)).statusCode).toBe(200);
    expect((await inject('GET', `/api/pods?namespace=${workspace.namespace}`, outsider.token)).statusCode).toBe(403);
    expect((await inject('GET', `/api/pods?namespace=${other.namespace}`, member.token)).statusCode).toBe(403);
    const missing = await inject('GET', '/api/pods', member.token);
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors).toHaveProperty('namespace');
    expect((await inject('GET', '/api/pods?namespace=nope-nothing', member.token)).statusCode).toBe(404);
  });

  it.skipIf(!haveKubectl)('removing a member through the API voids their kubeconfig: kubectl is refused once the reconciler has run', async () => {
    const leaver = await joinTeam(team.id);
    const asked = await inject('PATCH', '/api/requests/workspaces/', leaver.token, { team_id: team.id, name: workspace.name });
    await inject('PATCH', `/api/requests/${asked.json().id}`, owner.token, { action: 'approve' });
    await reconciler.reconcileOnce();
    const download = await inject('POST', `/api/subnamespaces/${workspace.id}/kubeconfig`, leaver.token);
    expect(download.statusCode).toBe(201);
    const file = join(workDir, `leaver-${leaver.user.id}.kubeconfig`);
    writeFileSync(file, download.json().kubeconfig);
    const kubectl = kubectlWith(() => file);
    expect(await kubectl('get', 'pods', '-o', 'name')).toContain('pod/web-1');

    // Who may remove: not another plain member; not a non-member; 404 for someone not in it.
    expect((await inject('DELETE', `/api/subnamespaces/${workspace.id}/users/${leaver.user.id}`, member.token)).statusCode).toBe(403);
    expect((await inject('DELETE', `/api/subnamespaces/${workspace.id}/users/${leaver.user.id}`, outsider.token)).statusCode).toBe(403);
    const notMember = await inject('DELETE', `/api/subnamespaces/${workspace.id}/users/${outsider.user.id}`, owner.token);
    expect(notMember.statusCode).toBe(404);
    expect(notMember.json().message).toBe('This person is not a member of this workspace.');

    const removed = await inject('DELETE', `/api/subnamespaces/${workspace.id}/users/${leaver.user.id}`, owner.token);
    expect(removed.statusCode).toBe(204);
    const shown = (await inject('GET', `/api/subnamespaces/${workspace.id}`, owner.token)).json();
    expect(shown.users.map((u: { id: number }) => u.id)).not.toContain(leaver.user.id);
    expect((await inject('POST', `/api/subnamespaces/${workspace.id}/kubeconfig`, leaver.token)).statusCode).toBe(403);

    await reconciler.reconcileOnce();
    const refused = await kubectl('get', 'pods').catch((error: { stderr: string }) => error.stderr);
    expect(refused).toMatch(/Unauthorized|must be logged in/i);
    expect(await database.db.selectFrom('cluster_revocations').selectAll().execute()).toEqual([]);
    expect(store().get('rolebindings', workspace.namespace, `testbed-user-${leaver.user.id}`)).toBeUndefined();
    const entry = await database.db.selectFrom('activity_log').selectAll().where('description', '=', 'workspace member removed').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(JSON.parse(entry.properties)).toMatchObject({ user_id: leaver.user.id });
  });

  it('a member may leave; the revocation waits while the cluster is down and is applied once it is back', async () => {
    const leaver = await joinTeam(team.id);
    const asked = await inject('PATCH', '/api/requests/workspaces/', leaver.token, { team_id: team.id, name: workspace.name });
    await inject('PATCH', `/api/requests/${asked.json().id}`, owner.token, { action: 'approve' });
    await reconciler.reconcileOnce();
    const client = clientFor((await inject('POST', `/api/subnamespaces/${workspace.id}/kubeconfig`, leaver.token)).json().kubeconfig);
    expect(await statusCodeOf(client.listNamespacedPod({ namespace: workspace.namespace }))).toBe(200);

    await stopSandbox();
    try {
      expect((await inject('DELETE', `/api/subnamespaces/${workspace.id}/users/${leaver.user.id}`, leaver.token)).statusCode).toBe(204);
      const pass = await reconciler.reconcileOnce();
      expect(pass.failed).toBeGreaterThan(0);
      const waiting = await database.db.selectFrom('cluster_revocations').selectAll().where('user_id', '=', leaver.user.id).execute();
      expect(waiting).toHaveLength(1);
      expect(waiting[0].last_error).toBeTruthy();
    } finally {
      await startSandbox();
    }
    // The restarted sandbox forgot its objects; what matters is that the revocation was applied
    // (not dropped) and that the full resync does not give the leaver their binding back.
    await reconciler.reconcileOnce({ all: true });
    expect(await database.db.selectFrom('cluster_revocations').selectAll().where('user_id', '=', leaver.user.id).execute()).toEqual([]);
    expect(store().get('rolebindings', workspace.namespace, `testbed-user-${leaver.user.id}`)).toBeUndefined();
    expect(store().get('rolebindings', workspace.namespace, `testbed-user-${member.user.id}`)).toBeDefined();
  });

  it('GET /api/cluster tells the CA, the server and that it is reachable', async () => {
    const response = await inject('GET', '/api/cluster', member.token);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ca: sandbox!.caPem, server: sandbox!.url, mode: 'sandbox', reachable: true });
  });

  it('answers 503 when the cluster goes away, never 500', async () => {
    await stopSandbox();
    try {
      const kubeconfig = await inject('POST', `/api/subnamespaces/${workspace.id}/kubeconfig`, member.token);
      expect(kubeconfig.statusCode).toBe(503);
      expect(kubeconfig.json().message).toBe('The cluster cannot be reached right now. Try again in a minute.');
      expect((await inject('GET', `/api/pods?namespace=${workspace.namespace}`, member.token)).statusCode).toBe(503);
    } finally {
      await startSandbox();
      await reconciler.reconcileOnce({ all: true });
    }
    expect((await inject('POST', `/api/subnamespaces/${workspace.id}/kubeconfig`, member.token)).statusCode).toBe(201);
  });
});

describe('CLUSTER=none', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('says no cluster is connected', async () => {
    const user = await ctx.signedInUser();
    const info = await ctx.inject('GET', '/api/cluster', { token: user.token });
    expect(info.statusCode).toBe(200);
    expect(info.json()).toEqual({ ca: null, server: null, mode: 'none', reachable: false });

    const now = timestamp();
    const team = await ctx.db
      .insertInto('teams')
      .values({ name: unique('nt'), fullname: 'T', shortname: 'T', affiliation: null, city: null, country: null, url: null, joining_reason: null, joining_category: null, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
    const ws = await ctx.db
      .insertInto('workspaces')
      .values({ team_id: team.id, name: 'w', label: 'W', description: null, namespace: `${team.name}-w`, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
    await ctx.db.insertInto('workspace_members').values({ workspace_id: ws.id, user_id: user.user.id, role: 'manager', created_at: now }).execute();
    const kubeconfig = await ctx.inject('POST', `/api/subnamespaces/${ws.id}/kubeconfig`, { token: user.token });
    expect(kubeconfig.statusCode).toBe(503);
    expect(kubeconfig.json().message).toBe('No cluster is connected to this console.');
    const pods = await ctx.inject('GET', `/api/pods?namespace=${ws.namespace}`, { token: user.token });
    expect(pods.statusCode).toBe(503);
    expect(pods.json().message).toBe('No cluster is connected to this console.');
  });
});
