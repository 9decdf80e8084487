import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, eventually, type TestContext } from './helpers.js';
import { FAST_SANDBOX_TIMINGS } from './kubectl.js';
import { signedIn, teamWithWorkspace } from './kubeconfigFixtures.js';
import { addWorkspaceMember, insertWorkspace } from './teamFixtures.js';
import { resourcesNearLimit, sumUsages } from '../src/workspaces/quotaSums.js';

// Quotas seen from above one workspace: the team page's sums (GET /api/tenants/{team}/quota)
// and the home's workspaces near a limit (GET /api/subnamespaces/near-limit), from what the
// sandbox cluster counts as pods come and go.

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ cluster: { timings: FAST_SANDBOX_TIMINGS }, reconciler: true });
});
afterAll(async () => {
  await ctx?.close();
});

const pod = (name: string) => ({ metadata: { name }, spec: { containers: [{ name, image: 'nginx' }] } });

describe('the rules', () => {
  it('add quantities exactly, and a sum with an unknown part is unknown', () => {
    const usage = (cpu: string | null, memory: string) => ({
      pods: { hard: '50', used: '1' },
      cpu: { hard: '500m', used: cpu },
      memory: { hard: '1536Mi', used: memory },
      storage: { hard: '100Gi', used: '0' },
    });
    expect(sumUsages([usage('100m', '128Mi'), usage('1', '512Mi')])).toEqual({
      pods: { hard: '100', used: '2' },
      cpu: { hard: '1', used: '1100m' },
      memory: { hard: '3Gi', used: '640Mi' },
      storage: { hard: '200Gi', used: '0' },
    });
    expect(sumUsages([usage('100m', '128Mi'), usage(null, '0')]).cpu).toEqual({ hard: '1', used: null });
    expect(sumUsages([])).toEqual({ pods: { hard: '0', used: '0' }, cpu: { hard: '0', used: '0' }, memory: { hard: '0', used: '0' }, storage: { hard: '0', used: '0' } });
  });

  it('call a resource near its limit from 80 % on, fullest first, and never an unknown one', () => {
    const near = resourcesNearLimit({
      pods: { hard: '10', used: '8' },
      cpu: { hard: '1', used: '950m' },
      memory: { hard: '1Gi', used: '800Mi' },
      storage: { hard: '100Gi', used: null },
    });
    expect(near.map((item) => [item.resource, item.share])).toEqual([
      ['cpu', 0.95],
      ['pods', 0.8],
    ]);
  });
});

describe('GET /api/tenants/{team}/quota', () => {
  it("sums the team's workspaces as the cluster counts them, for members and admins only", async () => {
    const { team, workspace, people } = await teamWithWorkspace(ctx);
    const second = await insertWorkspace(ctx, team, 'second');
    await ctx.db.updateTable('workspaces').set({ quota_cpu: '2', quota_pods: 10 }).where('id', '=', second.id).execute();
    await addWorkspaceMember(ctx, second.id, people.owner.user.id, 'manager');
    expect((await ctx.reconciler.reconcileOnce()).failed).toBe(0);

    const core = ctx.cluster.kube();
    await core.createNamespacedPod({ namespace: workspace.namespace, body: pod('a') });
    await core.createNamespacedPod({ namespace: second.namespace, body: pod('b') });
    const sums = async () => {
      const answer = await ctx.inject('GET', `/api/tenants/${team.name}/quota`, { token: people.member.token });
      expect(answer.statusCode).toBe(200);
      return answer.json();
    };
    await eventually(async () => (await sums()).total.pods.used === '2');
    const answer = await sums();
    expect(answer.total).toEqual({
      pods: { hard: '60', used: '2' },
      cpu: { hard: '10', used: '200m' },
      memory: { hard: '32Gi', used: '256Mi' },
      storage: { hard: '200Gi', used: '0' },
    });
    expect(answer.workspaces.map((item: { name: string; quota: { cpu: { hard: string } } }) => [item.name, item.quota.cpu.hard])).toEqual([
      ['second', '2'],
      ['ws', '8'],
    ]);
    expect((await ctx.inject('GET', `/api/tenants/${team.id}/quota`, { token: people.admin.token })).statusCode).toBe(200);

    const outsider = await signedIn(ctx, 'Otto');
    const refused = await ctx.inject('GET', `/api/tenants/${team.name}/quota`, { token: outsider.token });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe("Only the team's members and platform admins can see its quotas.");
    expect((await ctx.inject('GET', `/api/tenants/${team.name}/quota`)).statusCode).toBe(401);
    expect((await ctx.inject('GET', '/api/tenants/no-such-team/quota', { token: people.admin.token })).statusCode).toBe(404);
  });
});

describe('GET /api/subnamespaces/near-limit', () => {
  it("lists the viewer's workspaces at 80 % of a limit or more, and none whose usage is unknown", async () => {
    const { workspace, people } = await teamWithWorkspace(ctx);
    await ctx.db.updateTable('workspaces').set({ quota_pods: 2 }).where('id', '=', workspace.id).execute();
    await ctx.db.updateTable('workspaces').set({ cluster_state: 'pending' }).where('id', '=', workspace.id).execute();
    expect((await ctx.reconciler.reconcileOnce()).failed).toBe(0);
    const near = async (token: string) => {
      const answer = await ctx.inject('GET', '/api/subnamespaces/near-limit', { token });
      expect(answer.statusCode).toBe(200);
      return answer.json().data as { id: number; resources: { resource: string; share: number }[] }[];
    };
    expect((await near(people.member.token)).find((item) => item.id === workspace.id)).toBeUndefined();

    const core = ctx.cluster.kube();
    await core.createNamespacedPod({ namespace: workspace.namespace, body: pod('one') });
    await core.createNamespacedPod({ namespace: workspace.namespace, body: pod('two') });
    await eventually(async () => (await near(people.member.token)).some((item) => item.id === workspace.id));
    const listed = (await near(people.member.token)).find((item) => item.id === workspace.id)!;
    expect(listed).toMatchObject({ name: 'ws', team: { name: expect.any(String) }, resources: [{ resource: 'pods', hard: '2', used: '2', share: 1 }] });

    // Not a member of it: not on their home, admin or not.
    expect((await near(people.admin.token)).find((item) => item.id === workspace.id)).toBeUndefined();
    expect((await ctx.inject('GET', '/api/subnamespaces/near-limit')).statusCode).toBe(401);

    await ctx.cluster.stop();
    try {
      expect((await near(people.member.token)).find((item) => item.id === workspace.id)).toBeUndefined();
    } finally {
      await ctx.cluster.start();
    }
  });
});
