import type { Kysely } from 'kysely';
import { z } from 'zod';
import { recordActivity } from '../activity/log.js';
import type { AppContext } from '../context.js';
import { timestamp } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { type AfterCommitServices, applyAfterCommit } from '../effects/afterCommit.js';
import { earlierEnd } from '../workspaces/expiry.js';
import { renewedEnd, setTeamEnd, setWorkspaceEnd } from '../workspaces/renewal.js';
import { filteredTeams, filteredWorkspaces, type TeamFilters, type WorkspaceFilters } from './lists.js';

// "Extend by N days" on the admin teams and workspaces lists (POST /api/admin/teams/bulk and
// /api/admin/workspaces/bulk {action: "extend", days}; docs/lifecycle.md, "Extending in bulk").
//
// - Each end date moves `days` on from itself, or from now when it already passed: the rule of a
//   renewal (renewedEnd), so an extension and a renewal of the same days agree.
// - An item without an end date is skipped ("no end date"): it does not end, and giving it an
//   end would shorten its life, the opposite of what was asked.
// - A workspace goes through setWorkspaceEnd, the path of a renewal and of the admin's PATCH: a
//   suspended workspace whose new end and whose team's review date are both ahead is resumed (the
//   reconciler restores its quota and its members' access). One whose team's date has passed
//   stays suspended, and its result says why. As with a renewal or the admin's PATCH, its end is
//   not cut to its team's review date; whichever comes first ends it (`ends_at` in its result).
// - A team goes through setTeamEnd: the workspaces its passed review date had suspended (their
//   own end still ahead) come back.
// - Batches of EXTEND_BATCH ids, one transaction each; every change has its own entry in the
//   activity log ("workspace end date changed" / "team review date changed", with the cause),
//   and one more entry sums the run up. A dry run reads the same rows and changes nothing.

export const EXTEND_BATCH = 500;
export const MAX_EXTEND_DAYS = 3650;
const CAUSE = 'extended in bulk by a platform admin';
const NO_END = 'No end date: it does not end, so there is nothing to extend.';
const TEAM_ENDED = "Its team's review date has passed: it stays suspended until the team is extended or renewed.";

export type ExtendStatus = 'done' | 'skipped' | 'not_found';

export interface ExtendItem {
  id: number;
  status: ExtendStatus;
  name?: string;
  namespace?: string;
  /** The end date before and after. */
  from?: string;
  to?: string;
  /** Workspaces: when it ends now, the earlier of its new date and its team's review date. */
  ends_at?: string | null;
  /** Workspaces: its suspension is (would be) lifted. */
  resumed?: boolean;
  /** Teams: how many of its workspaces come (would come) back from a suspension. */
  resumed_workspaces?: number;
  message?: string;
}

interface Batch {
  results: ExtendItem[];
  resumed: number;
}

interface BatchInput {
  ids: number[];
  days: number;
  now: Date;
  actorId: number;
  dryRun: boolean;
}

async function extendWorkspaces(trx: Kysely<Database>, input: BatchInput): Promise<Batch> {
  const rows = await trx
    .selectFrom('workspaces as w')
    .innerJoin('teams as t', 't.id', 'w.team_id')
    .select(['w.id', 'w.name', 'w.namespace', 'w.expires_at', 'w.suspended_at', 't.expires_at as team_expires_at'])
    .where('w.id', 'in', input.ids)
    .execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  const now = timestamp(input.now);
  const results: ExtendItem[] = [];
  let resumedCount = 0;
  for (const id of input.ids) {
    const row = byId.get(id);
    if (!row) {
      results.push({ id, status: 'not_found', message: 'Not found.' });
      continue;
    }
    const named = { id, name: row.name, namespace: row.namespace };
    if (row.expires_at === null) {
      results.push({ ...named, status: 'skipped', message: NO_END });
      continue;
    }
    const to = renewedEnd(row.expires_at, input.now, input.days);
    // What setWorkspaceEnd decides: a suspension lifts when the new end and the team's date are both ahead.
    const resumed = input.dryRun
      ? row.suspended_at !== null && to > now && (row.team_expires_at === null || row.team_expires_at > now)
      : (await setWorkspaceEnd(trx, { workspaceId: id, expiresAt: to, now: input.now, causerId: input.actorId, cause: CAUSE })).resumed;
    if (resumed) resumedCount++;
    const stillSuspended = row.suspended_at !== null && !resumed;
    results.push({
      ...named,
      status: 'done',
      from: row.expires_at,
      to,
      ends_at: earlierEnd(to, row.team_expires_at),
      resumed,
      ...(stillSuspended ? { message: TEAM_ENDED } : {}),
    });
  }
  return { results, resumed: resumedCount };
}

async function extendTeams(trx: Kysely<Database>, input: BatchInput): Promise<Batch> {
  const now = timestamp(input.now);
  const [rows, suspended] = await Promise.all([
    trx.selectFrom('teams').select(['id', 'name', 'expires_at']).where('id', 'in', input.ids).execute(),
    // What setTeamEnd resumes: workspaces suspended while their own end is still ahead.
    input.dryRun
      ? trx
          .selectFrom('workspaces')
          .select((eb) => ['team_id', eb.fn.countAll<number | string>().as('count')])
          .where('team_id', 'in', input.ids)
          .where('suspended_at', 'is not', null)
          .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
          .groupBy('team_id')
          .execute()
      : Promise.resolve([]),
  ]);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const wouldResume = new Map(suspended.map((row) => [row.team_id, Number(row.count)]));
  const results: ExtendItem[] = [];
  let resumedCount = 0;
  for (const id of input.ids) {
    const row = byId.get(id);
    if (!row) {
      results.push({ id, status: 'not_found', message: 'Not found.' });
      continue;
    }
    if (row.expires_at === null) {
      results.push({ id, name: row.name, status: 'skipped', message: NO_END });
      continue;
    }
    const to = renewedEnd(row.expires_at, input.now, input.days);
    const resumed = input.dryRun
      ? (wouldResume.get(id) ?? 0)
      : (await setTeamEnd(trx, { teamId: id, expiresAt: to, now: input.now, causerId: input.actorId, cause: CAUSE })).resumed;
    resumedCount += resumed;
    results.push({ id, name: row.name, status: 'done', from: row.expires_at, to, resumed_workspaces: resumed });
  }
  return { results, resumed: resumedCount };
}

export interface ExtendRequest {
  kind: 'team' | 'workspace';
  ids?: number[];
  /** The list's filters (lists/teams.ts or lists/workspaces.ts); read at the app's clock. */
  filter?: TeamFilters | WorkspaceFilters;
  /** The filter as sent, for the activity entry. */
  filterAsSent?: Record<string, unknown>;
  days: number;
  dryRun: boolean;
}

export async function bulkExtend(context: Pick<AppContext, 'db' | 'clock'> & AfterCommitServices, actorId: number, request: ExtendRequest) {
  const { db } = context;
  const now = context.clock.now();
  const filter = { ...request.filter, now };
  const ids = request.ids
    ? [...new Set(request.ids)]
    : request.kind === 'team'
      ? (await filteredTeams(db, filter).select('id').orderBy('id').execute()).map((row) => row.id)
      : (await filteredWorkspaces(db, filter).select('w.id').orderBy('w.id').execute()).map((row) => row.id);

  const results: ExtendItem[] = [];
  let resumed = 0;
  for (let start = 0; start < ids.length; start += EXTEND_BATCH) {
    const input = { ids: ids.slice(start, start + EXTEND_BATCH), days: request.days, now, actorId, dryRun: request.dryRun };
    const batch = await db.transaction().execute((trx) => (request.kind === 'team' ? extendTeams(trx, input) : extendWorkspaces(trx, input)));
    results.push(...batch.results);
    resumed += batch.resumed;
    // After each batch's commit: the reconciler gives the resumed workspaces their quota and
    // their members' access back (the realtime rights do not depend on a suspension).
    if (!request.dryRun && batch.resumed > 0) applyAfterCommit(context, { clusterSync: true });
  }

  const totals: Record<ExtendStatus, number> = { done: 0, skipped: 0, not_found: 0 };
  for (const result of results) totals[result.status]++;
  const reach = { resumed_workspaces: resumed };

  if (!request.dryRun && totals.done > 0) {
    // Each item has its own entry (renewal.ts); this one says who extended how many, by how much.
    await recordActivity(db, {
      causerId: actorId,
      description: request.kind === 'team' ? 'teams extended in bulk' : 'workspaces extended in bulk',
      properties: { days: request.days, matched: ids.length, ...totals, ...reach, ...(request.filterAsSent ? { filter: request.filterAsSent } : {}) },
    });
  }
  return { action: 'extend' as const, dry_run: request.dryRun, days: request.days, matched: ids.length, totals, reach, results };
}

// ---------------------------------------------------------------------------------------
// Request and answer parts shared by both bulk routes (teamSchemas.ts, workspaceBulk.ts)

const DAYS_MESSAGE = `The days field must be a whole number of days from 1 to ${MAX_EXTEND_DAYS}.`;

/** `days` of an extension; required with `action: "extend"` (extendHasDays). */
export const extendDays = z.number({ error: DAYS_MESSAGE }).int(DAYS_MESSAGE).min(1, DAYS_MESSAGE).max(MAX_EXTEND_DAYS, DAYS_MESSAGE).optional();

export const extendHasDays = (body: { action: string; days?: number }) => body.action !== 'extend' || body.days !== undefined;
export const DAYS_REQUIRED = 'The days field is required to extend.';

const FILTER_DAYS_MESSAGE = `The filter.expiring_within_days field must be a whole number of days from 1 to ${MAX_EXTEND_DAYS}.`;

/** The lists' end filters (`filter[expiring_within_days]`, `filter[expired]`) in a bulk body's JSON `filter`. */
export const bulkEndFilters = {
  expiring_within_days: z.number({ error: FILTER_DAYS_MESSAGE }).int(FILTER_DAYS_MESSAGE).min(1, FILTER_DAYS_MESSAGE).max(MAX_EXTEND_DAYS, FILTER_DAYS_MESSAGE).optional(),
  expired: z.boolean({ error: 'The filter.expired field must be true or false.' }).optional(),
};

/** The answer of an extension (dry run or not), on either list. */
export const bulkExtendAnswer = z.object({
  action: z.literal('extend'),
  dry_run: z.boolean(),
  days: z.number(),
  /** How many items the ids or the filter named. */
  matched: z.number(),
  totals: z.object({ done: z.number(), skipped: z.number(), not_found: z.number() }),
  /** Workspaces whose suspension lifts (would lift, in a dry run). */
  reach: z.object({ resumed_workspaces: z.number() }),
  results: z.array(
    z.object({
      id: z.number(),
      status: z.enum(['done', 'skipped', 'not_found']),
      name: z.string().optional(),
      namespace: z.string().optional(),
      from: z.string().optional(),
      to: z.string().optional(),
      ends_at: z.string().nullable().optional(),
      resumed: z.boolean().optional(),
      resumed_workspaces: z.number().optional(),
      message: z.string().optional(),
    }),
  ),
});
