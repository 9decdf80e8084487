import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CoreV1Api, KubeConfig, loadYaml } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClusterError, type ClusterGateway, IDENTITY_NAMESPACE, WORKSPACE_CLUSTER_ROLES } from '../src/cluster/gateway.js';
import { kubeConfigFor, kubernetesGateway } from '../src/cluster/kubernetesGateway.js';
import { createReconciler } from '../src/cluster/reconciler.js';
import { timestamp } from '../src/db/database.js';
import { createTestContext, eventually, type TestContext, unique, uniqueEmail } from './helpers.js';
import { kubectlAvailable, kubectlWith } from './kubectl.js';

// The cluster gateway and its reconciler against the real sandbox API server over HTTPS,
// and the cluster endpoints of docs/api-contract.md ("Cluster").

const FAST = { scheduleMs: 30, startMs: 80, logIntervalMs: 150, heartbeatMs: 400, terminationMs: 100 };

let ctx: TestContext;

const store = () => ctx.cluster.sandbox.store;

const person = (options: { admin?: boolean } = {}) => ctx.signedInUser({ firstname: 'Kube', lastname: 'User', email: uniqueEmail('kube'), admin: options.admin ?? false });

async function teamWithOwner() {
  const owner = await person();
  const now = timestamp();
  const name = unique('kt');
  const team = await ctx.db
    .insertInto('teams')
    .values({ name, fullname: `Team ${name}`, shortname: name, affiliation: null, city: null, country: 'FR', url: null, joining_reason: null, joining_category: 'Research', created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  await ctx.db.insertInto('team_members').values({ team_id: team.id, user_id: owner.user.id, role: 'owner', enabled: 1, created_at: now }).execute();
  return { team, owner };
}

async function joinTeam(teamId: number) {
  const member = await person();
  await ctx.db.insertInto('team_members').values({ team_id: teamId, user_id: member.user.id, role: 'member', enabled: 1, created_at: timestamp() }).execute();
  return member;
}

/** The owner asks for a workspace: approved at once (they manage the team). */
async function createWorkspace(teamId: number, ownerToken: string) {
  const response = await ctx.inject('POST', '/api/requests/workspaces', { token: ownerToken, body: { label: 'Space', name: unique('ws-'), team_id: teamId } });
  expect(response.statusCode).toBe(201);
  const request = response.json();
  expect(request.status).toBe('Approved');
  return ctx.db.selectFrom('workspaces').selectAll().where('id', '=', request.object.id).executeTakeFirstOrThrow();
}

const workspaceState = async (id: number) =>
  (await ctx.db.selectFrom('workspaces').select(['cluster_state', 'cluster_error']).where('id', '=', id).executeTakeFirstOrThrow());

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
  ctx = await createTestContext({ cluster: { timings: FAST }, reconciler: { pollIntervalMs: 100 } });
});

afterAll(async () => {
  await ctx?.close();
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
      await ctx.cluster.gateway.ensureWorkspace({ namespace, teamName: 'gwteam', workspaceName: 'space' });
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
    await ctx.cluster.gateway.ensureWorkspace({ namespace, teamName: 'gwteam', workspaceName: 'space' });
    expect(store().get('namespaces', undefined, namespace)?.metadata.labels).toMatchObject({ other: 'x', 'testbed.io/team': 'gwteam' });
  });

  it('gives a member a service account per workspace in testbed-identities and a RoleBinding to the console ClusterRole, idempotently; revoking deletes both', async () => {
    const namespace = unique('gwteam-access');
    await ctx.cluster.gateway.ensureWorkspace({ namespace, teamName: 'gwteam', workspaceName: 'access' });
    const target = { namespace, workspaceId: 31, userId: 4242 };
    await ctx.cluster.gateway.ensureClusterRoles();
    for (let round = 0; round < 2; round++) await ctx.cluster.gateway.ensureMemberAccess({ ...target, role: 'member' });
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
    await ctx.cluster.gateway.ensureMemberAccess({ ...target, role: 'manager' });
    expect(store().get('rolebindings', namespace, 'testbed-user-4242')?.roleRef.name).toBe('testbed-workspace-manager');
    store().modify('clusterroles', undefined, 'testbed-workspace-member', (role) => {
      role.rules = [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }];
    });
    await ctx.cluster.gateway.ensureClusterRoles();
    expect(store().get('clusterroles', undefined, 'testbed-workspace-member')?.rules).toEqual(WORKSPACE_CLUSTER_ROLES.member);

    const issued = await ctx.cluster.gateway.issueKubeconfigToken({ ...target, expirationSeconds: 3600 });
    expect(issued.token).toBeTruthy();
    expect(new Date(issued.expiresAt).getTime()).toBeGreaterThan(Date.now());

    await ctx.cluster.gateway.revokeMemberAccess(target);
    await ctx.cluster.gateway.revokeMemberAccess(target);
    expect(store().get('rolebindings', namespace, 'testbed-user-4242')).toBeUndefined();
    expect(store().get('serviceaccounts', IDENTITY_NAMESPACE, 'member-w31-u4242')).toBeUndefined();
  });

  it('maps the cluster errors to ClusterError kinds', async () => {
    const error = await ctx.cluster.gateway.ensureWorkspace({ namespace: 'Not_A_Valid_Name', teamName: 't', workspaceName: 'w' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ClusterError);
    expect(error).toMatchObject({ kind: 'invalid' });
    const missing = await ctx.cluster.gateway.issueKubeconfigToken({ userId: 999999, workspaceId: 1, namespace: 'x', expirationSeconds: 3600 }).catch((caught: unknown) => caught);
    expect(missing).toMatchObject({ kind: 'not-found' });
    expect(await ctx.cluster.gateway.health()).toBe(true);
    expect(ctx.cluster.gateway.clusterInfo()).toEqual({ ca: ctx.cluster.sandbox.caPem, server: ctx.cluster.sandbox.url });
  });

  it('hands out the public API server address (CLUSTER_SERVER_URL) while talking to its own', async () => {
    const kc = kubeConfigFor({ server: ctx.cluster.sandbox.url, caPem: ctx.cluster.sandbox.caPem, token: ctx.cluster.sandbox.adminToken });
    const behindProxy = kubernetesGateway(kc, 'sandbox', { publicServer: 'https://k8s.example.org:6443' });
    expect(await behindProxy.health()).toBe(true);
    expect(behindProxy.clusterInfo()).toEqual({ ca: ctx.cluster.sandbox.caPem, server: 'https://k8s.example.org:6443' });
    const token = await behindProxy.createBootstrapToken({ ttlSeconds: 600, description: 'public address test' });
    expect(token.apiServer).toBe('k8s.example.org:6443');
  });
});

describe('Pod Security labels on workspace namespaces', () => {
  it('the reconciler adds them to a namespace made without them, and writes nothing once they match', async () => {
    const { team, owner } = await teamWithOwner();
    const workspace = await createWorkspace(team.id, owner.token);
    await ctx.reconciler.reconcileOnce();
    expect(store().get('namespaces', undefined, workspace.namespace)?.metadata.labels).toMatchObject(POD_SECURITY_NAMESPACE_LABELS);

    // A namespace as the console made it before Pod Security: its labels without them.
    store().modify('namespaces', undefined, workspace.namespace, (object) => {
      object.metadata.labels = Object.fromEntries(Object.entries(object.metadata.labels ?? {}).filter(([key]) => !key.startsWith('pod-security.')));
    });
    const before = store().get('namespaces', undefined, workspace.namespace)!;
    expect(before.metadata.labels).not.toHaveProperty('pod-security.kubernetes.io/enforce');
    // Pods there are not refused yet.
    expect(await gatewayPodCreate(workspace.namespace, 'before-labels')).toBe(200);

    expect((await ctx.reconciler.reconcileOnce({ all: true })).failed).toBe(0);
    const labelled = store().get('namespaces', undefined, workspace.namespace)!;
    expect(labelled.metadata.labels).toMatchObject({ ...POD_SECURITY_NAMESPACE_LABELS, 'testbed.io/team': team.name });
    expect(labelled.metadata.resourceVersion).not.toBe(before.metadata.resourceVersion);
    expect(await gatewayPodCreate(workspace.namespace, 'after-labels')).toBe(403);

    // Compared before writing: a resync with matching labels leaves the namespace untouched.
    await ctx.reconciler.reconcileOnce({ all: true });
    expect(store().get('namespaces', undefined, workspace.namespace)?.metadata.resourceVersion).toBe(labelled.metadata.resourceVersion);
  });

  it('tells the workspace answer which levels apply', async () => {
    const { team, owner } = await teamWithOwner();
    const workspace = await createWorkspace(team.id, owner.token);
    await ctx.reconciler.reconcileOnce(); // leaves nothing pending for the tests after this one
    const answer = await ctx.inject('GET', `/api/subnamespaces/${workspace.id}`, { token: owner.token });
    expect(answer.statusCode).toBe(200);
    expect(answer.json().pod_security).toEqual({ enforce: 'baseline', warn: 'restricted', audit: 'restricted', version: 'v1.34' });
  });
});

/** Creates a privileged hostPID pod in the namespace with the admin's client; the HTTP status. */
async function gatewayPodCreate(namespace: string, name: string): Promise<number | undefined> {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'sandbox', server: ctx.cluster.sandbox.url, caData: Buffer.from(ctx.cluster.sandbox.caPem).toString('base64') }],
    users: [{ name: 'admin', token: ctx.cluster.sandbox.adminToken }],
    contexts: [{ name: 'admin', cluster: 'sandbox', user: 'admin' }],
    currentContext: 'admin',
  });
  const pod = { metadata: { name }, spec: { hostPID: true, containers: [{ name: 'x', image: 'busybox', securityContext: { privileged: true } }] } };
  return statusCodeOf(kc.makeApiClient(CoreV1Api).createNamespacedPod({ namespace, body: pod }));
}

describe('approvals while the cluster is down converge later', () => {
  it('approves with the cluster down, stays pending, then becomes ready once it is back', async () => {
    await ctx.cluster.stop();
    const { team, owner } = await teamWithOwner();
    const workspace = await createWorkspace(team.id, owner.token);
    expect(await workspaceState(workspace.id)).toMatchObject({ cluster_state: 'pending' });

    const failed = await ctx.reconciler.reconcileOnce();
    expect(failed.failed).toBeGreaterThan(0);
    expect(await workspaceState(workspace.id)).toMatchObject({ cluster_state: 'pending', cluster_error: expect.any(String) });
    expect(ctx.reconciler.lastError).toBeTruthy();

    // The kubeconfig is not ready yet, the pods cannot be listed; never a 500.
    expect((await ctx.inject('POST', `/api/subnamespaces/${workspace.id}/kubeconfig`, { token: owner.token })).statusCode).toBe(409);
    const pods = await ctx.inject('GET', `/api/pods?namespace=${workspace.namespace}`, { token: owner.token });
    expect(pods.statusCode).toBe(503);
    expect(pods.json().message).toBe('The cluster cannot be reached right now. Try again in a minute.');
    const info = await ctx.inject('GET', '/api/cluster', { token: owner.token });
    expect(info.json()).toMatchObject({ mode: 'sandbox', reachable: false });

    await ctx.cluster.start();
    const done = await ctx.reconciler.reconcileOnce({ all: true });
    expect(done.failed).toBe(0);
    expect(await workspaceState(workspace.id)).toMatchObject({ cluster_state: 'ready', cluster_error: null });
    const member = await ctx.db.selectFrom('workspace_members').selectAll().where('workspace_id', '=', workspace.id).executeTakeFirstOrThrow();
    expect(member.cluster_state).toBe('ready');
    expect(store().get('namespaces', undefined, workspace.namespace)?.metadata.labels).toMatchObject({ 'testbed.io/team': team.name });
    expect(store().get('rolebindings', workspace.namespace, `testbed-user-${owner.user.id}`)).toBeDefined();
  });

  it('converges by itself within a second or two after a decision when the loop runs', async () => {
    ctx.reconciler.start();
    try {
      const { team, owner } = await teamWithOwner();
      const workspace = await createWorkspace(team.id, owner.token);
      await eventually(async () => (await workspaceState(workspace.id)).cluster_state === 'ready', { what: 'the workspace to become ready', timeoutMs: 3000, intervalMs: 50 });
      expect(store().get('namespaces', undefined, workspace.namespace)).toBeDefined();
    } finally {
      await ctx.reconciler.stop();
    }
  });

  it('leaves a workspace pending when its quota changes while a pass applies the former one', async () => {
    const { team, owner } = await teamWithOwner();
    const workspace = await createWorkspace(team.id, owner.token);
    await ctx.reconciler.reconcileOnce();
    // An admin's quota change lands between the pass's read and its `ready`.
    const racing: ClusterGateway = {
      ...ctx.cluster.gateway,
      ensureWorkspace: async (target) => {
        await ctx.cluster.gateway.ensureWorkspace(target);
        await ctx.db.updateTable('workspaces').set({ quota_cpu: '3', quota_pods: 20, cluster_state: 'pending' }).where('id', '=', workspace.id).execute();
      },
    };
    await createReconciler({ db: ctx.db, gateway: racing }).reconcileOnce({ all: true });
    expect((await workspaceState(workspace.id)).cluster_state).toBe('pending');
    // The next pass applies the new quota.
    await ctx.reconciler.reconcileOnce();
    expect((await workspaceState(workspace.id)).cluster_state).toBe('ready');
    expect(store().get('resourcequotas', workspace.namespace, 'testbed-quota')?.spec).toMatchObject({ hard: { 'requests.cpu': '3', pods: '20' } });
  });

  it('marks a permanent refusal as error and the request as Error', async () => {
    const refusing: ClusterGateway = {
      ...ctx.cluster.gateway,
      ensureWorkspace: () => Promise.reject(new ClusterError('invalid', 'namespace name too long', 422)),
    };
    const { team, owner } = await teamWithOwner();
    const workspace = await createWorkspace(team.id, owner.token);
    const refused = createReconciler({ db: ctx.db, gateway: refusing });
    await refused.reconcileOnce();
    expect(await workspaceState(workspace.id)).toMatchObject({ cluster_state: 'error', cluster_error: 'namespace name too long' });
    const request = await ctx.db.selectFrom('requests').selectAll().where('workspace_id', '=', workspace.id).executeTakeFirstOrThrow();
    expect(request.status).toBe('Error');
    expect(request.decision_message).toContain('namespace name too long');
    // Not retried by later passes.
    await ctx.reconciler.reconcileOnce({ all: true });
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
    const asked = await ctx.inject('PATCH', '/api/requests/workspaces/', { token: member.token, body: { team_id: team.id, name: workspace.name } });
    expect(asked.json().status).toBe('Pending');
    const approved = await ctx.inject('PATCH', `/api/requests/${asked.json().id}`, { token: owner.token, body: { action: 'approve' } });
    expect(approved.json().status).toBe('Approved');
    await ctx.reconciler.reconcileOnce();
    const states = await ctx.db.selectFrom('workspace_members').select(['user_id', 'cluster_state']).where('workspace_id', '=', workspace.id).execute();
    expect(states.map((row) => row.cluster_state)).toEqual(['ready', 'ready']);
    expect(store().get('rolebindings', workspace.namespace, `testbed-user-${member.user.id}`)).toBeDefined();

    const adminKc = kubeConfigFor({ server: ctx.cluster.sandbox.url, caPem: ctx.cluster.sandbox.caPem, token: ctx.cluster.sandbox.adminToken });
    await adminKc.makeApiClient(CoreV1Api).createNamespacedPod({
      namespace: workspace.namespace,
      body: { metadata: { name: 'web-1' }, spec: { containers: [{ name: 'main', image: 'nginx:1.27' }] } },
    });
  });

  it('gives a member a YAML kubeconfig whose token works in the namespace and is Forbidden elsewhere', async () => {
    const response = await ctx.inject('POST', `/api/subnamespaces/${workspace.id}/kubeconfig`, { token: member.token });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({ namespace: workspace.namespace, filename: `${workspace.namespace}.kubeconfig` });
    expect(new Date(body.expires_at).getTime()).toBeGreaterThan(Date.now());
    expect(body.kubeconfig).toMatch(/^apiVersion: v1\n/m);
    const parsed = loadYaml<Record<string, any>>(body.kubeconfig);
    expect(parsed['current-context']).toBe(workspace.namespace);
    expect(parsed.contexts[0].context.namespace).toBe(workspace.namespace);
    expect(parsed.clusters[0].cluster.server).toBe(ctx.cluster.sandbox.url);
    expect(Buffer.from(parsed.clusters[0].cluster['certificate-authority-data'], 'base64').toString()).toBe(ctx.cluster.sandbox.caPem);

    const client = clientFor(body.kubeconfig);
    const pods = await client.listNamespacedPod({ namespace: workspace.namespace });
    expect(pods.items.map((pod) => pod.metadata?.name)).toEqual(['web-1']);
    expect(await statusCodeOf(client.listNamespacedPod({ namespace: other.namespace }))).toBe(403);

    // Revoked (removed from the workspace): the account is gone, so the same token is refused
    // outright, and access given again later needs a new kubeconfig.
    const target = { namespace: workspace.namespace, workspaceId: workspace.id, userId: member.user.id };
    await ctx.cluster.gateway.revokeMemberAccess(target);
    expect(await statusCodeOf(client.listNamespacedPod({ namespace: workspace.namespace }))).toBe(401);
    await ctx.cluster.gateway.ensureMemberAccess({ ...target, role: 'member' });
    expect(await statusCodeOf(client.listNamespacedPod({ namespace: workspace.namespace }))).toBe(401);
  });

  it('refuses outsiders and platform admins who are not members (403) and unknown workspaces (404)', async () => {
    expect((await ctx.inject('POST', `/api/subnamespaces/${workspace.id}/kubeconfig`, { token: outsider.token })).statusCode).toBe(403);
    expect((await ctx.inject('POST', `/api/subnamespaces/${other.id}/kubeconfig`, { token: member.token })).statusCode).toBe(403);
    expect((await ctx.inject('POST', '/api/subnamespaces/999999/kubeconfig', { token: member.token })).statusCode).toBe(404);
    expect((await ctx.inject('POST', `/api/subnamespaces/${workspace.id}/kubeconfig`)).statusCode).toBe(401);
    const asAdmin = await ctx.inject('POST', `/api/subnamespaces/${workspace.id}/kubeconfig`, { token: admin.token });
    expect(asAdmin.statusCode).toBe(403);
    expect(asAdmin.json().message).toBe('You are not a member of this workspace.');
  });

  it('lists pods for members and admins only', async () => {
    const pods = await eventually(
      async () => {
        const listed = (await ctx.inject('GET', `/api/pods?namespace=${workspace.namespace}`, { token: member.token })).json();
        expect(listed[0]?.status.phase).toBe('Running');
        return listed;
      },
      { timeoutMs: 3000, intervalMs: 50 },
    );
    expect(pods).toEqual([
      {
        name: 'web-1',
        namespace: workspace.namespace,
        status: { phase: 'Running', podIP: expect.stringMatching(/^10\.244\./), hostIP: expect.any(String), startTime: expect.any(String) },
      },
    ]);
    expect((await ctx.inject('GET', `/api/pods?namespace=${workspace.namespace}`, { token: admin.token })).statusCode).toBe(200);
    expect((await ctx.inject('GET', `/api/pods?namespace=${workspace.namespace}`, { token: outsider.token })).statusCode).toBe(403);
    expect((await ctx.inject('GET', `/api/pods?namespace=${other.namespace}`, { token: member.token })).statusCode).toBe(403);
    const missing = await ctx.inject('GET', '/api/pods', { token: member.token });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors).toHaveProperty('namespace');
    expect((await ctx.inject('GET', '/api/pods?namespace=nope-nothing', { token: member.token })).statusCode).toBe(404);
  });

  it.skipIf(!haveKubectl)('removing a member through the API voids their kubeconfig: kubectl is refused once the reconciler has run', async () => {
    const leaver = await joinTeam(team.id);
    const asked = await ctx.inject('PATCH', '/api/requests/workspaces/', { token: leaver.token, body: { team_id: team.id, name: workspace.name } });
    await ctx.inject('PATCH', `/api/requests/${asked.json().id}`, { token: owner.token, body: { action: 'approve' } });
    await ctx.reconciler.reconcileOnce();
    const download = await ctx.inject('POST', `/api/subnamespaces/${workspace.id}/kubeconfig`, { token: leaver.token });
    expect(download.statusCode).toBe(201);
    const file = join(ctx.dir, `leaver-${leaver.user.id}.kubeconfig`);
    writeFileSync(file, download.json().kubeconfig);
    const kubectl = kubectlWith(() => file);
    expect(await kubectl('get', 'pods', '-o', 'name')).toContain('pod/web-1');

    // Who may remove: not another plain member; not a non-member; 404 for someone not in it.
    expect((await ctx.inject('DELETE', `/api/subnamespaces/${workspace.id}/users/${leaver.user.id}`, { token: member.token })).statusCode).toBe(403);
    expect((await ctx.inject('DELETE', `/api/subnamespaces/${workspace.id}/users/${leaver.user.id}`, { token: outsider.token })).statusCode).toBe(403);
    const notMember = await ctx.inject('DELETE', `/api/subnamespaces/${workspace.id}/users/${outsider.user.id}`, { token: owner.token });
    expect(notMember.statusCode).toBe(404);
    expect(notMember.json().message).toBe('This person is not a member of this workspace.');

    const removed = await ctx.inject('DELETE', `/api/subnamespaces/${workspace.id}/users/${leaver.user.id}`, { token: owner.token });
    expect(removed.statusCode).toBe(204);
    const shown = (await ctx.inject('GET', `/api/subnamespaces/${workspace.id}`, { token: owner.token })).json();
    expect(shown.users.map((u: { id: number }) => u.id)).not.toContain(leaver.user.id);
    expect((await ctx.inject('POST', `/api/subnamespaces/${workspace.id}/kubeconfig`, { token: leaver.token })).statusCode).toBe(403);

    await ctx.reconciler.reconcileOnce();
    const refused = await kubectl('get', 'pods').catch((error: { stderr: string }) => error.stderr);
    expect(refused).toMatch(/Unauthorized|must be logged in/i);
    expect(await ctx.db.selectFrom('cluster_revocations').selectAll().execute()).toEqual([]);
    expect(store().get('rolebindings', workspace.namespace, `testbed-user-${leaver.user.id}`)).toBeUndefined();
    const entry = await ctx.db.selectFrom('activity_log').selectAll().where('description', '=', 'workspace member removed').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(JSON.parse(entry.properties)).toMatchObject({ user_id: leaver.user.id });
  });

  it('a member may leave; the revocation waits while the cluster is down and is applied once it is back', async () => {
    const leaver = await joinTeam(team.id);
    const asked = await ctx.inject('PATCH', '/api/requests/workspaces/', { token: leaver.token, body: { team_id: team.id, name: workspace.name } });
    await ctx.inject('PATCH', `/api/requests/${asked.json().id}`, { token: owner.token, body: { action: 'approve' } });
    await ctx.reconciler.reconcileOnce();
    const client = clientFor((await ctx.inject('POST', `/api/subnamespaces/${workspace.id}/kubeconfig`, { token: leaver.token })).json().kubeconfig);
    expect(await statusCodeOf(client.listNamespacedPod({ namespace: workspace.namespace }))).toBe(200);

    await ctx.cluster.stop();
    try {
      expect((await ctx.inject('DELETE', `/api/subnamespaces/${workspace.id}/users/${leaver.user.id}`, { token: leaver.token })).statusCode).toBe(204);
      const pass = await ctx.reconciler.reconcileOnce();
      expect(pass.failed).toBeGreaterThan(0);
      const waiting = await ctx.db.selectFrom('cluster_revocations').selectAll().where('user_id', '=', leaver.user.id).execute();
      expect(waiting).toHaveLength(1);
      expect(waiting[0].last_error).toBeTruthy();
    } finally {
      await ctx.cluster.start();
    }
    // The restarted sandbox forgot its objects; what matters is that the revocation was applied
    // (not dropped) and that the full resync does not give the leaver their binding back.
    await ctx.reconciler.reconcileOnce({ all: true });
    expect(await ctx.db.selectFrom('cluster_revocations').selectAll().where('user_id', '=', leaver.user.id).execute()).toEqual([]);
    expect(store().get('rolebindings', workspace.namespace, `testbed-user-${leaver.user.id}`)).toBeUndefined();
    expect(store().get('rolebindings', workspace.namespace, `testbed-user-${member.user.id}`)).toBeDefined();
  });

  it('GET /api/cluster tells the CA, the server and that it is reachable', async () => {
    const response = await ctx.inject('GET', '/api/cluster', { token: member.token });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ca: ctx.cluster.sandbox.caPem, server: ctx.cluster.sandbox.url, mode: 'sandbox', reachable: true });
  });

  it('answers 503 when the cluster goes away, never 500', async () => {
    await ctx.cluster.stop();
    try {
      const kubeconfig = await ctx.inject('POST', `/api/subnamespaces/${workspace.id}/kubeconfig`, { token: member.token });
      expect(kubeconfig.statusCode).toBe(503);
      expect(kubeconfig.json().message).toBe('The cluster cannot be reached right now. Try again in a minute.');
      expect((await ctx.inject('GET', `/api/pods?namespace=${workspace.namespace}`, { token: member.token })).statusCode).toBe(503);
    } finally {
      await ctx.cluster.start();
      await ctx.reconciler.reconcileOnce({ all: true });
    }
    expect((await ctx.inject('POST', `/api/subnamespaces/${workspace.id}/kubeconfig`, { token: member.token })).statusCode).toBe(201);
  });
});

describe('CLUSTER=none', () => {
  let plain: TestContext;
  beforeAll(async () => {
    plain = await createTestContext();
  });
  afterAll(async () => {
    await plain?.close();
  });

  it('says no cluster is connected', async () => {
    const user = await plain.signedInUser();
    const info = await plain.inject('GET', '/api/cluster', { token: user.token });
    expect(info.statusCode).toBe(200);
    expect(info.json()).toEqual({ ca: null, server: null, mode: 'none', reachable: false });

    const now = timestamp();
    const team = await plain.db
      .insertInto('teams')
      .values({ name: unique('nt'), fullname: 'T', shortname: 'T', affiliation: null, city: null, country: null, url: null, joining_reason: null, joining_category: null, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
    const ws = await plain.db
      .insertInto('workspaces')
      .values({ team_id: team.id, name: 'w', label: 'W', description: null, namespace: `${team.name}-w`, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
    await plain.db.insertInto('workspace_members').values({ workspace_id: ws.id, user_id: user.user.id, role: 'manager', created_at: now }).execute();
    const kubeconfig = await plain.inject('POST', `/api/subnamespaces/${ws.id}/kubeconfig`, { token: user.token });
    expect(kubeconfig.statusCode).toBe(503);
    expect(kubeconfig.json().message).toBe('No cluster is connected to this console.');
    const pods = await plain.inject('GET', `/api/pods?namespace=${ws.namespace}`, { token: user.token });
    expect(pods.statusCode).toBe(503);
    expect(pods.json().message).toBe('No cluster is connected to this console.');
  });
});
