import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKSPACE_DEFAULTS } from '../src/cluster/gateway.js';
import { timestamp } from '../src/db/database.js';
import { createTestContext, type TestContext, unique } from './helpers.js';

// The reconciler compares before it writes (cheap with several replicas): every object is read first, created
// only when absent and replaced only when it differs, so a resync over a cluster that already
// matches the database makes GET requests only, whichever replica runs it. Counted the way the
// standalone sandbox's --audit-log counts (its onRequest hook), in process.

type Request = { verb: string; path: string; user: string };

const READS = new Set(['get', 'list', 'watch']);
const WORKSPACES = 4;
const MEMBERS_PER_WORKSPACE = 3;

let ctx: TestContext;
const requests: Request[] = [];
/** Runs before the sandbox handles a request (to make a create lose a race). */
let beforeRequest: ((request: Request) => void) | null = null;
const namespaces: string[] = [];

const writes = (from = 0) => requests.slice(from).filter((request) => !READS.has(request.verb));
const describeWrites = (list: Request[]) => list.map((request) => `${request.verb} ${request.path}`);
const store = () => ctx.cluster.sandbox.store;

/** One full resync (what the leader does at start and every 5 minutes), and the requests it made. */
async function resync(): Promise<Request[]> {
  const from = requests.length;
  const result = await ctx.reconciler.reconcileOnce({ all: true });
  expect(result.failed, result.lastError ?? '').toBe(0);
  return requests.slice(from);
}

beforeAll(async () => {
  ctx = await createTestContext({
    cluster: {
      persist: false,
      onRequest: (request) => {
        requests.push(request);
        beforeRequest?.(request);
      },
    },
    reconciler: true,
  });

  // WORKSPACES workspaces of one team, each with MEMBERS_PER_WORKSPACE members (a manager and
  // members), all pending as after their approvals.
  const db = ctx.db;
  const now = timestamp();
  const tag = unique('gw');
  const team = await db
    .insertInto('teams')
    .values({ name: tag, fullname: `Team ${tag}`, shortname: tag, affiliation: null, city: null, country: 'FR', url: null, joining_reason: null, joining_category: 'Research', created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  const users = [];
  for (let index = 0; index < MEMBERS_PER_WORKSPACE; index++) {
    const user = await db
      .insertInto('users')
      .values({ firstname: 'Gate', lastname: `Way${index}`, email: `${tag}.${index}@example.org`, password_hash: '!', email_verified_at: now, aup_accepted_at: now, admin: 0, enabled: 1, authority: null, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
    await db.insertInto('team_members').values({ team_id: team.id, user_id: user.id, role: index === 0 ? 'owner' : 'member', enabled: 1, created_at: now }).execute();
    users.push(user);
  }
  for (let index = 0; index < WORKSPACES; index++) {
    const namespace = `${tag}-space${index}`;
    const workspace = await db
      .insertInto('workspaces')
      .values({ team_id: team.id, name: `space${index}`, label: `Space ${index}`, description: null, namespace, created_at: now, updated_at: now, cluster_error: null, cluster_synced_at: null, quota_cpu: null, quota_memory: null, quota_storage: null, quota_pods: null })
      .returningAll()
      .executeTakeFirstOrThrow();
    namespaces.push(namespace);
    for (const [position, user] of users.entries()) {
      await db
        .insertInto('workspace_members')
        .values({ workspace_id: workspace.id, user_id: user.id, role: position === 0 ? 'manager' : 'member', created_at: now, cluster_error: null, cluster_synced_at: null })
        .execute();
    }
  }
});

afterAll(async () => {
  await ctx?.close();
});

describe('a resync over a cluster that matches', () => {
  it('creates each object once on the first pass, then makes no write request at all', async () => {
    const first = await resync();
    const created = writes(requests.length - first.length);
    // Only creates, one per object: namespaces (the workspaces' and testbed-identities), their
    // quota, limit range and network policy, the two cluster roles, an account and a binding per member.
    expect(created.every((request) => request.verb === 'create'), describeWrites(created).join('\n')).toBe(true);
    const count = (pattern: RegExp) => created.filter((request) => pattern.test(request.path)).length;
    expect(count(/^\/api\/v1\/namespaces$/)).toBe(WORKSPACES + 1);
    expect(count(/\/resourcequotas$/)).toBe(WORKSPACES);
    expect(count(/\/limitranges$/)).toBe(WORKSPACES);
    expect(count(/\/networkpolicies$/)).toBe(WORKSPACES);
    expect(count(/\/clusterroles$/)).toBe(2);
    expect(count(/\/testbed-identities\/serviceaccounts$/)).toBe(WORKSPACES * MEMBERS_PER_WORKSPACE);
    expect(count(/\/rolebindings$/)).toBe(WORKSPACES * MEMBERS_PER_WORKSPACE);
    expect(created).toHaveLength(WORKSPACES * 4 + 1 + 2 + 2 * WORKSPACES * MEMBERS_PER_WORKSPACE);

    for (let round = 0; round < 2; round++) {
      const again = await resync();
      expect(describeWrites(again.filter((request) => !READS.has(request.verb)))).toEqual([]);
      // It did look: every object was read.
      expect(again.filter((request) => request.verb === 'get').length).toBeGreaterThanOrEqual(created.length);
    }
  });

  it('takes quantities as quantities: a cluster that writes 4000m for 4 is left alone', async () => {
    const [namespace] = namespaces;
    store().modify('limitranges', namespace, WORKSPACE_DEFAULTS.limitRangeName, (object) => {
      object.spec.limits[0].max = { cpu: '4000m', memory: '8192Mi' };
      object.spec.limits[0].defaultRequest = { cpu: '0.1', memory: '128Mi' };
    });
    store().modify('resourcequotas', namespace, WORKSPACE_DEFAULTS.quotaName, (object) => {
      object.spec.hard['requests.cpu'] = '8000m';
      object.spec.hard['limits.memory'] = '32768Mi';
    });
    expect(describeWrites((await resync()).filter((request) => !READS.has(request.verb)))).toEqual([]);
  });
});

describe('what differs is put back', () => {
  it('replaces a changed LimitRange, and only it', async () => {
    const namespace = namespaces[1];
    store().modify('limitranges', namespace, WORKSPACE_DEFAULTS.limitRangeName, (object) => {
      object.spec.limits[0].max = { cpu: '64', memory: '512Gi' };
    });
    const pass = await resync();
    expect(describeWrites(pass.filter((request) => !READS.has(request.verb)))).toEqual([
      `update /api/v1/namespaces/${namespace}/limitranges/${WORKSPACE_DEFAULTS.limitRangeName}`,
    ]);
    expect(store().get('limitranges', namespace, WORKSPACE_DEFAULTS.limitRangeName)?.spec.limits).toEqual([
      { type: 'Container', default: { cpu: '500m', memory: '512Mi' }, defaultRequest: { cpu: '100m', memory: '128Mi' }, max: { cpu: '4', memory: '8Gi' } },
    ]);
    expect(describeWrites((await resync()).filter((request) => !READS.has(request.verb)))).toEqual([]);
  });

  it('replaces a LimitRange given an extra limit, a NetworkPolicy opened up, and objects that lost the managed-by label', async () => {
    const namespace = namespaces[2];
    store().modify('limitranges', namespace, WORKSPACE_DEFAULTS.limitRangeName, (object) => {
      object.spec.limits.push({ type: 'Pod', max: { cpu: '2' } });
    });
    store().modify('networkpolicies', namespace, WORKSPACE_DEFAULTS.networkPolicyName, (object) => {
      object.spec.ingress = [{}];
    });
    store().modify('resourcequotas', namespace, WORKSPACE_DEFAULTS.quotaName, (object) => {
      object.metadata.labels = {};
    });
    const pass = await resync();
    expect(describeWrites(pass.filter((request) => !READS.has(request.verb))).sort()).toEqual(
      [
        `update /api/v1/namespaces/${namespace}/limitranges/${WORKSPACE_DEFAULTS.limitRangeName}`,
        `update /apis/networking.k8s.io/v1/namespaces/${namespace}/networkpolicies/${WORKSPACE_DEFAULTS.networkPolicyName}`,
        `update /api/v1/namespaces/${namespace}/resourcequotas/${WORKSPACE_DEFAULTS.quotaName}`,
      ].sort(),
    );
    expect(store().get('networkpolicies', namespace, WORKSPACE_DEFAULTS.networkPolicyName)?.spec).toEqual({
      podSelector: {},
      policyTypes: ['Ingress'],
      ingress: [{ from: [{ podSelector: {} }] }],
    });
    expect(store().get('limitranges', namespace, WORKSPACE_DEFAULTS.limitRangeName)?.spec.limits).toHaveLength(1);
    expect(store().get('resourcequotas', namespace, WORKSPACE_DEFAULTS.quotaName)?.metadata.labels).toEqual({ 'app.kubernetes.io/managed-by': 'testbed-console' });
  });

  it('recreates what was deleted, and nothing else', async () => {
    const namespace = namespaces[3];
    store().delete('networkpolicies', namespace, WORKSPACE_DEFAULTS.networkPolicyName);
    const account = store().list('serviceaccounts', 'testbed-identities').find((item) => item.metadata.labels?.['testbed.io/workspace-id'])!;
    store().delete('serviceaccounts', 'testbed-identities', account.metadata.name);
    const pass = await resync();
    expect(describeWrites(pass.filter((request) => !READS.has(request.verb))).sort()).toEqual(
      [`create /apis/networking.k8s.io/v1/namespaces/${namespace}/networkpolicies`, 'create /api/v1/namespaces/testbed-identities/serviceaccounts'].sort(),
    );
  });
});

describe('a create that loses a race (another replica, between the read and the create)', () => {
  const raceNamespace = () => `${namespaces[0]}-race`;

  it('reads the object that won and replaces it only when it differs', async () => {
    const namespace = raceNamespace();
    const { db } = ctx;
    const model = await db.selectFrom('workspaces').selectAll().where('namespace', '=', namespaces[0]).executeTakeFirstOrThrow();
    const now = timestamp();
    await db
      .insertInto('workspaces')
      .values({ team_id: model.team_id, name: 'race', label: 'Race', description: null, namespace, created_at: now, updated_at: now, cluster_error: null, cluster_synced_at: null, quota_cpu: null, quota_memory: null, quota_storage: null, quota_pods: null })
      .execute();
    // Just as the console creates the quota and the limit range, "another replica" does: the
    // same quota (so nothing more to do) and a different limit range (so it is replaced).
    beforeRequest = (request) => {
      if (request.verb !== 'create') return;
      if (request.path === `/api/v1/namespaces/${namespace}/resourcequotas`) {
        const hard = { ...WORKSPACE_DEFAULTS.quota, 'requests.cpu': '8000m' };
        store().create('resourcequotas', { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: WORKSPACE_DEFAULTS.quotaName, namespace, labels: { 'app.kubernetes.io/managed-by': 'testbed-console' } }, spec: { hard } });
      }
      if (request.path === `/api/v1/namespaces/${namespace}/limitranges`) {
        store().create('limitranges', { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: WORKSPACE_DEFAULTS.limitRangeName, namespace, labels: { 'app.kubernetes.io/managed-by': 'testbed-console' } }, spec: { limits: [{ type: 'Container', max: { cpu: '1' } }] } });
      }
    };
    try {
      const from = requests.length;
      const result = await ctx.reconciler.reconcileOnce();
      expect(result.failed, result.lastError ?? '').toBe(0);
      const seen = requests.slice(from).map((request) => `${request.verb} ${request.path}`);
      const quotas = `/api/v1/namespaces/${namespace}/resourcequotas`;
      const limits = `/api/v1/namespaces/${namespace}/limitranges`;
      // Then the quota of a used-up allocation is looked for, and left absent.
      expect(seen.filter((line) => line.includes(quotas))).toEqual([
        `get ${quotas}/testbed-quota`,
        `create ${quotas}`,
        `get ${quotas}/testbed-quota`,
        `get ${quotas}/${WORKSPACE_DEFAULTS.allocationQuotaName}`,
      ]);
      expect(seen.filter((line) => line.includes(limits))).toEqual([
        `get ${limits}/testbed-limits`,
        `create ${limits}`,
        `get ${limits}/testbed-limits`,
        `update ${limits}/testbed-limits`,
      ]);
    } finally {
      beforeRequest = null;
    }
    expect(store().get('limitranges', namespace, WORKSPACE_DEFAULTS.limitRangeName)?.spec.limits[0].max).toEqual({ cpu: '4', memory: '8Gi' });
    expect(store().get('resourcequotas', namespace, WORKSPACE_DEFAULTS.quotaName)?.spec.hard['requests.cpu']).toBe('8000m');
  });
});
