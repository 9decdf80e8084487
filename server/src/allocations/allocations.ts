import type { Kysely } from 'kysely';
import { recordActivity } from '../activity/log.js';
import { timestamp } from '../db/database.js';
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

/** CPU core-hours each team used this month (from the days summed ahead, `usage_team_days`); absent: none. */
export async function coreHoursThisMonth(db: Kysely<Database>, teamIds: readonly number[], now: Date): Promise<Map<number, number>> {
  if (teamIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('usage_team_days')
    .select(['team_id', (eb) => eb.fn.sum<number | string>('cpu_core_hours').as('core_hours')])
    .where('team_id', 'in', teamIds)
    .where('day', '>=', monthStart(now).slice(0, 10))
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

/** The most core-hours a month's allocation may have (a million cores for a month is far beyond any testbed). */
export const MAX_ALLOCATION_CORE_HOURS = 1_000_000_000;

/**
 * Sets (or with null removes) a team's monthly CPU allocation, recorded as "team allocation
 * changed". What it means for the team's pods (used up, or back) is the lifecycle pass's next
 * decision (step.ts), as for any other change of usage or month.
 */
export async function setTeamAllocation(db: Kysely<Database>, input: { teamId: number; coreHours: number | null; causerId: number }): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom('teams').select('allocation_core_hours').where('id', '=', input.teamId).executeTakeFirstOrThrow();
    if (before.allocation_core_hours === input.coreHours) return;
    await trx.updateTable('teams').set({ allocation_core_hours: input.coreHours, updated_at: timestamp() }).where('id', '=', input.teamId).execute();
    await recordActivity(trx, {
      causerId: input.causerId,
      description: 'team allocation changed',
      subject: { type: 'team', id: input.teamId },
      properties: { before: before.allocation_core_hours, after: input.coreHours },
    });
  });
}
