import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import { DAY_MS, HOUR_MS } from '../clock.js';
import type { Database } from '../db/schema.js';
import { validationError } from '../http/errors.js';

// What was used, read back (docs/usage.md): a workspace's or a team's series of hours, days or
// months (UTC), zero-filled, and the platform's usage grouped by team, workspace or person.
// Per hour, from `usage_hours`: an hour counts in a range when it overlaps it, hour rows from
// the hour `from` falls in up to, not including, `to`. Per day or month, days count whole (the
// range is widened to the days it touches) and are read from the days the accounting pass sums
// ahead (`usage_days`, `usage_team_days`), so a month of the platform is 30 rows per workspace
// or team instead of 720. Numbers are rounded to 3 decimals once summed.

export const GRANULARITIES = ['hour', 'day', 'month'] as const;
export type Granularity = (typeof GRANULARITIES)[number];
export const GROUPS = ['team', 'workspace', 'user'] as const;
export type UsageGroup = (typeof GROUPS)[number];

/** The range asked for when none is: the last 30 days to now. */
export const DEFAULT_RANGE_DAYS = 30;
/** The longest range one answer covers. */
export const MAX_RANGE_DAYS = 400;

export interface UsageRange {
  from: Date;
  /** Exclusive. */
  to: Date;
  granularity: Granularity;
}

export interface UsageTotals {
  cpu_core_hours: number;
  memory_gib_hours: number;
}

/** 3 decimals, and never -0. */
export const round3 = (value: number) => Math.round(value * 1000) / 1000 + 0;

/**
 * The range of a query: `to` defaults to now, `from` to 30 days before `to`. 422 per field when
 * `to` comes before `from` or the range is longer than MAX_RANGE_DAYS (on `to` when it was
 * given, else on `from`, the one the caller chose).
 */
export function resolveRange(query: { from?: string; to?: string; granularity: Granularity }, now: Date): UsageRange {
  const to = query.to !== undefined ? new Date(query.to) : now;
  const from = query.from !== undefined ? new Date(query.from) : new Date(to.getTime() - DEFAULT_RANGE_DAYS * DAY_MS);
  const field = query.to !== undefined ? 'to' : 'from';
  if (to.getTime() < from.getTime()) {
    throw validationError({
      [field]: [field === 'to' ? 'The to date must not be before the from date.' : 'The from date must not be in the future.'],
    });
  }
  if (to.getTime() - from.getTime() > MAX_RANGE_DAYS * DAY_MS) {
    throw validationError({ [field]: [`The range from from to to must not be longer than ${MAX_RANGE_DAYS} days.`] });
  }
  if (query.granularity === 'hour') return { from, to, granularity: query.granularity };
  // Per day or month, whole days: from the start of the day `from` falls in to the end of the day `to` falls in.
  const fromDay = bucketStart(from.getTime(), 'day');
  const toDay = bucketStart(to.getTime(), 'day') === to.getTime() ? to.getTime() : bucketStart(to.getTime(), 'day') + DAY_MS;
  return { from: new Date(fromDay), to: new Date(Math.max(toDay, fromDay + DAY_MS)), granularity: query.granularity };
}

/** The start (ms) of the hour, day or month (UTC) that `ms` falls in. */
export function bucketStart(ms: number, granularity: Granularity): number {
  if (granularity === 'hour') return Math.floor(ms / HOUR_MS) * HOUR_MS;
  if (granularity === 'day') return Math.floor(ms / DAY_MS) * DAY_MS;
  const date = new Date(ms);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
}

function nextBucket(start: number, granularity: Granularity): number {
  if (granularity === 'hour') return start + HOUR_MS;
  if (granularity === 'day') return start + DAY_MS;
  const date = new Date(start);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
}

/** Every bucket's start (ISO) from the one `from` falls in to the last one starting before `to`, oldest first. */
export function bucketStarts(range: UsageRange): string[] {
  const starts: string[] = [];
  const end = range.to.getTime();
  for (let start = bucketStart(range.from.getTime(), range.granularity); start < end; start = nextBucket(start, range.granularity)) {
    starts.push(new Date(start).toISOString());
  }
  return starts;
}

/** How many leading characters of `hour_start` ("2026-11-27T13:00:00.000Z") or `day` ("2026-11-27") name the bucket. */
const PREFIX: Record<Granularity, number> = { hour: 13, day: 10, month: 7 };

/** The column a row's time is in: the hour's start per hour, the day per day or month. */
const timeColumn = (granularity: Granularity) => (granularity === 'hour' ? 'hour_start' : 'day');

/** The bucket of a row, as the prefix of its time (the same SQL text wherever used, as GROUP BY wants). */
const bucketExpression = (granularity: Granularity) => sql<string>`substr(${sql.ref(timeColumn(granularity))}, 1, ${sql.lit(PREFIX[granularity])})`;

/** A bucket prefix back to its start (ISO). */
function prefixStart(prefix: string, granularity: Granularity): string {
  if (granularity === 'hour') return `${prefix}:00:00.000Z`;
  if (granularity === 'day') return `${prefix}T00:00:00.000Z`;
  return `${prefix}-01T00:00:00.000Z`;
}

/**
 * A workspace's rows in range, per hour (`usage_hours`: from the hour `from` falls in, before
 * `to`) or per day (`usage_days`: the range's whole days). Both tables have the same workspace,
 * team and amount columns; the time column is `timeColumn(granularity)`.
 */
function workspaceRowsInRange(db: Kysely<Database>, range: UsageRange) {
  if (range.granularity === 'hour') {
    return db
      .selectFrom('usage_hours')
      .where('hour_start', '>=', new Date(bucketStart(range.from.getTime(), 'hour')).toISOString())
      .where('hour_start', '<', range.to.toISOString());
  }
  // The same columns as usage_hours but the time's: typed as it for the callers, who name the time column by granularity.
  return db
    .selectFrom('usage_days as usage_hours')
    .where(sql.ref('day'), '>=', dayOf(range.from))
    .where(sql.ref('day'), '<', dayOf(range.to)) as unknown as UsageRowsQuery;
}

/** The query type both tables are read through (their columns are the same but the time's). */
type UsageRowsQuery = SelectQueryBuilder<Database, 'usage_hours', object>;

/** A team's rows in range (or every team's), per hour from `usage_hours` or per day from `usage_team_days`. */
function teamRowsInRange(db: Kysely<Database>, range: UsageRange) {
  if (range.granularity === 'hour') return workspaceRowsInRange(db, range);
  return db
    .selectFrom('usage_team_days as usage_hours')
    .where(sql.ref('day'), '>=', dayOf(range.from))
    .where(sql.ref('day'), '<', dayOf(range.to)) as unknown as UsageRowsQuery;
}

/** "2026-11-27" for a time at that day's start (ranges per day are whole days). */
const dayOf = (date: Date) => date.toISOString().slice(0, 10);

const sums = [sql<number>`sum(cpu_core_hours)`.as('cpu'), sql<number>`sum(memory_gib_hours)`.as('memory')] as const;

export interface UsageSeries {
  series: ({ start: string } & UsageTotals)[];
  total: UsageTotals;
}

/** A workspace's (or a team's, deleted workspaces' rows included) series and total over the range. */
export async function usageSeries(db: Kysely<Database>, scope: { workspaceId: number } | { teamId: number }, range: UsageRange): Promise<UsageSeries> {
  const bucket = bucketExpression(range.granularity);
  const rows = await ('teamId' in scope ? teamRowsInRange(db, range) : workspaceRowsInRange(db, range))
    .select([bucket.as('bucket'), ...sums])
    .$if('workspaceId' in scope, (qb) => qb.where('workspace_id', '=', (scope as { workspaceId: number }).workspaceId))
    .$if('teamId' in scope, (qb) => qb.where('team_id', '=', (scope as { teamId: number }).teamId))
    .groupBy(bucket)
    .execute();
  const byStart = new Map(rows.map((row) => [prefixStart(row.bucket, range.granularity), row]));
  let cpu = 0;
  let memory = 0;
  const series = bucketStarts(range).map((start) => {
    const row = byStart.get(start);
    const used = { cpu: Number(row?.cpu ?? 0), memory: Number(row?.memory ?? 0) };
    cpu += used.cpu;
    memory += used.memory;
    return { start, cpu_core_hours: round3(used.cpu), memory_gib_hours: round3(used.memory) };
  });
  return { series, total: { cpu_core_hours: round3(cpu), memory_gib_hours: round3(memory) } };
}

export interface WorkspaceUsageTotal extends UsageTotals {
  id: number;
  /** Null for a deleted workspace (its rows outlive it). */
  name: string | null;
  label: string | null;
}

/**
 * A team's workspaces with what each used over the range, the most CPU first (then memory,
 * then id): every current workspace (zero when it used nothing), and each deleted one that has
 * rows in the range, with name and label null.
 */
export async function teamWorkspaceTotals(db: Kysely<Database>, teamId: number, range: UsageRange): Promise<WorkspaceUsageTotal[]> {
  const [current, used] = await Promise.all([
    db.selectFrom('workspaces').select(['id', 'name', 'label']).where('team_id', '=', teamId).execute(),
    workspaceRowsInRange(db, range).select(['workspace_id', ...sums]).where('team_id', '=', teamId).groupBy('workspace_id').execute(),
  ]);
  const totals = new Map<number, { id: number; name: string | null; label: string | null; cpu: number; memory: number }>();
  for (const workspace of current) totals.set(workspace.id, { ...workspace, cpu: 0, memory: 0 });
  for (const row of used) {
    const entry = totals.get(row.workspace_id) ?? { id: row.workspace_id, name: null, label: null, cpu: 0, memory: 0 };
    entry.cpu += Number(row.cpu);
    entry.memory += Number(row.memory);
    totals.set(row.workspace_id, entry);
  }
  return [...totals.values()]
    .sort((a, b) => b.cpu - a.cpu || b.memory - a.memory || a.id - b.id)
    .map(({ id, name, label, cpu, memory }) => ({ id, name, label, cpu_core_hours: round3(cpu), memory_gib_hours: round3(memory) }));
}

export interface GroupedUsageRow extends UsageTotals {
  id: number;
  /** The team's or workspace's name, the person's full name; null when it is gone. */
  name: string | null;
  start: string;
}

/**
 * The platform's usage over the range per team, workspace or person and bucket: one row for
 * each that used something in a bucket (no zero rows), oldest bucket first, then by id.
 * `user`: a workspace's usage goes to whoever asked for it (the requester of the approved
 * CreateWorkspace request that made it); workspaces with none known (made by the command line
 * or the seed, or deleted: deleting a workspace unlinks its requests) count for nobody there.
 */
export async function groupedUsage(db: Kysely<Database>, group: UsageGroup, range: UsageRange): Promise<GroupedUsageRow[]> {
  const bucket = bucketExpression(range.granularity);
  let rows: { id: number; bucket: string; cpu: number; memory: number }[];
  if (group === 'user') {
    const creators = db
      .selectFrom('requests')
      .select(['workspace_id', sql<number>`min(user_id)`.as('user_id')])
      .where('type', '=', 'CreateWorkspace')
      .where('status', '=', 'Approved')
      .where('workspace_id', 'is not', null)
      .groupBy('workspace_id')
      .as('creators');
    rows = await workspaceRowsInRange(db, range)
      .innerJoin(creators, 'creators.workspace_id', 'usage_hours.workspace_id')
      .select([sql<number>`creators.user_id`.as('id'), bucket.as('bucket'), ...sums])
      .groupBy([sql`creators.user_id`, bucket])
      .execute();
  } else {
    const column = group === 'team' ? 'team_id' : 'workspace_id';
    rows = await (group === 'team' ? teamRowsInRange(db, range) : workspaceRowsInRange(db, range))
      .select([sql<number>`${sql.ref(column)}`.as('id'), bucket.as('bucket'), ...sums])
      .groupBy([column, bucket])
      .execute();
  }
  const ids = [...new Set(rows.map((row) => Number(row.id)))];
  const names = await namesOf(db, group, ids);
  return rows
    .map((row) => ({ id: Number(row.id), start: prefixStart(row.bucket, range.granularity), cpu: Number(row.cpu), memory: Number(row.memory) }))
    .filter((row) => row.cpu > 0 || row.memory > 0)
    .sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : a.id - b.id))
    .map((row) => ({ id: row.id, name: names.get(row.id) ?? null, start: row.start, cpu_core_hours: round3(row.cpu), memory_gib_hours: round3(row.memory) }));
}

/** Names by id, read in batches (ids of one answer, never the whole table). */
async function namesOf(db: Kysely<Database>, group: UsageGroup, ids: number[]): Promise<Map<number, string>> {
  const names = new Map<number, string>();
  for (let index = 0; index < ids.length; index += 1000) {
    const batch = ids.slice(index, index + 1000);
    if (group === 'user') {
      for (const user of await db.selectFrom('users').select(['id', 'firstname', 'lastname']).where('id', 'in', batch).execute()) {
        names.set(user.id, `${user.firstname} ${user.lastname}`);
      }
    } else {
      const table = group === 'team' ? 'teams' : 'workspaces';
      for (const row of await db.selectFrom(table).select(['id', 'name']).where('id', 'in', batch).execute()) names.set(row.id, row.name);
    }
  }
  return names;
}
