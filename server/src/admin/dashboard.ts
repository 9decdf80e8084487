import { type Kysely, sql } from 'kysely';
import { DAY_MS } from '../clock.js';
import { quantityValue } from '../cluster/quota.js';
import type { Database } from '../db/schema.js';
import { parseInfo } from '../nodes/presenter.js';
import { REQUEST_TYPES } from '../requests/schemas.js';
import { countActive, filteredTeams, filteredWorkspaces } from './lists.js';

// The platform admins' dashboard (GET /api/admin/dashboard): a few numbers about the whole
// testbed, each counted with the same filter as the admin list the console links it to, so
// that the number and the list behind it never disagree. Every read walks an index; none asks
// the cluster (node capacity and status are the node watcher's records); the month's usage is
// read from the days the accounting pass sums ahead (monthSums).

/** The windows of "active people", in days. */
export const ACTIVE_WINDOWS = { day: 1, week: 7, month: 30 } as const;
/** "Expiring soon": ending from now to this many days on, as the lists' filter[expiring_within_days]. */
export const EXPIRING_DAYS = 30;
export const TOP_TEAMS = 5;

/** Node statuses that mean the kubelet is Ready (nodes/status.ts: 'warning' is Ready with a pressure). */
const READY_STATUSES = ['ok', 'warning'] as const;
const GIB = 2 ** 30;
const HOUR_MS = DAY_MS / 24;

/** A row count from a count(*) column (PostgreSQL answers bigint counts as strings). */
const total = (row: { n: number | string }) => Number(row.n);

/** The first instant of `now`'s calendar month, and of the next one, in UTC. */
export function monthBounds(now: Date): { from: string; to: string } {
  const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { from: from.toISOString(), to: to.toISOString() };
}

/**
 * The last hour that is over and fully accounted: the hour before the one `accounted_until`
 * (or now, if that is earlier) falls in. Null when nothing was ever accounted.
 */
export async function lastCompleteHour(db: Kysely<Database>, now: Date): Promise<string | null> {
  const cursor = await db.selectFrom('usage_accounting').select('accounted_until').where('id', '=', 1).executeTakeFirst();
  if (!cursor) return null;
  const until = Math.min(Date.parse(cursor.accounted_until), now.getTime());
  if (Number.isNaN(until)) return null;
  return new Date(Math.floor(until / HOUR_MS) * HOUR_MS - HOUR_MS).toISOString();
}

async function pendingRequests(db: Kysely<Database>) {
  // requests_status_type_index: the pending rows only, grouped on the index's second column.
  const rows = await db
    .selectFrom('requests')
    .select(['type', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('status', '=', 'Pending')
    .groupBy('type')
    .execute();
  const counts = new Map<string, number>(REQUEST_TYPES.map((type) => [type, 0]));
  for (const row of rows) counts.set(row.type, Number(row.n));
  const byType = [...counts].map(([type, n]) => ({ type, count: n }));
  return { total: byType.reduce((sum, entry) => sum + entry.count, 0), by_type: byType };
}

const activePeople = (db: Kysely<Database>, now: Date) => countActive(db, now, ACTIVE_WINDOWS);

interface TeamSums {
  cpu: number;
  memory: number;
}

/** Each team's sums over the month `now` falls in, from the days summed ahead (`usage_team_days`, read from its day index alone). */
async function monthSums(db: Kysely<Database>, now: Date): Promise<Map<number, TeamSums>> {
  const month = monthBounds(now);
  const rows = await db
    .selectFrom('usage_team_days')
    .select(['team_id', (eb) => eb.fn.sum<number | string>('cpu_core_hours').as('cpu'), (eb) => eb.fn.sum<number | string>('memory_gib_hours').as('memory')])
    .where('day', '>=', month.from.slice(0, 10))
    .where('day', '<', month.to.slice(0, 10))
    .groupBy('team_id')
    .execute();
  return new Map(rows.map((row) => [row.team_id, { cpu: Number(row.cpu), memory: Number(row.memory) }]));
}

async function topTeams(db: Kysely<Database>, now: Date) {
  const month = monthBounds(now);
  const top = [...(await monthSums(db, now))].sort(([a, x], [b, y]) => y.cpu - x.cpu || a - b).slice(0, TOP_TEAMS);
  const ids = top.map(([teamId]) => teamId);
  const teams = ids.length ? await db.selectFrom('teams').select(['id', 'name', 'fullname']).where('id', 'in', ids).execute() : [];
  const byId = new Map(teams.map((team) => [team.id, team]));
  return {
    from: month.from,
    to: month.to,
    teams: top.map(([teamId, sums]) => ({
      id: teamId,
      // A deleted team's usage stays (the usage tables outlive it): no name then.
      name: byId.get(teamId)?.name ?? null,
      fullname: byId.get(teamId)?.fullname ?? null,
      // Sums of many doubles: rounded to what anyone reads.
      cpu_core_hours: Math.round(sums.cpu * 1000) / 1000,
      memory_gib_hours: Math.round(sums.memory * 1000) / 1000,
    })),
  };
}

async function capacity(db: Kysely<Database>, now: Date) {
  // The node watcher keeps each node's status and the cluster's capacity (info.cluster.capacity).
  const ready = await db
    .selectFrom('nodes')
    .select('info')
    .where('status', 'in', [...READY_STATUSES])
    .where('disabled_at', 'is', null)
    .execute();
  let cpu = 0;
  let memory = 0;
  for (const node of ready) {
    const cluster = parseInfo(node).cluster as { capacity?: Record<string, unknown> } | undefined;
    const cores = quantityValue(String(cluster?.capacity?.cpu ?? ''));
    const bytes = quantityValue(String(cluster?.capacity?.memory ?? ''));
    if (Number.isFinite(cores)) cpu += cores;
    if (Number.isFinite(bytes)) memory += bytes / GIB;
  }
  const hour = await lastCompleteHour(db, now);
  // Core-hours in one hour are the average cores in use over it (GiB-hours: GiB).
  const used = hour
    ? await db
        .selectFrom('usage_hours')
        .select([(eb) => eb.fn.sum<number | string | null>('cpu_core_hours').as('cpu'), (eb) => eb.fn.sum<number | string | null>('memory_gib_hours').as('memory')])
        .where('hour_start', '=', hour)
        .executeTakeFirstOrThrow()
    : null;
  return {
    contributed: { nodes: ready.length, cpu, memory },
    used: used && hour ? { hour_start: hour, cpu: Number(used.cpu ?? 0), memory: Number(used.memory ?? 0) } : null,
  };
}

async function nodesByStatus(db: Kysely<Database>) {
  // As the admin list names them: 'disabled' for a node a platform admin disabled.
  const presented = sql<string>`case when disabled_at is not null then 'disabled' else status end`;
  const rows = await db
    .selectFrom('nodes')
    .select([presented.as('status'), (eb) => eb.fn.countAll<number | string>().as('n')])
    .groupBy(presented)
    .execute();
  return rows.map((row) => ({ status: row.status, count: Number(row.n) })).sort((a, b) => a.status.localeCompare(b.status));
}

async function expiringSoon(db: Kysely<Database>, now: Date) {
  const filters = { expiringWithinDays: EXPIRING_DAYS, now };
  const [teams, workspaces] = await Promise.all([
    filteredTeams(db, filters).select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
    filteredWorkspaces(db, filters).select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { days: EXPIRING_DAYS, teams: total(teams), workspaces: total(workspaces) };
}

/** The dashboard's numbers at `now` (the app's clock). */
export async function adminDashboard(db: Kysely<Database>, now: Date) {
  const [pending, active, top, capacityNow, nodes, expiring] = await Promise.all([
    pendingRequests(db),
    activePeople(db, now),
    topTeams(db, now),
    capacity(db, now),
    nodesByStatus(db),
    expiringSoon(db, now),
  ]);
  return {
    generated_at: now.toISOString(),
    pending_requests: pending,
    active_people: active,
    top_teams: top,
    capacity: capacityNow,
    nodes_by_status: nodes,
    expiring_soon: expiring,
  };
}
