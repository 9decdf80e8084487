import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterGateway } from '../src/cluster/gateway.js';
import { createTestContext, eventually, pause, type TestContext } from './helpers.js';
import { FAST_SANDBOX_TIMINGS } from './kubectl.js';
import { teamWithWorkspace } from './kubeconfigFixtures.js';

// GET /api/subnamespaces/{id} answers the workspace quota's limits and what the cluster counts
// (the sandbox's status.used, live as pods come and go): one cluster read per answer, and
// `used: null` (never an error, never a made-up zero) when the cluster cannot say.

let ctx: TestContext;
let quotaReads = 0;
let slow = false;
beforeAll(async () => {
  ctx = await createTestContext({
    cluster: {
      timings: FAST_SANDBOX_TIMINGS,
      // Counts the app's quota reads, and can make them as slow as a cluster that hangs.
      appGateway: (gateway: ClusterGateway): ClusterGateway => ({
        ...gateway,
        async readWorkspaceQuota(namespace) {
          quotaReads += 1;
          if (slow) await pause(10_000);
          return gateway.readWorkspaceQuota(namespace);
        },
      }),
    },
    reconciler: true,
  });
});
afterAll(async () => {
  await ctx?.close();
});

describe('the workspace answer’s quota', () => {
  it('says what the cluster counts, as pods come and go', async () => {
    const { workspace, people } = await teamWithWorkspace(ctx);
    const show = async () => {
      const answer = await ctx.inject('GET', `/api/subnamespaces/${workspace.id}`, { token: people.member.token });
      expect(answer.statusCode).toBe(200);
      return answer.json().quota;
    };
    expect(await show()).toEqual({
      pods: { hard: '50', used: '0' },
      cpu: { hard: '8', used: '0' },
      memory: { hard: '16Gi', used: '0' },
      storage: { hard: '100Gi', used: '0' },
    });

    const core = ctx.cluster.kube();
    for (const name of ['a', 'b']) {
      await core.createNamespacedPod({ namespace: workspace.namespace, body: { metadata: { name }, spec: { containers: [{ name, image: 'nginx' }] } } });
    }
    await eventually(async () => (await show()).pods.used === '2');
    expect(await show()).toMatchObject({ pods: { used: '2' }, cpu: { used: '200m' }, memory: { used: '256Mi' } });

    quotaReads = 0;
    await show();
    expect(quotaReads).toBe(1);

    await core.deleteNamespacedPod({ name: 'a', namespace: workspace.namespace, gracePeriodSeconds: 0 });
    await eventually(async () => (await show()).pods.used === '1');
  });

  it('answers used: null, quickly, when the cluster does not answer', async () => {
    const { workspace, people } = await teamWithWorkspace(ctx);
    slow = true;
    try {
      const started = Date.now();
      const answer = await ctx.inject('GET', `/api/subnamespaces/${workspace.id}`, { token: people.member.token });
      expect(answer.statusCode).toBe(200);
      // The read is given USAGE_READ_MS (2 s), not the hanging cluster's 10 s.
      expect(Date.now() - started).toBeLessThan(8000);
      expect(answer.json().quota.pods).toEqual({ hard: '50', used: null });
    } finally {
      slow = false;
    }
    await ctx.cluster.stop();
    try {
      const answer = await ctx.inject('GET', `/api/subnamespaces/${workspace.id}`, { token: people.member.token });
      expect(answer.statusCode).toBe(200);
      expect(answer.json().quota).toEqual({
        pods: { hard: '50', used: null },
        cpu: { hard: '8', used: null },
        memory: { hard: '16Gi', used: null },
        storage: { hard: '100Gi', used: null },
      });
    } finally {
      await ctx.cluster.start();
    }
  });
});

describe('without a cluster', () => {
  it('answers the quota the console gives, used unknown', async () => {
    const bare = await createTestContext();
    try {
      const owner = await bare.signedInUser({ firstname: 'Nora', lastname: 'Tester', email: `nora-${Date.now()}@example.org`, admin: false });
      const now = new Date().toISOString();
      const team = await bare.db
        .insertInto('teams')
        .values({ name: `nc${Date.now()}`, fullname: 'No cluster', shortname: 'nc', affiliation: 'Uni', city: null, country: 'FR', url: 'https://example.org', joining_reason: 'why', joining_category: 'Research', created_at: now, updated_at: now })
        .returningAll()
        .executeTakeFirstOrThrow();
      const workspace = await bare.db
        .insertInto('workspaces')
        .values({ team_id: team.id, name: 'ws', label: 'Space', description: null, namespace: `${team.name}-ws`, created_at: now, updated_at: now, quota_pods: 7 })
        .returningAll()
        .executeTakeFirstOrThrow();
      const answer = await bare.inject('GET', `/api/subnamespaces/${workspace.id}`, { token: owner.token });
      expect(answer.statusCode).toBe(200);
      expect(answer.json().quota.pods).toEqual({ hard: '7', used: null });
    } finally {
      await bare.close();
    }
  });
});
