import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import type Pusher from 'pusher-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAST_ADMIN_MESSAGE } from '../src/admin/userBatch.js';
import { bulkUsers } from '../src/admin/userBulk.js';
import { updateUser } from '../src/admin/users.js';
import { timestamp } from '../src/db/database.js';
import { OWNER_DISABLED } from '../src/nodes/agentRoutes.js';
import { noopBroadcaster } from '../src/broadcasting/broadcaster.js';
import { SUBSCRIPTION_ENDED_EVENT, type SubscriptionEnd } from '../src/realtime/protocol.js';
import { createTestContext, eventually, type SignedInUser, type TestContext, unique } from './helpers.js';
import { FAST, nodeUser, secretOf } from './nodesFixtures.js';
import { connected, subscribeOutcome } from './realtimeClients.js';

// Platform admins act on users: GET/PATCH /api/admin/users/{id}, token revocation,
// the bulk action, and what disabling reaches: sessions and personal tokens (401), the
// service accounts behind downloaded kubeconfigs (the sandbox cluster over HTTPS refuses the
// token once the reconciler has run), the owner's node agents (403), realtime subscriptions
// (a real pusher-js client sees its subscription end). On SQLite, or PostgreSQL with DATABASE_URL.

let ctx: TestContext;
let admin: SignedInUser;
let owner: SignedInUser;
let member: SignedInUser;
let outsider: SignedInUser;
let team: { id: number; name: string };
let workspace: { id: number; namespace: string };

const db = () => ctx.db;
const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, token?: string, body?: unknown) => ctx.inject(method, url, { token, body });

async function joinWorkspace(userId: number, role: 'member' | 'manager' = 'member') {
  await db().insertInto('team_members').values({ team_id: team.id, user_id: userId, role: 'member', enabled: 1, created_at: timestamp() }).execute();
  await db().insertInto('workspace_members').values({ workspace_id: workspace.id, user_id: userId, role, created_at: timestamp() }).execute();
  await ctx.reconciler.reconcileOnce();
}

const kubeClient = (kubeconfig: string) => {
  const kc = new KubeConfig();
  kc.loadFromString(kubeconfig);
  return kc.makeApiClient(CoreV1Api);
};
const statusOf = async (request: Promise<unknown>) => {
  try {
    await request;
    return 200;
  } catch (error) {
    return (error as { code?: number }).code;
  }
};

async function personalToken(token: string, name = 'laptop') {
  const created = await call('POST', '/api/tokens', token, { name });
  expect(created.statusCode, created.body).toBe(201);
  return created.json().token.plainTextToken as string;
}

async function addNode(token: string) {
  const created = await call('POST', '/api/nodes', token, { type: 'raspberry-pi' });
  expect(created.statusCode, created.body).toBe(201);
  return { id: created.json().id as number, secret: secretOf(created.json().installation_url) as string };
}
const agent = (secret: string) => ctx.inject('GET', '/agent/node', { headers: { authorization: `Bearer ${secret}` } });

beforeAll(async () => {
  ctx = await createTestContext({ cluster: { timings: FAST }, reconciler: true, realtime: true });
  admin = await nodeUser(ctx, { admin: true, firstname: 'Admin' });
  owner = await nodeUser(ctx, { firstname: 'Owner' });
  member = await nodeUser(ctx, { firstname: 'Member' });
  outsider = await nodeUser(ctx, { firstname: 'Outsider' });
  const now = timestamp();
  const name = unique('au');
  team = await db()
    .insertInto('teams')
    .values({ name, fullname: `Team ${name}`, shortname: name, affiliation: null, city: null, country: 'FR', url: null, joining_reason: null, joining_category: 'Research', created_at: now, updated_at: now })
    .returning(['id', 'name'])
    .executeTakeFirstOrThrow();
  await db().insertInto('team_members').values({ team_id: team.id, user_id: owner.user.id, role: 'owner', enabled: 1, created_at: now }).execute();
  workspace = await db()
    .insertInto('workspaces')
    .values({ team_id: team.id, name: 'lab', label: 'Lab', description: null, namespace: `${name}-lab`, created_at: now, updated_at: now })
    .returning(['id', 'namespace'])
    .executeTakeFirstOrThrow();
  await db().insertInto('workspace_members').values({ workspace_id: workspace.id, user_id: owner.user.id, role: 'manager', created_at: now }).execute();
  await joinWorkspace(member.user.id);
}, 30_000);

afterAll(async () => {
  await ctx?.close();
});

describe('who may call the admin user routes', () => {
  it('platform admins only: 403 for a team owner, a member and an outsider, 401 anonymous', async () => {
    const target = await nodeUser(ctx, { firstname: 'Target' });
    const token = await personalToken(target.token);
    const tokenId = Number(token.split('|')[0]);
    const routes: [method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body: unknown, ok: number][] = [
      ['GET', `/api/admin/users/${target.user.id}`, undefined, 200],
      ['PATCH', `/api/admin/users/${target.user.id}`, { admin: false }, 200],
      ['POST', '/api/admin/users/bulk', { ids: [target.user.id], action: 'enable', dry_run: true }, 200],
      ['DELETE', `/api/admin/users/${target.user.id}/tokens/${tokenId}`, undefined, 204],
      ['DELETE', `/api/admin/users/${target.user.id}/tokens`, undefined, 200],
    ];
    for (const [method, url, body, ok] of routes) {
      for (const who of [owner, member, outsider]) {
        const refused = await call(method, url, who.token, body);
        expect(refused.statusCode, `${method} ${url}`).toBe(403);
        expect(refused.json().message).toBe('This action is unauthorized.');
      }
      expect((await call(method, url, undefined, body)).statusCode).toBe(401);
      const allowed = await call(method, url, admin.token, body);
      expect(allowed.statusCode, `${method} ${url}: ${allowed.body}`).toBe(ok);
    }
  });

  it('validates: 422 with field messages, 404 for unknown users and tokens', async () => {
    const target = await nodeUser(ctx);
    const base = `/api/admin/users/${target.user.id}`;
    const empty = await call('PATCH', base, admin.token, {});
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors.enabled).toEqual(['Give enabled or admin.']);
    const notFlag = await call('PATCH', base, admin.token, { enabled: 'no' });
    expect(notFlag.statusCode).toBe(422);
    expect(notFlag.json().errors.enabled).toEqual(['The enabled field must be true or false.']);
    expect((await call('PATCH', '/api/admin/users/999999999', admin.token, { enabled: false })).statusCode).toBe(404);
    expect((await call('GET', '/api/admin/users/999999999', admin.token)).statusCode).toBe(404);
    expect((await call('GET', '/api/admin/users/abc', admin.token)).statusCode).toBe(404);
    // Another person's token is not one of this user's.
    const othersToken = Number((await personalToken(member.token, unique('other'))).split('|')[0]);
    expect((await call('DELETE', `${base}/tokens/${othersToken}`, admin.token)).statusCode).toBe(404);

    const both = await call('POST', '/api/admin/users/bulk', admin.token, { ids: [1], filter: {}, action: 'disable' });
    expect(both.statusCode).toBe(422);
    expect(both.json().errors.ids).toEqual(['Give either ids or filter.']);
    const neither = await call('POST', '/api/admin/users/bulk', admin.token, { action: 'disable' });
    expect(neither.json().errors.ids).toEqual(['Give either ids or filter.']);
    const badAction = await call('POST', '/api/admin/users/bulk', admin.token, { ids: [1], action: 'delete' });
    expect(badAction.json().errors.action).toEqual(['The action field must be disable or enable.']);
    const badIds = await call('POST', '/api/admin/users/bulk', admin.token, { ids: ['x'], action: 'disable' });
    expect(badIds.statusCode).toBe(422);
    const badFilter = await call('POST', '/api/admin/users/bulk', admin.token, { filter: { admin: 'yes' }, action: 'disable' });
    expect(badFilter.statusCode).toBe(422);
  });
});

describe('GET /api/admin/users/{id}', () => {
  it('shows profile, memberships, tokens without secrets, nodes, recent activity and last login', async () => {
    const token = await personalToken(member.token, unique('cli'));
    const node = await addNode(member.token);
    const response = await call('GET', `/api/admin/users/${member.user.id}`, admin.token);
    expect(response.statusCode).toBe(200);
    const user = response.json();
    expect(user).toMatchObject({
      id: member.user.id,
      email: member.user.email,
      admin: false,
      enabled: true,
      email_verified_at: expect.any(String),
      aup_accepted_at: expect.any(String),
      last_login_at: expect.any(String),
      last_login_source: 'activity log',
      teams: [{ id: team.id, name: team.name, role: 'member', enabled: true }],
      workspaces: [{ id: workspace.id, namespace: workspace.namespace, role: 'member', cluster_state: 'ready', team: { id: team.id } }],
      nodes: [{ id: node.id, type: 'raspberry-pi' }],
    });
    expect(user.tokens.map((t: { id: number }) => t.id)).toContain(Number(token.split('|')[0]));
    expect(JSON.stringify(user)).not.toContain(token.split('|')[1]);
    expect(JSON.stringify(user)).not.toMatch(/token_hash|password/);
    expect(user.activity.map((entry: { description: string }) => entry.description)).toContain('logged in');
    expect(user.activity.length).toBeLessThanOrEqual(20);
    expect(user.counts).toEqual({ sessions: 1, personal_tokens: user.tokens.length, kubeconfigs: 1, nodes: 1 });
  });
});

describe('refusals', () => {
  it('an admin cannot disable or demote themself', async () => {
    const disable = await call('PATCH', `/api/admin/users/${admin.user.id}`, admin.token, { enabled: false });
    expect(disable.statusCode).toBe(422);
    expect(disable.json().errors.enabled).toEqual(['You cannot disable your own account.']);
    const demote = await call('PATCH', `/api/admin/users/${admin.user.id}`, admin.token, { admin: false });
    expect(demote.statusCode).toBe(422);
    expect(demote.json().errors.admin).toEqual(['You cannot remove your own admin rights.']);
    const bulk = (await call('POST', '/api/admin/users/bulk', admin.token, { ids: [admin.user.id], action: 'disable' })).json();
    expect(bulk.results).toEqual([{ id: admin.user.id, status: 'forbidden', message: 'You cannot disable your own account.' }]);
    expect((await call('GET', '/api/user', admin.token)).statusCode).not.toBe(401);
  });

  it('the last enabled admin is neither disabled nor demoted (the rule, as in a race where the actor lost their rights)', async () => {
    const others = await db().selectFrom('users').select('id').where('admin', '=', 1).where('id', '!=', admin.user.id).execute();
    const otherIds = others.map((row) => row.id);
    if (otherIds.length > 0) await db().updateTable('users').set({ admin: 0 }).where('id', 'in', otherIds).execute();
    try {
      const services = { db: db(), broadcaster: noopBroadcaster };
      await expect(updateUser(services, outsider.user.id, admin.user.id, { admin: false })).rejects.toMatchObject({ status: 409, message: LAST_ADMIN_MESSAGE });
      await expect(updateUser(services, outsider.user.id, admin.user.id, { enabled: false })).rejects.toMatchObject({ status: 409, message: LAST_ADMIN_MESSAGE });
      const bulk = await bulkUsers(services, outsider.user.id, { ids: [admin.user.id], action: 'disable', dryRun: false });
      expect(bulk.results).toEqual([{ id: admin.user.id, status: 'forbidden', message: LAST_ADMIN_MESSAGE }]);
      const still = await db().selectFrom('users').select(['admin', 'enabled']).where('id', '=', admin.user.id).executeTakeFirstOrThrow();
      expect(still).toEqual({ admin: 1, enabled: 1 });
    } finally {
      if (otherIds.length > 0) await db().updateTable('users').set({ admin: 1 }).where('id', 'in', otherIds).execute();
    }
  });

  it('grants and removes admin rights, recorded', async () => {
    const target = await nodeUser(ctx, { firstname: 'Promoted' });
    expect((await call('PATCH', `/api/admin/users/${target.user.id}`, admin.token, { admin: true })).json().admin).toBe(true);
    expect((await call('GET', '/api/admin/users', target.token)).statusCode).toBe(200);
    expect((await call('PATCH', `/api/admin/users/${target.user.id}`, admin.token, { admin: false })).json().admin).toBe(false);
    expect((await call('GET', '/api/admin/users', target.token)).statusCode).toBe(403);
    const entries = await db().selectFrom('activity_log').select(['description', 'causer_id']).where('description', 'like', 'admin rights%').where('subject_id', '=', target.user.id).orderBy('id').execute();
    expect(entries).toEqual([
      { description: 'admin rights granted', causer_id: admin.user.id },
      { description: 'admin rights removed', causer_id: admin.user.id },
    ]);
  });
});

describe('disabling reaches everything the person holds, and enabling undoes it', () => {
  it('sessions and tokens 401, kubeconfig refused by the cluster, node agent 403, realtime subscription ended, data kept', async () => {
    const person = await nodeUser(ctx, { firstname: 'Ada' });
    await joinWorkspace(person.user.id);
    const personal = await personalToken(person.token);
    const node = await addNode(person.token);
    expect((await agent(node.secret)).statusCode).toBe(200);
    const download = await call('POST', `/api/subnamespaces/${workspace.id}/kubeconfig`, person.token);
    expect(download.statusCode, download.body).toBe(201);
    const kube = kubeClient(download.json().kubeconfig);
    expect(await statusOf(kube.listNamespacedPod({ namespace: workspace.namespace }))).toBe(200);

    const client: Pusher = ctx.realtime.pusher(person.token);
    await connected(client);
    const channel = `private-App.User.${person.user.id}`;
    expect(await subscribeOutcome(client, channel)).toEqual({ ok: true });
    let ended: SubscriptionEnd | undefined;
    client.channel(channel).bind(SUBSCRIPTION_ENDED_EVENT, (data: SubscriptionEnd) => {
      ended = data;
    });

    // Over HTTP to the listening app, as in production.
    const response = await fetch(`${ctx.baseUrl}/api/admin/users/${person.user.id}`, {
      method: 'PATCH',
      headers: { accept: 'application/json', 'content-type': 'application/json', authorization: `Bearer ${admin.token}` },
      body: JSON.stringify({ enabled: false }),
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { enabled: boolean }).enabled).toBe(false);

    await eventually(() => ended !== undefined, { what: 'the subscription ended', timeoutMs: 3000 });
    expect(ctx.realtime.server.subscriberCount(channel)).toBe(0);
    expect((await call('GET', '/user', person.token)).statusCode).toBe(401);
    expect((await call('GET', '/api/tokens', personal)).statusCode).toBe(401);
    const refused = await agent(node.secret);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(OWNER_DISABLED);
    const membership = await db().selectFrom('workspace_members').select('cluster_state').where('user_id', '=', person.user.id).executeTakeFirstOrThrow();
    expect(membership.cluster_state).toBe('pending');
    await ctx.reconciler.reconcileOnce();
    expect(await statusOf(kube.listNamespacedPod({ namespace: workspace.namespace }))).toBe(401);
    const login = await call('POST', '/login', undefined, { email: person.user.email, password: 'correct horse battery staple' });
    expect(login.statusCode).toBe(422);

    // The data stays: memberships and nodes.
    const detail = (await call('GET', `/api/admin/users/${person.user.id}`, admin.token)).json();
    expect(detail).toMatchObject({ enabled: false, teams: [{ id: team.id }], workspaces: [{ id: workspace.id }], nodes: [{ id: node.id }] });
    expect(detail.counts).toMatchObject({ sessions: 0, personal_tokens: 0 });
    const entry = await db().selectFrom('activity_log').selectAll().where('description', '=', 'user disabled').where('subject_id', '=', person.user.id).executeTakeFirstOrThrow();
    expect(entry.causer_id).toBe(admin.user.id);
    expect(JSON.parse(entry.properties)).toMatchObject({ sessions: 1, personal_tokens: 1, kubeconfigs: 1, severity: 'warning' });

    // Enabling: login works again, the agent is accepted, access comes back with a new kubeconfig.
    const enabled = await call('PATCH', `/api/admin/users/${person.user.id}`, admin.token, { enabled: true });
    expect(enabled.json().enabled).toBe(true);
    await ctx.reconciler.reconcileOnce();
    expect((await agent(node.secret)).statusCode).toBe(200);
    expect(await statusOf(kube.listNamespacedPod({ namespace: workspace.namespace }))).toBe(401);
    const again = await ctx.inject('POST', '/login', { body: { email: person.user.email, password: 'correct horse battery staple' } });
    expect(again.statusCode).toBe(200);
    const fresh = await call('POST', `/api/subnamespaces/${workspace.id}/kubeconfig`, again.json().token);
    expect(fresh.statusCode).toBe(201);
    expect(await statusOf(kubeClient(fresh.json().kubeconfig).listNamespacedPod({ namespace: workspace.namespace }))).toBe(200);
    expect(await db().selectFrom('activity_log').select('id').where('description', '=', 'user enabled').where('subject_id', '=', person.user.id).execute()).toHaveLength(1);
  }, 30_000);
});

describe('revoking tokens', () => {
  it('one token, then all personal tokens; the session stays', async () => {
    const person = await nodeUser(ctx);
    const first = await personalToken(person.token, 'one');
    const second = await personalToken(person.token, 'two');
    const third = await personalToken(person.token, 'three');
    const firstId = Number(first.split('|')[0]);
    expect((await call('DELETE', `/api/admin/users/${person.user.id}/tokens/${firstId}`, admin.token)).statusCode).toBe(204);
    expect((await call('GET', '/api/tokens', first)).statusCode).toBe(401);
    expect((await call('GET', '/api/tokens', second)).statusCode).toBe(200);
    const all = await call('DELETE', `/api/admin/users/${person.user.id}/tokens`, admin.token);
    expect(all.json()).toEqual({ message: '2 personal access tokens revoked.', revoked: 2 });
    expect((await call('GET', '/api/tokens', third)).statusCode).toBe(401);
    expect((await call('GET', '/user', person.token)).statusCode).toBe(200);
    const entries = await db().selectFrom('activity_log').selectAll().where('description', '=', 'access tokens revoked by an admin').where('subject_id', '=', person.user.id).orderBy('id').execute();
    expect(entries.map((entry) => JSON.parse(entry.properties).personal_tokens)).toEqual([1, 2]);
  });
});

describe('POST /api/admin/users/bulk', () => {
  it('by ids: a dry run first, then per-id results with partial failures', async () => {
    const a = await nodeUser(ctx, { firstname: 'Bulk' });
    const b = await nodeUser(ctx, { firstname: 'Bulk' });
    await personalToken(a.token);
    const off = await nodeUser(ctx, { firstname: 'Off' });
    await db().updateTable('users').set({ enabled: 0 }).where('id', '=', off.user.id).execute();
    const ids = [a.user.id, b.user.id, off.user.id, admin.user.id, 999999999];

    const dry = (await call('POST', '/api/admin/users/bulk', admin.token, { ids, action: 'disable', dry_run: true })).json();
    expect(dry).toMatchObject({ dry_run: true, matched: 5, totals: { done: 2, unchanged: 1, forbidden: 1, not_found: 1 }, revoked: { sessions: 2, personal_tokens: 1, kubeconfigs: 0 } });
    expect((await call('GET', '/user', a.token)).statusCode).toBe(200);

    const done = (await call('POST', '/api/admin/users/bulk', admin.token, { ids, action: 'disable' })).json();
    expect(done.dry_run).toBe(false);
    expect(done.results).toEqual([
      { id: a.user.id, status: 'done' },
      { id: b.user.id, status: 'done' },
      { id: off.user.id, status: 'unchanged' },
      { id: admin.user.id, status: 'forbidden', message: 'You cannot disable your own account.' },
      { id: 999999999, status: 'not_found', message: 'Not found.' },
    ]);
    expect((await call('GET', '/user', a.token)).statusCode).toBe(401);
    expect((await call('GET', '/user', b.token)).statusCode).toBe(401);
    const summary = await db().selectFrom('activity_log').selectAll().where('description', '=', 'users disabled in bulk').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(JSON.parse(summary.properties)).toMatchObject({ matched: 5, done: 2, forbidden: 1 });
  });

  it('by filter: acts on everything the filter matches, 1,000 users well under 2 s, and enables them back', async () => {
    const marker = unique('Filtered');
    const now = timestamp();
    const rows = Array.from({ length: 1000 }, (_, index) => ({
      firstname: marker,
      lastname: `N${index}`,
      email: `${marker.toLowerCase()}.${index}@example.org`,
      password_hash: 'not-a-hash',
      email_verified_at: now,
      aup_accepted_at: now,
      admin: 0,
      enabled: 1,
      authority: null,
      created_at: now,
      updated_at: now,
    }));
    const inserted = await db().insertInto('users').values(rows).returning('id').execute();
    // Each has a session, to be revoked in the same batches.
    await db()
      .insertInto('access_tokens')
      .values(inserted.map(({ id }) => ({ user_id: id, kind: 'session' as const, name: 'login', token_hash: `${marker}${id}`, abilities: '["*"]', last_used_at: null, expires_at: null, created_at: now })))
      .execute();

    const filter = { q: marker, enabled: true };
    const dryAnswer = await call('POST', '/api/admin/users/bulk', admin.token, { filter, action: 'disable', dry_run: true });
    const dry = dryAnswer.json();
    expect(dry).toMatchObject({ matched: 1000, totals: { done: 1000 }, revoked: { sessions: 1000 } });

    const started = performance.now();
    const done = await call('POST', '/api/admin/users/bulk', admin.token, { filter, action: 'disable' });
    const elapsed = performance.now() - started;
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ matched: 1000, totals: { done: 1000, unchanged: 0 }, revoked: { sessions: 1000 } });
    expect(elapsed).toBeLessThan(2000);
    const ids = inserted.map(({ id }) => id);
    const still = await db().selectFrom('users').select('id').where('id', 'in', ids).where('enabled', '=', 1).execute();
    expect(still).toEqual([]);
    expect(await db().selectFrom('access_tokens').select('id').where('user_id', 'in', ids).execute()).toEqual([]);
    const entries = await db().selectFrom('activity_log').select('id').where('description', '=', 'user disabled').where('subject_id', 'in', ids).execute();
    expect(entries).toHaveLength(1000);

    // The same filter now matches nothing enabled; the disabled ones come back.
    expect((await call('POST', '/api/admin/users/bulk', admin.token, { filter, action: 'disable', dry_run: true })).json().matched).toBe(0);
    const back = (await call('POST', '/api/admin/users/bulk', admin.token, { filter: { q: marker, enabled: false }, action: 'enable' })).json();
    expect(back.totals).toEqual({ done: 1000, unchanged: 0, forbidden: 0, not_found: 0 });
  }, 30_000);
});

describe('the users list filters', () => {
  it('filters by verified, policy and team, and answers aup_accepted_at', async () => {
    const marker = unique('Listed');
    const unverified = await nodeUser(ctx, { firstname: marker });
    await db().updateTable('users').set({ email_verified_at: null, aup_accepted_at: null }).where('id', '=', unverified.user.id).execute();
    const verified = await nodeUser(ctx, { firstname: marker });
    const list = async (query: string) =>
      (await call('GET', `/api/admin/users?q=${marker}&${query}`, admin.token)).json().map((user: { id: number }) => user.id);
    expect(await list('filter[verified]=false')).toEqual([unverified.user.id]);
    expect(await list('filter[verified]=true')).toEqual([verified.user.id]);
    expect(await list('filter[policy]=0')).toEqual([unverified.user.id]);
    expect(await list('filter[policy]=1')).toEqual([verified.user.id]);
    const members = (await call('GET', `/api/admin/users?filter[team_id]=${team.id}&page=1`, admin.token)).json();
    expect(members.data.map((user: { id: number }) => user.id)).toEqual(expect.arrayContaining([owner.user.id, member.user.id]));
    expect(members.data.map((user: { id: number }) => user.id)).not.toContain(outsider.user.id);
    const shown = (await call('GET', `/api/admin/users?q=${marker}&filter[policy]=1`, admin.token)).json()[0];
    expect(shown.aup_accepted_at).toEqual(expect.any(String));
    const bad = await call('GET', '/api/admin/users?filter[verified]=maybe', admin.token);
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors['filter[verified]']).toEqual(['The verified filter must be true or false.']);
  });
});
