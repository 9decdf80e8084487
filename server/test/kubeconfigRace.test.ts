import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterGateway } from '../src/cluster/gateway.js';
import { createTestContext, type SignedInUser, type TestContext } from './helpers.js';
import { FAST_SANDBOX_TIMINGS, KUBECTL, kubectlAvailable } from './kubectl.js';
import {
  clusterStatusFor,
  kubectlOutcome,
  saveKubeconfig,
  signedIn,
  teamWithWorkspace,
  UNAUTHORIZED,
} from './kubeconfigFixtures.js';

// Kubeconfigs downloaded while the right to them ends. Ten people's worth of parallel
// downloads (POST /api/subnamespaces/{id}/kubeconfig) race the end of the membership: removal
// from the workspace, a disabled account, removal from the team, a suspended team. The
// background reconciler runs as in production (kicked by each decision, no full resync during
// the test), and afterwards every kubeconfig the console answered 201 with must be refused by
// the sandbox cluster. Round after round, since a race shows only some of the time.

const haveKubectl = kubectlAvailable('server/test/kubeconfigRace.test.ts', 'kubeconfigs racing the end of a membership');

const ROUNDS = 4;
const LOOPS = 10;

/** A cluster across a network: every call the routes make takes a few to some tens of milliseconds more. */
function slowed(gateway: ClusterGateway): ClusterGateway {
  const later = () => sleep(5 + Math.floor(Math.random() * 40));
  return {
    ...gateway,
    ensureClusterRoles: async () => {
      await later();
      return gateway.ensureClusterRoles();
    },
    ensureMemberAccess: async (input) => {
      await later();
      return gateway.ensureMemberAccess(input);
    },
    issueKubeconfigToken: async (input) => {
      await later();
      return gateway.issueKubeconfigToken(input);
    },
  };
}

let ctx: TestContext;
let owner: SignedInUser;
let admin: SignedInUser;

beforeAll(async () => {
  ctx = await createTestContext({ cluster: { timings: FAST_SANDBOX_TIMINGS, appGateway: slowed }, reconciler: { pollIntervalMs: 100, resyncIntervalMs: 3_600_000 } });
  [owner, admin] = await Promise.all([signedIn(ctx, 'Olivia'), signedIn(ctx, 'Ada', { admin: true })]);
  // Running, as in production: the first (full) pass now, then only what decisions leave pending.
  ctx.reconciler.start();
});

afterAll(async () => {
  await ctx?.close();
});

type Scenario = Awaited<ReturnType<typeof teamWithWorkspace>>;

const ENDINGS: { name: string; end: (scenario: Scenario) => Promise<number> }[] = [
  {
    name: 'removed from the workspace',
    end: async ({ workspace, people }) => (await ctx.inject('DELETE', `/api/subnamespaces/${workspace.id}/users/${people.member.user.id}`, { token: people.owner.token })).statusCode,
  },
  {
    name: 'whose account is disabled',
    end: async ({ people }) => (await ctx.inject('PATCH', `/api/admin/users/${people.member.user.id}`, { token: people.admin.token, body: { enabled: false } })).statusCode,
  },
  {
    name: 'removed from the team',
    end: async ({ team, people }) => (await ctx.inject('DELETE', `/api/tenants/${team.id}/users/${people.member.user.id}`, { token: people.owner.token })).statusCode,
  },
  {
    name: 'whose team is suspended',
    end: async ({ team, people }) => (await ctx.inject('PATCH', `/api/admin/teams/${team.id}`, { token: people.admin.token, body: { enabled: false } })).statusCode,
  },
];

/**
 * Downloads in LOOPS parallel loops; once the first kubeconfig has come, ends the right after a
 * random 50 to 300 ms (with `end`), and stops downloading half a second after that. Answers
 * every 201's kubeconfig and the status of `end`.
 */
async function race(scenario: Scenario, end: (scenario: Scenario) => Promise<number>): Promise<{ kubeconfigs: string[]; status: number }> {
  const kubeconfigs: string[] = [];
  let stopAt = Date.now() + 20_000;
  let started: () => void = () => undefined;
  const firstIssued = new Promise<void>((resolve) => {
    started = resolve;
  });
  const ending = firstIssued
    .then(() => sleep(50 + Math.floor(Math.random() * 250)))
    .then(() => end(scenario))
    .finally(() => {
      stopAt = Date.now() + 500;
    });
  const loop = async () => {
    while (Date.now() < stopAt) {
      const response = await ctx.inject('POST', `/api/subnamespaces/${scenario.workspace.id}/kubeconfig`, { token: scenario.people.member.token });
      if (response.statusCode === 201) {
        kubeconfigs.push(response.json().kubeconfig);
        started();
      } else {
        await sleep(10);
      }
    }
  };
  await Promise.all(Array.from({ length: LOOPS }, loop));
  expect(kubeconfigs.length, 'no kubeconfig was issued before the end of the right').toBeGreaterThan(0);
  return { kubeconfigs, status: await ending };
}

/** Until the reconciler has nothing pending (it runs in the background; this makes a pass of its own too). */
async function settled(): Promise<void> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const result = await ctx.reconciler.reconcileOnce();
    if (result.applied === 0 && result.failed === 0) return;
  }
}

describe.skipIf(!haveKubectl)('kubeconfigs downloaded while the membership ends', () => {
  it.each(ENDINGS)('are all refused by the cluster afterwards, for a member $name', async ({ end }) => {
    for (let round = 1; round <= ROUNDS; round++) {
      const scenario = await teamWithWorkspace(ctx, { owner, admin });
      const { kubeconfigs, status } = await race(scenario, end);
      expect(status).toBeLessThan(300);
      await settled();
      let working = 0;
      for (const kubeconfig of kubeconfigs) {
        if ((await clusterStatusFor(ctx, kubeconfig)) === 200) working++;
      }
      expect(working, `round ${round}: ${working} of the ${kubeconfigs.length} kubeconfigs issued still work`).toBe(0);
      // As the person would find out: the last kubeconfig they got, with kubectl.
      const outcome = await kubectlOutcome(saveKubeconfig(ctx, kubeconfigs.at(-1)!), 'get', 'pods');
      expect(outcome.ok, `round ${round}: kubectl (${KUBECTL}) still works with the last kubeconfig: ${outcome.output}`).toBe(false);
      expect(outcome.output).toMatch(UNAUTHORIZED);
    }
  }, 240_000);
});
