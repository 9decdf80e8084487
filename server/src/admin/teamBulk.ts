import { recordActivity } from '../activity/log.js';
import { filteredTeams, type TeamFilters } from './lists.js';
import { accessChanged, type AfterCommitServices, applyAfterCommit } from '../effects/afterCommit.js';
import type { AppContext } from '../context.js';
import { changeTeamsEnabled, type TeamBulkAction, type TeamBulkItem, type TeamBulkStatus } from './teams.js';

// POST /api/admin/teams/bulk: suspend or enable a list of team ids, or every team the admin
// teams list's filter matches on the server (not only the page the console shows). Batches of
// BATCH ids, one transaction each (changeTeamsEnabled: what PATCH /api/admin/teams/{id}
// {enabled} does, set-based): a failure mid-way leaves the earlier batches done and recorded,
// and no transaction holds the database for the whole run.

export const BATCH = 500;

export interface TeamBulkRequest {
  ids?: number[];
  /** The teams list's filters, as lists/teams.ts takes them. */
  filter?: TeamFilters;
  /** The filter as sent, for the activity entry. */
  filterAsSent?: Record<string, unknown>;
  action: TeamBulkAction;
  dryRun: boolean;
}

export async function bulkTeams(context: Pick<AppContext, 'db'> & AfterCommitServices, actorId: number, request: TeamBulkRequest) {
  const { db } = context;
  const ids = request.ids
    ? [...new Set(request.ids)]
    : (await filteredTeams(db, request.filter ?? {}).select('id').orderBy('id').execute()).map((row) => row.id);

  const results: TeamBulkItem[] = [];
  const changed: number[] = [];
  const people = new Set<number>();
  let workspaces = 0;
  let memberships = 0;
  for (let start = 0; start < ids.length; start += BATCH) {
    const batch = ids.slice(start, start + BATCH);
    const change = await db.transaction().execute((trx) => changeTeamsEnabled(trx, { ids: batch, action: request.action, causerId: actorId, dryRun: request.dryRun }));
    results.push(...change.results);
    changed.push(...change.changedIds);
    for (const id of change.affectedUserIds) people.add(id);
    if (!request.dryRun && change.changedIds.length > 0) {
      // After each batch's commit, as PATCH does after its own: the reconciler revokes or
      // restores the bindings, and workspace and pod-log subscriptions end (realtime/rights.ts).
      applyAfterCommit(context, accessChanged(change.affectedUserIds));
    }
    workspaces += change.reach.workspaces;
    memberships += change.reach.workspace_memberships;
  }

  const totals: Record<TeamBulkStatus, number> = { done: 0, unchanged: 0, not_found: 0 };
  for (const result of results) totals[result.status]++;
  const reach = { members: people.size, workspaces, workspace_memberships: memberships };

  if (!request.dryRun && changed.length > 0) {
    // Each team has its own entry (changeTeamsEnabled); this one says who acted on how many.
    await recordActivity(db, {
      causerId: actorId,
      description: request.action === 'suspend' ? 'teams suspended in bulk' : 'teams enabled in bulk',
      severity: 'warning',
      properties: { matched: ids.length, ...totals, ...reach, ...(request.filterAsSent ? { filter: request.filterAsSent } : {}) },
    });
  }
  return { action: request.action, dry_run: request.dryRun, matched: ids.length, totals, reach, results };
}
