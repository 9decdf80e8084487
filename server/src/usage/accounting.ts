import { type Kysely, sql } from 'kysely';
import { HOUR_MS } from '../clock.js';
import { type AccountedPod, type ClusterGateway, WORKSPACE_DEFAULTS } from '../cluster/gateway.js';
import { quantityNumber } from '../cluster/sandbox/quantity.js';
import type { Database, UsageDaysTable, UsageHoursTable, UsageTeamDaysTable } from '../db/schema.js';

// The leader's usage accounting pass (docs/usage.md). It reads how far usage is accounted (the
// cursor, `usage_accounting.accounted_until`), the running pods of every workspace, and adds to
// `usage_hours` what each pod asked for over [max(cursor, pod start), now], split at hour
// boundaries, and the same amounts per day to `usage_days` and `usage_team_days`. The cursor
// moves to `now` in the same transaction as the hours, and only from the value the pass read:
// a second replica (or a pass repeated by a restart) that read the same
// cursor finds it moved, and rolls back. No stretch of time is counted twice; a pass after
// downtime covers the whole gap from the pods' start times; a pass that cannot read the cluster
// changes nothing, so the next one covers its time too.

/** The cursor's one row. */
export const ACCOUNTING_ROW_ID = 1;

export const GIB = 2 ** 30;

/**
 * What a container asks for when it says nothing: the workspace LimitRange's default request
 * (WORKSPACE_DEFAULTS, as the LimitRanger writes it into every container of a workspace, so a
 * pod read from the cluster rarely lacks one).
 */
const DEFAULT_REQUEST = {
  cpu: quantityNumber(WORKSPACE_DEFAULTS.limitRange.defaultRequest.cpu)!,
  memory: quantityNumber(WORKSPACE_DEFAULTS.limitRange.defaultRequest.memory)!,
};

/** Rows per upsert statement (5 values each: far below either database's limit on parameters). */
const UPSERT_BATCH = 500;

/** A pod's CPU in cores: each container's request, else its limit, else the LimitRange's default request. */
export function podCores(pod: Pick<AccountedPod, 'containers'>): number {
  return pod.containers.reduce((sum, container) => sum + (container.requests.cpu ?? container.limits.cpu ?? DEFAULT_REQUEST.cpu), 0);
}

/** A pod's memory in GiB, the same way. */
export function podGib(pod: Pick<AccountedPod, 'containers'>): number {
  return pod.containers.reduce((sum, container) => sum + (container.requests.memory ?? container.limits.memory ?? DEFAULT_REQUEST.memory), 0) / GIB;
}

/** [from, to) (ms since the epoch) cut at the hours of UTC: each hour's start and the hours of it inside. */
export function hourSlices(from: number, to: number): { hourStart: number; hours: number }[] {
  const slices: { hourStart: number; hours: number }[] = [];
  for (let hourStart = Math.floor(from / HOUR_MS) * HOUR_MS; hourStart < to; hourStart += HOUR_MS) {
    const start = Math.max(from, hourStart);
    const end = Math.min(to, hourStart + HOUR_MS);
    if (end > start) slices.push({ hourStart, hours: (end - start) / HOUR_MS });
  }
  return slices;
}

/** Hour rows summed per workspace and UTC day, and per team and day (what `usage_days` and `usage_team_days` add). */
export function summedPerDay(hours: readonly UsageHoursTable[]): { days: UsageDaysTable[]; teamDays: UsageTeamDaysTable[] } {
  const days = new Map<string, UsageDaysTable>();
  const teamDays = new Map<string, UsageTeamDaysTable>();
  for (const hour of hours) {
    const day = hour.hour_start.slice(0, 10);
    const workspaceDay = days.get(`${hour.workspace_id} ${day}`) ?? { workspace_id: hour.workspace_id, team_id: hour.team_id, day, cpu_core_hours: 0, memory_gib_hours: 0 };
    workspaceDay.cpu_core_hours += hour.cpu_core_hours;
    workspaceDay.memory_gib_hours += hour.memory_gib_hours;
    days.set(`${hour.workspace_id} ${day}`, workspaceDay);
    const teamDay = teamDays.get(`${hour.team_id} ${day}`) ?? { team_id: hour.team_id, day, cpu_core_hours: 0, memory_gib_hours: 0 };
    teamDay.cpu_core_hours += hour.cpu_core_hours;
    teamDay.memory_gib_hours += hour.memory_gib_hours;
    teamDays.set(`${hour.team_id} ${day}`, teamDay);
  }
  return { days: [...days.values()], teamDays: [...teamDays.values()] };
}

export type UsagePassResult =
  /** The first pass ever: the cursor starts at `now`; nothing before it is known. */
  | { outcome: 'started'; accountedUntil: string }
  /** [from, to] accounted: `pods` running pods of workspaces, `rows` hour rows added to. */
  | { outcome: 'accounted'; from: string; to: string; pods: number; rows: number }
  /** Another replica moved the cursor from the same value first: this pass added nothing. */
  | { outcome: 'superseded'; from: string }
  /** The cluster could not be read: nothing changed, the next pass covers this time too. */
  | { outcome: 'cluster-unreadable'; from: string; error: string }
  /** `now` is not past the cursor (a clock behind another replica's): nothing to do. */
  | { outcome: 'up-to-date'; accountedUntil: string };

class Superseded extends Error {}

export interface AccountUsageInput {
  db: Kysely<Database>;
  gateway: Pick<ClusterGateway, 'listWorkspacePods'>;
  now: Date;
}

/** One accounting pass at `now` (see above). Throws only when the database fails. */
export async function accountUsage({ db, gateway, now }: AccountUsageInput): Promise<UsagePassResult> {
  const nowIso = now.toISOString();
  const cursor = await db.selectFrom('usage_accounting').select('accounted_until').where('id', '=', ACCOUNTING_ROW_ID).executeTakeFirst();
  if (!cursor) {
    // Two replicas starting together: one row, the other's insert does nothing.
    await db
      .insertInto('usage_accounting')
      .values({ id: ACCOUNTING_ROW_ID, accounted_until: nowIso })
      .onConflict((conflict) => conflict.column('id').doNothing())
      .execute();
    return { outcome: 'started', accountedUntil: nowIso };
  }
  const from = cursor.accounted_until;
  const fromMs = new Date(from).getTime();
  const toMs = now.getTime();
  if (!(toMs > fromMs)) return { outcome: 'up-to-date', accountedUntil: from };

  let pods: AccountedPod[];
  try {
    pods = await gateway.listWorkspacePods();
  } catch (error) {
    return { outcome: 'cluster-unreadable', from, error: error instanceof Error ? error.message : String(error) };
  }

  // Namespaces to workspaces (and their teams), in one query. Pods of a namespace no workspace
  // has (a deleted workspace's, until the reconciler deletes it) count for nobody.
  const workspaces = new Map(
    (await db.selectFrom('workspaces').select(['id', 'team_id', 'namespace']).execute()).map((workspace) => [workspace.namespace, workspace]),
  );
  const rows = new Map<string, UsageHoursTable>();
  let counted = 0;
  for (const pod of pods) {
    if (pod.phase !== 'Running') continue;
    const workspace = workspaces.get(pod.namespace);
    if (!workspace) continue;
    const started = pod.startTime ? new Date(pod.startTime).getTime() : Number.NaN;
    const start = Number.isNaN(started) ? fromMs : Math.max(fromMs, started);
    if (start >= toMs) continue;
    counted += 1;
    const cores = podCores(pod);
    const gib = podGib(pod);
    for (const slice of hourSlices(start, toMs)) {
      const hourStart = new Date(slice.hourStart).toISOString();
      const key = `${workspace.id} ${hourStart}`;
      const row = rows.get(key) ?? { workspace_id: workspace.id, team_id: workspace.team_id, hour_start: hourStart, cpu_core_hours: 0, memory_gib_hours: 0 };
      row.cpu_core_hours += cores * slice.hours;
      row.memory_gib_hours += gib * slice.hours;
      rows.set(key, row);
    }
  }
  const values = [...rows.values()].filter((row) => row.cpu_core_hours > 0 || row.memory_gib_hours > 0);

  try {
    await db.transaction().execute(async (trx) => {
      const moved = await trx
        .updateTable('usage_accounting')
        .set({ accounted_until: nowIso })
        .where('id', '=', ACCOUNTING_ROW_ID)
        .where('accounted_until', '=', from)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) === 0) throw new Superseded();
      await addUsage(trx, values);
    });
  } catch (error) {
    if (error instanceof Superseded) return { outcome: 'superseded', from };
    throw error;
  }
  return { outcome: 'accounted', from, to: nowIso, pods: counted, rows: values.length };
}

/**
 * Adds hour rows to `usage_hours`, and the same amounts to the days summed ahead
 * (`usage_days`, `usage_team_days`), so the days always add up to the hours. Only the pass
 * calls it in the server (inside its transaction, with the cursor's move); tests and the bench
 * seed usage through it too, so their rows are as the pass leaves them.
 */
export async function addUsage(db: Kysely<Database>, hours: readonly UsageHoursTable[]): Promise<void> {
  const { days, teamDays } = summedPerDay(hours);
  await addAmounts(db, 'usage_hours', ['workspace_id', 'hour_start'], hours);
  await addAmounts(db, 'usage_days', ['workspace_id', 'day'], days);
  await addAmounts(db, 'usage_team_days', ['team_id', 'day'], teamDays);
}

/** Inserts the rows, or adds their amounts to the rows already there with the same key. */
async function addAmounts<T extends 'usage_hours' | 'usage_days' | 'usage_team_days'>(
  db: Kysely<Database>,
  table: T,
  key: readonly (keyof Database[T] & string)[],
  rows: readonly Database[T][],
): Promise<void> {
  const added = (column: 'cpu_core_hours' | 'memory_gib_hours') => sql<number>`${sql.ref(`${table}.${column}`)} + excluded.${sql.ref(column)}`;
  for (let index = 0; index < rows.length; index += UPSERT_BATCH) {
    await db
      .insertInto(table)
      .values(rows.slice(index, index + UPSERT_BATCH) as never)
      .onConflict((conflict) => conflict.columns(key as never).doUpdateSet({ cpu_core_hours: added('cpu_core_hours'), memory_gib_hours: added('memory_gib_hours') } as never))
      .execute();
  }
}

/** How far usage is accounted (ISO 8601), or null before the first pass. */
export async function accountedUntil(db: Kysely<Database>): Promise<string | null> {
  const row = await db.selectFrom('usage_accounting').select('accounted_until').where('id', '=', ACCOUNTING_ROW_ID).executeTakeFirst();
  return row?.accounted_until ?? null;
}
