import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HOUR_MS, movableClock } from '../src/clock.js';
import { type ClusterGateway, WORKSPACE_NAMESPACE_SELECTOR } from '../src/cluster/gateway.js';
import { kubeConfigFor, kubernetesGateway } from '../src/cluster/kubernetesGateway.js';
import { accountUsage, hourSlices, podCores, podGib } from '../src/usage/accounting.js';
import { createUsageRunner } from '../src/usage/runner.js';
import { FAST_SANDBOX_TIMINGS } from './kubectl.js';
import { createTestContext, eventually, type TestContext } from './helpers.js';
import { insertTeam, insertWorkspace } from './teamFixtures.js';

// Usage accounting (docs/usage.md) against the sandbox cluster: pods made through the API,
// passes at a movable clock. The sandbox starts pods at the wall clock's time; each pod's
// status.startTime is then set in the sandbox's store to the moment the test's clock says it
// started (as a kubelet would have written it then).

const clock = movableClock('2030-01-01T10:00:00.000Z');
let ctx: TestContext;
let workspace: { id: number; team_id: number; namespace: string };
let other: { id: number; team_id: number; namespace: string };

const at = (iso: string) => clock.set(iso);
const pass = (gateway: Pick<ClusterGateway, 'listWorkspacePods'> = ctx.cluster.gateway) => accountUsage({ db: ctx.db, gateway, now: clock.now() });
const cursor = async () => (await ctx.db.selectFrom('usage_accounting').select('accounted_until').executeTakeFirst())?.accounted_until ?? null;
const hours = (workspaceId: number) =>
  ctx.db.selectFrom('usage_hours').selectAll().where('workspace_id', '=', workspaceId).orderBy('hour_start').execute();
const byHour = async (workspaceId: number) =>
  Object.fromEntries((await hours(workspaceId)).map((row) => [row.hour_start.slice(11, 16), [round(row.cpu_core_hours), round(row.memory_gib_hours)]]));
const round = (value: number) => Math.round(value * 1e6) / 1e6;

/** A container that asks for (and is limited to) this much. */
const container = (cpu: string, memory: string) => ({ name: 'main', image: 'busybox', resources: { requests: { cpu, memory }, limits: { cpu, memory } } });

/** A running pod in `namespace` that started at `startedAt` (the test's time). */
async function runningPod(namespace: string, name: string, startedAt: string, containers: object[] = [container('500m', '1Gi')]) {
  await ctx.cluster.kube().createNamespacedPod({ namespace, body: { metadata: { name }, spec: { containers } } as never });
  await eventually(async () => (await ctx.cluster.kube().readNamespacedPod({ namespace, name })).status?.phase === 'Running', { what: `${name} running` });
  ctx.cluster.sandbox.store.modify('pods', namespace, name, (pod) => {
    pod.status.startTime = startedAt;
  });
}

async function deletePod(namespace: string, name: string) {
  await ctx.cluster.kube().deleteNamespacedPod({ namespace, name, gracePeriodSeconds: 0 });
  await eventually(() => !ctx.cluster.sandbox.store.get('pods', namespace, name), { what: `${name} gone` });
}

async function workspaceInCluster() {
  const team = await insertTeam(ctx);
  const row = await insertWorkspace(ctx, team);
  await ctx.cluster.gateway.ensureWorkspace({ namespace: row.namespace, teamName: team.name, workspaceName: row.name });
  return row;
}

beforeAll(async () => {
  ctx = await createTestContext({ cluster: { timings: FAST_SANDBOX_TIMINGS }, clock });
  workspace = await workspaceInCluster();
  other = await workspaceInCluster();
  // A namespace that is no workspace's: its pods count for nobody.
  await ctx.cluster.kube().createNamespace({ body: { metadata: { name: 'not-a-workspace' } } });
}, 60_000);
afterAll(() => ctx?.close());

beforeEach(async () => {
  for (const namespace of [workspace.namespace, other.namespace, 'not-a-workspace']) {
    for (const pod of ctx.cluster.sandbox.store.list('pods', namespace)) await deletePod(namespace, pod.metadata.name);
  }
  for (const table of ['usage_hours', 'usage_days', 'usage_team_days'] as const) await ctx.db.deleteFrom(table).execute();
  await ctx.db.deleteFrom('usage_accounting').execute();
});

describe('the parts of a pass', () => {
  it('counts each container by its request, else its limit, else the LimitRange default request', () => {
    const pod = {
      containers: [
        { requests: { cpu: 0.5, memory: 2 ** 30 }, limits: { cpu: 1, memory: 2 ** 31 } },
        { requests: { cpu: null, memory: null }, limits: { cpu: 2, memory: 2 ** 29 } },
        { requests: { cpu: null, memory: null }, limits: { cpu: null, memory: null } },
      ],
    };
    expect(podCores(pod)).toBeCloseTo(0.5 + 2 + 0.1, 9);
    expect(podGib(pod)).toBeCloseTo(1 + 0.5 + 0.125, 9);
  });

  it('cuts a stretch of time at the hours of UTC', () => {
    const t = (iso: string) => new Date(iso).getTime();
    expect(hourSlices(t('2030-01-01T10:40:00Z'), t('2030-01-01T13:15:00Z'))).toEqual([
      { hourStart: t('2030-01-01T10:00:00Z'), hours: 1 / 3 },
      { hourStart: t('2030-01-01T11:00:00Z'), hours: 1 },
      { hourStart: t('2030-01-01T12:00:00Z'), hours: 1 },
      { hourStart: t('2030-01-01T13:00:00Z'), hours: 0.25 },
    ]);
    expect(hourSlices(t('2030-01-01T11:00:00Z'), t('2030-01-01T11:00:00Z'))).toEqual([]);
  });
});

describe('reading every workspace’s running pods', () => {
  it('lists across namespaces in pages, by label, as an API server does; the gateway follows the pages', async () => {
    for (const name of ['a', 'b', 'c']) await runningPod(workspace.namespace, name, '2030-01-01T00:00:00Z');
    await runningPod(other.namespace, 'd', '2030-01-01T00:00:00Z', [container('250m', '256Mi')]);
    await runningPod('not-a-workspace', 'e', '2030-01-01T00:00:00Z');
    const kube = ctx.cluster.kube();
    const first = await kube.listPodForAllNamespaces({ limit: 2 });
    expect(first.items).toHaveLength(2);
    expect(first.metadata?._continue).toBeTruthy();
    const names = first.items.map((pod) => pod.metadata?.name);
    for (let token = first.metadata?._continue; token; ) {
      const page = await kube.listPodForAllNamespaces({ limit: 2, _continue: token });
      names.push(...page.items.map((pod) => pod.metadata?.name));
      token = page.metadata?._continue;
    }
    expect(names.filter((name) => ['a', 'b', 'c', 'd', 'e'].includes(name!)).sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(new Set(names).size).toBe(names.length);
    await expect(kube.listPodForAllNamespaces({ limit: 2, _continue: 'not-a-token' })).rejects.toMatchObject({ code: 400 });
    const labelled = await kube.listNamespace({ labelSelector: WORKSPACE_NAMESPACE_SELECTOR });
    expect(labelled.items.map((namespace) => namespace.metadata?.name).sort()).toEqual([workspace.namespace, other.namespace].sort());

    // One pod per page: the gateway reads them all, and keeps those of workspace namespaces.
    const { url, caPem, adminToken } = ctx.cluster.sandbox;
    const paged = kubernetesGateway(kubeConfigFor({ server: url, caPem, token: adminToken }), 'sandbox', { listPageSize: 1 });
    const pods = await paged.listWorkspacePods();
    expect(pods.map((pod) => `${pod.namespace}/${pod.name}`).sort()).toEqual(
      [`${workspace.namespace}/a`, `${workspace.namespace}/b`, `${workspace.namespace}/c`, `${other.namespace}/d`].sort(),
    );
    expect(pods.find((pod) => pod.name === 'd')).toEqual({
      namespace: other.namespace,
      name: 'd',
      phase: 'Running',
      startTime: '2030-01-01T00:00:00.000Z',
      containers: [{ requests: { cpu: 0.25, memory: 256 * 2 ** 20 }, limits: { cpu: 0.25, memory: 256 * 2 ** 20 } }],
    });
  });
});

describe('usage accounting over the sandbox cluster', () => {
  it('starts counting at its first pass, splits each pod’s time at the hours, and stops with the pod', async () => {
    at('2030-01-01T10:00:00.000Z');
    expect(await pass()).toEqual({ outcome: 'started', accountedUntil: '2030-01-01T10:00:00.000Z' });
    expect(await cursor()).toBe('2030-01-01T10:00:00.000Z');

    // 500m + 250m (the second container's limits, which the LimitRanger makes its requests), 1Gi + 256Mi.
    await runningPod(workspace.namespace, 'web', '2030-01-01T10:40:00Z', [
      { name: 'main', image: 'busybox', resources: { requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: '1', memory: '2Gi' } } },
      { name: 'side', image: 'busybox', resources: { limits: { cpu: '250m', memory: '256Mi' } } },
    ]);
    // Running before the cursor: counted from the cursor only; not in a workspace: not at all.
    await runningPod(other.namespace, 'old', '2029-12-31T22:00:00Z', [container('2', '512Mi')]);
    await runningPod('not-a-workspace', 'stray', '2030-01-01T09:00:00Z');

    at('2030-01-01T13:15:00.000Z');
    expect(await pass()).toMatchObject({ outcome: 'accounted', from: '2030-01-01T10:00:00.000Z', to: '2030-01-01T13:15:00.000Z', pods: 2 });
    expect(await byHour(workspace.id)).toEqual({
      '10:00': [0.25, round(1.25 / 3)],
      '11:00': [0.75, 1.25],
      '12:00': [0.75, 1.25],
      '13:00': [0.1875, 0.3125],
    });
    expect(await byHour(other.id)).toEqual({ '10:00': [2, 0.5], '11:00': [2, 0.5], '12:00': [2, 0.5], '13:00': [0.5, 0.125] });
    expect((await hours(workspace.id)).every((row) => row.team_id === workspace.team_id)).toBe(true);

    // The next pass adds to the hour it shares with the last one.
    at('2030-01-01T14:30:00.000Z');
    await pass();
    expect((await byHour(workspace.id))['13:00']).toEqual([0.75, 1.25]);
    expect((await byHour(workspace.id))['14:00']).toEqual([0.375, 0.625]);

    // Gone: nothing more for it; the other one carries on.
    await deletePod(workspace.namespace, 'web');
    at('2030-01-01T16:00:00.000Z');
    await pass();
    expect(Object.keys(await byHour(workspace.id))).toEqual(['10:00', '11:00', '12:00', '13:00', '14:00']);
    expect((await byHour(other.id))['15:00']).toEqual([2, 0.5]);
    expect(await cursor()).toBe('2030-01-01T16:00:00.000Z');
  });

  it('never counts twice when two replicas run a pass from the same cursor', async () => {
    at('2030-02-01T08:00:00.000Z');
    await pass();
    await runningPod(workspace.namespace, 'api', '2030-02-01T07:00:00Z');
    at('2030-02-01T10:00:00.000Z');
    // Both read the cursor, then both wait for each other at the cluster read: both hold the same cursor.
    let arrived = 0;
    let release!: () => void;
    const together = new Promise<void>((resolve) => (release = resolve));
    const barrier: Pick<ClusterGateway, 'listWorkspacePods'> = {
      async listWorkspacePods() {
        arrived += 1;
        if (arrived === 2) release();
        await together;
        return ctx.cluster.gateway.listWorkspacePods();
      },
    };
    const outcomes = (await Promise.all([pass(barrier), pass(barrier)])).map((result) => result.outcome).sort();
    expect(outcomes).toEqual(['accounted', 'superseded']);
    expect(await byHour(workspace.id)).toEqual({ '08:00': [0.5, 1], '09:00': [0.5, 1] });
    // A pass at the same time again finds nothing left to count.
    expect(await pass()).toMatchObject({ outcome: 'up-to-date' });
    expect(await byHour(workspace.id)).toEqual({ '08:00': [0.5, 1], '09:00': [0.5, 1] });
  });

  it('covers the whole gap after downtime, from each pod’s start', async () => {
    at('2030-03-01T00:00:00.000Z');
    await pass();
    // While no server ran: one pod already running, one started halfway, one that ran and ended.
    await runningPod(workspace.namespace, 'long', '2030-02-28T20:00:00Z');
    await runningPod(workspace.namespace, 'late', '2030-03-01T05:30:00Z', [container('1', '2Gi')]);
    await runningPod(workspace.namespace, 'brief', '2030-03-01T02:00:00Z');
    await deletePod(workspace.namespace, 'brief');

    at('2030-03-01T10:00:00.000Z');
    expect(await pass()).toMatchObject({ outcome: 'accounted', from: '2030-03-01T00:00:00.000Z', pods: 2 });
    const rows = await byHour(workspace.id);
    expect(Object.keys(rows)).toHaveLength(10);
    expect(rows['04:00']).toEqual([0.5, 1]);
    expect(rows['05:00']).toEqual([1, 2]);
    expect(rows['06:00']).toEqual([1.5, 3]);
    const total = (await hours(workspace.id)).reduce((sum, row) => sum + row.cpu_core_hours, 0);
    expect(total).toBeCloseTo(0.5 * 10 + 1 * 4.5, 9);

    // The days summed ahead hold the same amounts as the hours, in the same passes.
    at('2030-03-01T10:30:00.000Z');
    await pass();
    const days = await ctx.db.selectFrom('usage_days').selectAll().where('workspace_id', '=', workspace.id).orderBy('day').execute();
    expect(days.map((row) => row.day)).toEqual(['2030-03-01']);
    const hoursOf = async (day: string) => (await hours(workspace.id)).filter((row) => row.hour_start.startsWith(day));
    for (const row of days) {
      const same = await hoursOf(row.day);
      expect(row.team_id).toBe(workspace.team_id);
      expect(row.cpu_core_hours).toBeCloseTo(same.reduce((sum, hour) => sum + hour.cpu_core_hours, 0), 9);
      expect(row.memory_gib_hours).toBeCloseTo(same.reduce((sum, hour) => sum + hour.memory_gib_hours, 0), 9);
    }
    const teamDays = await ctx.db.selectFrom('usage_team_days').selectAll().where('team_id', '=', workspace.team_id).orderBy('day').execute();
    expect(teamDays.map((row) => [row.day, row.cpu_core_hours])).toEqual(days.map((row) => [row.day, row.cpu_core_hours]));
    expect(days.find((row) => row.day === '2030-03-01')!.cpu_core_hours).toBeCloseTo(0.5 * 10.5 + 1 * 5, 9);
  });

  it('changes nothing while the cluster cannot be read, and catches up once it can', async () => {
    at('2030-04-01T00:00:00.000Z');
    await pass();
    await runningPod(workspace.namespace, 'steady', '2030-03-31T12:00:00Z');

    await ctx.cluster.stop();
    try {
      at('2030-04-01T02:00:00.000Z');
      expect(await pass()).toMatchObject({ outcome: 'cluster-unreadable', from: '2030-04-01T00:00:00.000Z' });
      expect(await cursor()).toBe('2030-04-01T00:00:00.000Z');
      expect(await hours(workspace.id)).toEqual([]);
    } finally {
      await ctx.cluster.start();
    }
    // The restarted sandbox still runs the pod, started when it was.
    at('2030-04-01T03:00:00.000Z');
    await eventually(async () => (await pass()).outcome === 'accounted', { what: 'a pass that reads the cluster again' });
    expect(await cursor()).toBe('2030-04-01T03:00:00.000Z');
    expect(await byHour(workspace.id)).toEqual({ '00:00': [0.5, 1], '01:00': [0.5, 1], '02:00': [0.5, 1] });
  });

  it('runs in the leader on its clock, one pass at a time, and says when the cluster cannot be read', async () => {
    const said: string[] = [];
    const logger = { info: (_: unknown, message: string) => said.push(`info ${message}`), warn: (_: unknown, message: string) => said.push(`warn ${message}`), error: () => undefined };
    let readable = true;
    const gateway: Pick<ClusterGateway, 'listWorkspacePods'> = {
      listWorkspacePods: () => (readable ? ctx.cluster.gateway.listWorkspacePods() : Promise.reject(new Error('down'))),
    };
    const runner = createUsageRunner({ db: ctx.db, gateway, clock, intervalMs: HOUR_MS, logger: logger as never });
    at('2030-05-01T00:00:00.000Z');
    expect((await runner.runOnce()).outcome).toBe('started');
    await runningPod(workspace.namespace, 'job', '2030-05-01T00:00:00Z');
    readable = false;
    at('2030-05-01T01:00:00.000Z');
    await runner.runOnce();
    at('2030-05-01T02:00:00.000Z');
    await runner.runOnce();
    expect(said.filter((line) => line.startsWith('warn'))).toHaveLength(1);
    readable = true;
    at('2030-05-01T03:00:00.000Z');
    const [first, second] = await Promise.all([runner.runOnce(), runner.runOnce()]);
    expect([first.outcome, second.outcome]).toEqual(['accounted', 'up-to-date']);
    expect(said.at(-1)).toMatch(/^info .*caught up/);
    expect(Object.keys(await byHour(workspace.id))).toEqual(['00:00', '01:00', '02:00']);
    runner.start();
    await runner.stop();
  });
});
