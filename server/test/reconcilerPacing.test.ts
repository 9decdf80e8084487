import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterGateway } from '../src/cluster/gateway.js';
import { createReconciler } from '../src/cluster/reconciler.js';
import { timestamp } from '../src/db/database.js';
import { createTestContext, eventually, type TestContext, unique, uniqueEmail } from './helpers.js';
import { addTeamMember, insertTeam } from './teamFixtures.js';

// The background loop's full pass over a testbed-sized cluster: it must neither keep a decision
// waiting behind every unchanged workspace nor take the whole process while it runs.

const FAST = { scheduleMs: 30, startMs: 80, logIntervalMs: 150, heartbeatMs: 400, terminationMs: 100 };
/** Workspaces already in the cluster that the full pass re-applies: enough that a busy machine
 * still finds some left after the decision (pending work is applied every 25 items). */
const READY_WORKSPACES = 64;
/** How long the slowed gateway takes to apply one of them. */
const ENSURE_MS = 20;

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext({ cluster: { timings: FAST } });
});

afterAll(async () => {
  await ctx?.close();
});

async function teamWithOwner() {
  const owner = await ctx.signedInUser({ firstname: 'Pace', lastname: 'Owner', email: uniqueEmail('pace') });
  const team = await insertTeam(ctx, unique('pace'));
  await addTeamMember(ctx, team.id, owner.user.id, 'owner');
  return { team, owner };
}

/** Workspaces already applied once, as a seed leaves them: the full pass re-applies them. */
async function insertReadyWorkspaces(team: { id: number; name: string }, prefix: string, count: number) {
  const now = timestamp();
  return ctx.db
    .insertInto('workspaces')
    .values(
      Array.from({ length: count }, (_, n) => ({
        team_id: team.id,
        name: `${prefix}${n}`,
        label: `Workspace ${prefix}${n}`,
        description: null,
        namespace: `${team.name}-${prefix}${n}`,
        created_at: now,
        updated_at: now,
        cluster_state: 'ready' as const,
        cluster_synced_at: null,
      })),
    )
    .returning('id')
    .execute();
}

describe('the background full pass', () => {
  it('applies a decision made meanwhile before it ends, and pauses as long as it works', async () => {
    const { team, owner } = await teamWithOwner();
    const seeded = await insertReadyWorkspaces(team, 'ws', READY_WORKSPACES);
    const seededIds = new Set(seeded.map((row) => row.id));

    // The re-applied workspaces are slow to apply; the time spent in them is summed.
    let ensureMs = 0;
    let firstAt = 0;
    let lastAt = 0;
    const slow: ClusterGateway = {
      ...ctx.cluster.gateway,
      ensureWorkspace: async (target) => {
        const started = performance.now();
        if (firstAt === 0) firstAt = started;
        await ctx.cluster.gateway.ensureWorkspace(target);
        if (target.namespace.startsWith(`${team.name}-ws`)) await new Promise((resolve) => setTimeout(resolve, ENSURE_MS));
        lastAt = performance.now();
        ensureMs += lastAt - started;
      },
    };
    const reconciler = createReconciler({ db: ctx.db, gateway: slow, pollIntervalMs: 50 });
    reconciler.start();
    try {
      // A decision once the full pass is under way.
      await eventually(() => ensureMs > 0, { what: 'the full pass to start' });
      const response = await ctx.inject('POST', '/api/requests/workspaces', { token: owner.token, body: { label: 'Decided now', name: unique('now-'), team_id: team.id } });
      expect(response.statusCode).toBe(201);
      const decided = response.json().object.id as number;

      await eventually(async () => (await ctx.db.selectFrom('workspaces').select('cluster_state').where('id', '=', decided).executeTakeFirstOrThrow()).cluster_state === 'ready', {
        what: 'the decided workspace to be applied',
        timeoutMs: 10_000,
        intervalMs: 20,
      });
      // Applied while the full pass still had workspaces to go.
      const notYet = await ctx.db.selectFrom('workspaces').select('id').where('cluster_synced_at', 'is', null).execute();
      expect(notYet.filter((row) => seededIds.has(row.id)).length).toBeGreaterThan(0);

      await eventually(async () => (await ctx.db.selectFrom('workspaces').select('id').where('team_id', '=', team.id).where('cluster_synced_at', 'is', null).execute()).length === 0, {
        what: 'the full pass to end',
        timeoutMs: 20_000,
      });
    } finally {
      await reconciler.stop();
    }
    // Each item is followed by a pause as long as it took: at most about half of the time is work.
    expect(lastAt - firstAt).toBeGreaterThanOrEqual(1.5 * ensureMs);
  });

  it('ends after the item in hand when the server stops', async () => {
    const { team } = await teamWithOwner();
    await insertReadyWorkspaces(team, 'st', 30);
    let applied = 0;
    const slow: ClusterGateway = {
      ...ctx.cluster.gateway,
      ensureWorkspace: async (target) => {
        await new Promise((resolve) => setTimeout(resolve, ENSURE_MS));
        await ctx.cluster.gateway.ensureWorkspace(target);
        applied += 1;
      },
    };
    const reconciler = createReconciler({ db: ctx.db, gateway: slow, pollIntervalMs: 50 });
    reconciler.start();
    await eventually(() => applied > 2, { what: 'the full pass to start' });
    await reconciler.stop();
    const left = await ctx.db.selectFrom('workspaces').select('id').where('team_id', '=', team.id).where('cluster_synced_at', 'is', null).execute();
    expect(left.length).toBeGreaterThan(0);
  });
});
