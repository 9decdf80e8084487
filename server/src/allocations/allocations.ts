import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

// Reading a team's allocation against its usage this month (plain functions of the database,
// called by the lifecycle step and by the team's quota answer).

/** The start of the calendar month (UTC) `now` falls in, as stored timestamps are written. */
export function monthStart(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();
}

/** The start of the next calendar month (UTC), when a used-up allocation comes back. */
export function nextMonthStart(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString();
}

/** At this share of the allocation, the team's owners and managers are told (once a month). */
export const ALLOCATION_WARNING_SHARE = 0.9;

/** CPU core-hours each team used this month (from `usage_hours`, its (team_id, hour_start) index); absent: none. */
export async function coreHoursThisMonth(db: Kysely<Database>, teamIds: readonly number[], now: Date): Promise<Map<number, number>> {
  if (teamIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('usage_hours')
    .select(['team_id', (eb) => eb.fn.sum<number | string>('cpu_core_hours').as('core_hours')])
    .where('team_id', 'in', teamIds)
    .where('hour_start', '>=', monthStart(now))
    .groupBy('team_id')
    .execute();
  return new Map(rows.map((row) => [row.team_id, Number(row.core_hours)]));
}

/** A team's allocation as its page shows it; null when it has none. */
export interface AllocationState {
  core_hours: number;
  used: number;
  period_start: string;
  period_end: string;
  /** Since when new pods are refused; null while there is some left. */
  used_up_at: string | null;
}

export async function allocationState(
  db: Kysely<Database>,
  team: { id: number; allocation_core_hours: number | null; allocation_used_up_at: string | null },
  now: Date,
): Promise<AllocationState | null> {
  if (team.allocation_core_hours === null) return null;
  const used = (await coreHoursThisMonth(db, [team.id], now)).get(team.id) ?? 0;
  return {
    core_hours: team.allocation_core_hours,
    used: Math.round(used * 1000) / 1000,
    period_start: monthStart(now),
    period_end: nextMonthStart(now),
    used_up_at: team.allocation_used_up_at,
  };
}
