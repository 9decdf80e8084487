import { recordActivity } from '../activity/log.js';
import { applyAfterCommit } from '../effects/afterCommit.js';
import { filteredUsers, type UserFilters } from './lists.js';
import { changeEnabled, type ItemResult, type ItemStatus, type Revoked } from './userBatch.js';
import type { UserServices } from './users.js';

// POST /api/admin/users/bulk: disable or enable a list of ids, or everything a users-list
// filter matches on the server (not only the page the console shows). Batches of BATCH ids,
// one transaction each: a failure mid-way leaves the earlier batches done and recorded, and
// no transaction holds the database for the whole run.

export const BATCH = 500;

export interface BulkRequest {
  ids?: number[];
  filter?: UserFilters;
  action: 'disable' | 'enable';
  dryRun: boolean;
}

export async function bulkUsers(services: UserServices, actorId: number, request: BulkRequest) {
  const { db } = services;
  const ids = request.ids
    ? [...new Set(request.ids)]
    : (await filteredUsers(db, request.filter ?? {}).select('id').orderBy('id').execute()).map((row) => row.id);
  const enable = request.action === 'enable';

  const results: ItemResult[] = [];
  const revoked: Revoked = { sessions: 0, personal_tokens: 0, kubeconfigs: 0 };
  const changed: number[] = [];
  for (let start = 0; start < ids.length; start += BATCH) {
    const batch = ids.slice(start, start + BATCH);
    const change = await db.transaction().execute((trx) =>
      changeEnabled(trx, { actorId, ids: batch, enable, dryRun: request.dryRun, bulk: true }),
    );
    results.push(...change.results);
    changed.push(...change.changedIds);
    revoked.sessions += change.revoked.sessions;
    revoked.personal_tokens += change.revoked.personal_tokens;
    revoked.kubeconfigs += change.revoked.kubeconfigs;
  }

  const totals: Record<ItemStatus, number> = { done: 0, unchanged: 0, forbidden: 0, not_found: 0 };
  for (const result of results) totals[result.status]++;

  if (!request.dryRun && changed.length > 0) {
    // Each account has its own entry (userBatch.ts); this one says who acted on how many.
    await recordActivity(db, {
      causerId: actorId,
      description: enable ? 'users enabled in bulk' : 'users disabled in bulk',
      severity: 'warning',
      properties: { matched: ids.length, ...totals, ...(request.filter ? { filter: request.filter } : {}), revoked },
    });
    applyAfterCommit(services, { rightsChanged: changed, clusterSync: true });
  }
  return { action: request.action, dry_run: request.dryRun, matched: ids.length, totals, revoked, results };
}
