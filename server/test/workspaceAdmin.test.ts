import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timestamp } from '../src/db/database.js';
import type { TeamRole } from '../src/db/schema.js';
import { createTestContext, eventually, type SignedInUser, type TestContext, unique, uniqueEmail } from './helpers.js';
import { FAST_SANDBOX_TIMINGS, kubectlAvailable, KUBECTL, runFile } from './kubectl.js';
import { connected, subscribeOutcome } from './realtimeClients.js';

// Platform admins and one workspace: GET/PATCH/DELETE /api/admin/workspaces/{id}
// against the real sandbox API server over HTTPS, the real reconciler, real SMTP, the real
// realtime server with pusher-js, and kubectl with a member's downloaded kubeconfig.

const haveKubectl = kubectlAvailable('server/test/workspaceAdmin.test.ts', 'workspace quotas and deletion');

let ctx: TestContext;

const person = (options: { admin?: boolean; firstname?: string } = {}) =>
  ctx.signedInUser({ firstname: options.firstname ?? 'Wanda', lastname: 'Space', email: uniqueEmail('wsadmin'), admin: options.admin ?? false });

async function joinTeam(teamId: number, userId: number, role: TeamRole) {
  await ctx.db.insertInto('team_members').values({ team_id: teamId, user_id: userId, role, enabled: 1, created_at: timestamp() }).execute();
}

/**
 * A team (owner, plain member), a workspace its owner created through the API (so it is
 * approved at once, with its 'workspace created' entry), the member in it; made in the cluster.
 */
async function world() {
  const [owner, member, outsider] = await Promise.all([person({ firstname: 'Olga' }), person({ firstname: 'Milo' }), person({ firstname: 'Otis' })]);
  const now = timestamp();
  const name = unique('wa');
  const team = await ctx.db
    .insertInto('teams')
    .values({ name, fullname: `Team ${name}`, shortname: name, affiliation: null, city: null, country: 'FR', url: null, joining_reason: null, joining_category: 'Research', created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  await joinTeam(team.id, owner.user.id, 'owner');
  await joinTeam(team.id, member.user.id, 'member');
  const created = await ctx.inject('POST', '/api/requests/workspaces', { token: owner.token, body: { label: 'Vision lab', name: unique('ws-'), team_id: team.id } });
  expect(created.statusCode).toBe(201);
  const workspace = await ctx.db.selectFrom('workspaces').selectAll().where('id', '=', created.json().object.id).executeTakeFirstOrThrow();
  await ctx.db.insertInto('workspace_members').values({ workspace_id: workspace.id, user_id: member.user.id, role: 'member', created_at: timestamp() }).execute();
  await ctx.reconciler.reconcileOnce();
  return { team, workspace, owner, member, outsider };
}

const quotaInSandbox = (namespace: string) => ctx.cluster.sandbox.store.get('resourcequotas', namespace, 'testbed-quota');

/** A member's kubeconfig, downloaded as the console does, written to a file for kubectl. */
async function kubeconfigFile(workspaceId: number, who: SignedInUser): Promise<string> {
  const answer = await ctx.inject('POST', `/api/subnamespaces/${workspaceId}/kubeconfig`, { token: who.token });
  expect(answer.statusCode).toBe(201);
  const file = join(ctx.dir, `${unique('kc')}.kubeconfig`);
  writeFileSync(file, answer.json().kubeconfig);
  return file;
}

const kubectl = async (file: string, ...args: string[]) => runFile(KUBECTL, ['--kubeconfig', file, ...args], { timeout: 20_000 });

let admin: SignedInUser;

beforeAll(async () => {
  ctx = await createTestContext({ cluster: { timings: FAST_SANDBOX_TIMINGS }, reconciler: true, realtime: true });
  admin = await person({ admin: true, firstname: 'Ada' });
});

afterAll(async () => {
  await ctx?.close();
});

describe('who may', () => {
  it('answers admins only: 401 anonymous, 403 for the team owner, a member and an outsider, for GET, PATCH and DELETE', async () => {
    const { workspace, owner, member, outsider } = await world();
    const url = `/api/admin/workspaces/${workspace.id}`;
    const body = { quota: { pods: 7 } };
    for (const [method, payload] of [['GET', undefined], ['PATCH', body], ['DELETE', undefined]] as const) {
      expect((await ctx.inject(method, url, { body: payload })).statusCode, `${method} anonymous`).toBe(401);
      for (const [who, caller] of Object.entries({ owner, member, outsider })) {
        const answer = await ctx.inject(method, url, { token: caller.token, body: payload });
        expect(answer.statusCode, `${method} as ${who}`).toBe(403);
        expect(answer.json().message).toBeTruthy();
      }
    }
    // Nothing happened: the workspace is there, with the default quota.
    const row = await ctx.db.selectFrom('workspaces').selectAll().where('id', '=', workspace.id).executeTakeFirstOrThrow();
    expect(row.quota_pods).toBeNull();
    expect((await ctx.inject('GET', url, { token: admin.token })).statusCode).toBe(200);
    expect((await ctx.inject('GET', '/api/admin/workspaces/999999', { token: admin.token })).statusCode).toBe(404);
    expect((await ctx.inject('PATCH', '/api/admin/workspaces/999999', { token: admin.token, body })).statusCode).toBe(404);
    expect((await ctx.inject('DELETE', '/api/admin/workspaces/999999', { token: admin.token })).statusCode).toBe(404);
  });
});

describe('GET /api/admin/workspaces/{id}', () => {
  it('gives the team, members with emails and roles, counts, quota (database and cluster), pod security, cluster state and activity', async () => {
    const { team, workspace, owner, member } = await world();
    const requester = await person();
    await joinTeam(team.id, requester.user.id, 'member');
    const asked = await ctx.inject('PATCH', '/api/requests/workspaces/', { token: requester.token, body: { team_id: team.id, name: workspace.name } });
    expect(asked.json().status).toBe('Pending');
    const answer = await ctx.inject('GET', `/api/admin/workspaces/${workspace.id}`, { token: admin.token });
    expect(answer.statusCode).toBe(200);
    const detail = answer.json();
    expect(detail).toMatchObject({
      id: workspace.id,
      name: workspace.name,
      label: 'Vision lab',
      namespace: workspace.namespace,
      team: { id: team.id, name: team.name, fullname: team.fullname },
      counts: { members: 2, managers: 1, pending_requests: 1 },
      pod_security: { enforce: 'baseline', warn: 'restricted', audit: 'restricted', version: 'v1.34' },
      cluster: { state: 'ready', error: null },
      quota: {
        values: { cpu: '8', memory: '16Gi', pods: 50, storage: '100Gi' },
        own: { cpu: null, memory: null, pods: null, storage: null },
        defaults: { cpu: '8', memory: '16Gi', pods: 50, storage: '100Gi' },
      },
    });
    expect(detail.users).toEqual([
      expect.objectContaining({ id: owner.user.id, email: owner.user.email, role: 'manager', enabled: true }),
      expect.objectContaining({ id: member.user.id, email: member.user.email, role: 'member', name: 'Milo Space' }),
    ]);
    expect(detail.quota.cluster.hard).toMatchObject({ 'requests.cpu': '8', 'limits.cpu': '16', pods: '50', 'requests.storage': '100Gi' });
    expect(detail.activity.map((entry: { description: string }) => entry.description)).toContain('workspace created');
  });

  it('still opens when the cluster cannot say (quota.cluster null)', async () => {
    const { workspace } = await world();
    await ctx.db.updateTable('workspaces').set({ namespace: unique('missing-ns') }).where('id', '=', workspace.id).execute();
    const answer = await ctx.inject('GET', `/api/admin/workspaces/${workspace.id}`, { token: admin.token });
    expect(answer.statusCode).toBe(200);
    expect(answer.json().quota.cluster).toBeNull();
  });
});

describe('PATCH /api/admin/workspaces/{id} (quota)', () => {
  let validationWorld: ReturnType<typeof world> | undefined;
  it.each([
    [{ quota: { cpu: 'lots' } }, 'quota.cpu', 'must be a CPU quantity'],
    [{ quota: { cpu: '0' } }, 'quota.cpu', 'greater than 0'],
    [{ quota: { cpu: '2000' } }, 'quota.cpu', 'not be greater than 1024'],
    [{ quota: { cpu: '1.5m' } }, 'quota.cpu', 'must be a CPU quantity'],
    [{ quota: { cpu: 4 } }, 'quota.cpu', 'must be a CPU quantity'],
    [{ quota: { memory: '16GB' } }, 'quota.memory', 'must be a size'],
    [{ quota: { memory: '16' } }, 'quota.memory', 'must be a size'],
    [{ quota: { memory: '17Ti' } }, 'quota.memory', 'not be greater than 16Ti'],
    [{ quota: { storage: '-1Gi' } }, 'quota.storage', 'must be a size'],
    [{ quota: { storage: '0Gi' } }, 'quota.storage', 'greater than 0'],
    [{ quota: { pods: 0 } }, 'quota.pods', 'at least 1'],
    [{ quota: { pods: 2.5 } }, 'quota.pods', 'whole number'],
    [{ quota: { pods: '20' } }, 'quota.pods', 'whole number'],
    [{ quota: { pods: 100_000 } }, 'quota.pods', 'not be greater than 10000'],
    [{ quota: 'big' }, 'quota', 'must be an object'],
    [{}, 'quota', 'Give the quota, expires_at or both.'],
  ])('refuses %j with a 422 on %s', async (body, field, message) => {
    // One workspace serves every refusal: none of them may change it.
    validationWorld ??= world();
    const { workspace } = await validationWorld;
    const answer = await ctx.inject('PATCH', `/api/admin/workspaces/${workspace.id}`, { token: admin.token, body });
    expect(answer.statusCode).toBe(422);
    expect(answer.json().errors[field]?.join(' ')).toContain(message);
    // One message per field, not every rule the value broke.
    expect(answer.json().errors[field]).toHaveLength(1);
    const row = await ctx.db.selectFrom('workspaces').selectAll().where('id', '=', workspace.id).executeTakeFirstOrThrow();
    expect([row.quota_cpu, row.quota_memory, row.quota_pods, row.quota_storage]).toEqual([null, null, null, null]);
  });

  it('stores the quota, records it, and the reconciler puts it on the ResourceQuota (read back with kubectl); null restores a default', async () => {
    const { workspace, member } = await world();
    const url = `/api/admin/workspaces/${workspace.id}`;
    const answer = await ctx.inject('PATCH', url, { token: admin.token, body: { quota: { cpu: '2500m', memory: '4Gi', pods: 20, storage: '50G' } } });
    expect(answer.statusCode).toBe(200);
    expect(answer.json().quota).toMatchObject({
      values: { cpu: '2500m', memory: '4Gi', pods: 20, storage: '50G' },
      own: { cpu: '2500m', memory: '4Gi', pods: 20, storage: '50G' },
    });
    const row = await ctx.db.selectFrom('workspaces').selectAll().where('id', '=', workspace.id).executeTakeFirstOrThrow();
    expect(row.cluster_state).toBe('pending');
    const entry = await ctx.db
      .selectFrom('activity_log')
      .selectAll()
      .where('subject_type', '=', 'workspace')
      .where('subject_id', '=', workspace.id)
      .where('description', '=', 'workspace quota changed')
      .executeTakeFirstOrThrow();
    expect(entry.causer_id).toBe(admin.user.id);
    expect(JSON.parse(entry.properties)).toMatchObject({ before: { cpu: null }, after: { cpu: '2500m', pods: 20 } });

    await ctx.reconciler.reconcileOnce();
    expect(quotaInSandbox(workspace.namespace)?.spec).toMatchObject({
      hard: { 'requests.cpu': '2500m', 'limits.cpu': '5000m', 'requests.memory': '4Gi', 'limits.memory': '8Gi', pods: '20', 'requests.storage': '50G', services: '20' },
    });
    expect((await ctx.inject('GET', url, { token: admin.token })).json().quota.cluster.hard).toMatchObject({ 'requests.cpu': '2500m', pods: '20' });
    // The team's admin page shows the same quota for this workspace.
    const teamPage = (await ctx.inject('GET', `/api/admin/teams/${workspace.team_id}`, { token: admin.token })).json();
    expect(teamPage.workspaces.find((entry: { id: number }) => entry.id === workspace.id).quota).toMatchObject({
      'requests.cpu': '2500m',
      'limits.cpu': '5000m',
      pods: '20',
      'requests.storage': '50G',
    });

    // Compared before writing: a full resync leaves an unchanged quota alone.
    const version = quotaInSandbox(workspace.namespace)?.metadata.resourceVersion;
    await ctx.reconciler.reconcileOnce({ all: true });
    expect(quotaInSandbox(workspace.namespace)?.metadata.resourceVersion).toBe(version);

    if (haveKubectl) {
      // The console's member role may read its namespace's quota (WORKSPACE_CLUSTER_ROLES).
      const file = await kubeconfigFile(workspace.id, member);
      const { stdout } = await kubectl(file, 'get', 'resourcequota', 'testbed-quota', '-o', 'json');
      expect(JSON.parse(stdout).spec.hard).toMatchObject({ 'requests.cpu': '2500m', pods: '20', 'requests.memory': '4Gi' });
    }

    // Only what is sent changes; null goes back to the default; `K` is written as Kubernetes' `k`.
    const reset = await ctx.inject('PATCH', url, { token: admin.token, body: { quota: { cpu: null, memory: '512000K' } } });
    expect(reset.statusCode).toBe(200);
    expect(reset.json().quota.own).toEqual({ cpu: null, memory: '512000k', pods: 20, storage: '50G' });
    await ctx.reconciler.reconcileOnce();
    expect(quotaInSandbox(workspace.namespace)?.spec.hard).toMatchObject({ 'requests.cpu': '8', 'limits.cpu': '16', 'requests.memory': '512000k', pods: '20' });
  });
});

describe('DELETE /api/admin/workspaces/{id}', () => {
  it('deletes the workspace: namespace gone after the reconciler pass, members lose access and are told (mail and realtime), requests closed, recorded', async () => {
    const { team, workspace, owner, member } = await world();
    const kubeconfig = haveKubectl ? await kubeconfigFile(workspace.id, member) : null;
    if (kubeconfig) await kubectl(kubeconfig, 'get', 'pods');
    const requester = await person();
    await joinTeam(team.id, requester.user.id, 'member');
    const asked = await ctx.inject('PATCH', '/api/requests/workspaces/', { token: requester.token, body: { team_id: team.id, name: workspace.name } });
    expect(asked.statusCode).toBe(201);
    expect(asked.json().status).toBe('Pending');

    // The member listens on their user channel, as the console does.
    const client = ctx.realtime.pusher(member.token);
    await connected(client);
    const channel = `private-App.User.${member.user.id}`;
    expect(await subscribeOutcome(client, channel)).toEqual({ ok: true });
    const events: unknown[] = [];
    client.channel(channel).bind('WorkspaceDeleted', (payload: unknown) => events.push(payload));

    const answer = await ctx.inject('DELETE', `/api/admin/workspaces/${workspace.id}`, { token: admin.token });
    expect(answer.statusCode).toBe(204);

    expect((await ctx.inject('GET', `/api/admin/workspaces/${workspace.id}`, { token: admin.token })).statusCode).toBe(404);
    expect(await ctx.db.selectFrom('workspace_members').select('id').where('workspace_id', '=', workspace.id).execute()).toEqual([]);
    const request = await ctx.db.selectFrom('requests').selectAll().where('id', '=', asked.json().id).executeTakeFirstOrThrow();
    expect(request.status).toBe('Denied');
    const entry = await ctx.db
      .selectFrom('activity_log')
      .selectAll()
      .where('subject_type', '=', 'workspace')
      .where('subject_id', '=', workspace.id)
      .where('description', '=', 'workspace deleted')
      .executeTakeFirstOrThrow();
    expect(entry.causer_id).toBe(admin.user.id);

    // Told: each member by mail, and on their user channel.
    for (const who of [owner, member]) {
      const mail = await ctx.mailbox.waitFor(who.user.email, { subject: /^Workspace deleted: Vision lab/ });
      expect(mail.text).toContain(workspace.namespace);
      expect(mail.text).toContain('Ada Space');
    }
    expect(ctx.mailbox.messagesTo(requester.user.email).filter((mail) => /Workspace deleted/.test(mail.subject))).toEqual([]);
    await eventually(() => events.length > 0, { what: 'the WorkspaceDeleted event' });
    expect(events[0]).toMatchObject({ id: workspace.id, namespace: workspace.namespace, label: 'Vision lab', team: { id: team.id } });

    // The cluster follows on the reconciler's pass: namespace and service accounts gone.
    expect(ctx.cluster.sandbox.store.get('namespaces', undefined, workspace.namespace)).toBeDefined();
    await ctx.reconciler.reconcileOnce();
    await eventually(() => ctx.cluster.sandbox.store.get('namespaces', undefined, workspace.namespace) === undefined, { what: 'the namespace to be gone', timeoutMs: 10_000 });
    expect(ctx.cluster.sandbox.store.list('serviceaccounts', 'testbed-identities').map((account) => account.metadata.name)).not.toContain(
      `member-w${workspace.id}-u${member.user.id}`,
    );
    if (kubeconfig) await expect(kubectl(kubeconfig, 'get', 'pods')).rejects.toThrow(/Unauthorized|must be logged in/);
  });
});
