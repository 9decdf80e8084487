import type { Kysely } from 'kysely';
import { recordActivity } from '../activity/log.js';
import type { AppContext } from '../context.js';
import type { Database, RequestStatus, RequestType } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import type { Access } from '../access/access.js';
import { decisionEffects } from './effects.js';
import { applyAfterCommit } from '../effects/afterCommit.js';
import { matchingRequests } from './list.js';
import { notifyRequester } from './notifications.js';
import { type Decision, decideRequest, decisionRefusal } from './routing.js';
import { approvalTerms } from './routing.js';

export type BulkOutcome = 'decided' | 'forbidden' | 'not_found' | 'conflict';

export interface BulkItem {
  id: number;
  status: BulkOutcome;
  http: 200 | 403 | 404 | 409;
  /** Approved or Denied, for a decided request (in a dry run: what it would become). */
  request_status?: 'Approved' | 'Denied';
  message?: string;
}

export interface BulkAnswer {
  results: BulkItem[];
  totals: Record<BulkOutcome, number> & { requested: number };
}

/** The requests list's filters as the bulk body sends them (GET /api/requests `filter[...]` and `q`). */
export interface BulkRequestFilter {
  status?: RequestStatus;
  type?: RequestType;
  team_id?: number;
  q?: string;
}

export interface BulkDecisionInput {
  /** The requests to decide, in this order, each once; or else */
  ids?: number[];
  /** every request the caller may decide that the filter matches, oldest first. */
  filter?: BulkRequestFilter;
  action: Decision;
  message: string | null;
  /** Decide nothing: answer what would happen to each. */
  dryRun?: boolean;
}

const OUTCOMES: Record<number, { status: BulkOutcome; http: 403 | 404 | 409 }> = {
  403: { status: 'forbidden', http: 403 },
  404: { status: 'not_found', http: 404 },
  409: { status: 'conflict', http: 409 },
  // A QuotaIncrease that no longer fits in its team: the state changed since it was asked.
  422: { status: 'conflict', http: 409 },
};

/** Rows read per query when previewing a bulk decision. */
const PREVIEW_CHUNK = 500;

/** A refusal of one decision as a bulk result; anything else is a fault and is thrown again. */
function refused(id: number, error: unknown): BulkItem {
  const outcome = error instanceof HttpError ? OUTCOMES[error.status] : undefined;
  if (!outcome) throw error;
  return { id, ...outcome, message: (error as HttpError).message };
}

const decidedStatus = (action: Decision) => (action === 'approve' ? 'Approved' : 'Denied');

/** The ids of every request the caller may decide that the filter matches, oldest first (the list's own filter: list.ts). */
async function matchedIds(db: Kysely<Database>, access: Access, filter: BulkRequestFilter): Promise<number[]> {
  const query = matchingRequests(db, access, { status: filter.status, type: filter.type, teamId: filter.team_id, q: filter.q || undefined });
  if (!query) return [];
  const rows = await query.select('r.id').orderBy('r.created_at', 'asc').orderBy('r.id', 'asc').execute();
  return rows.map((row) => row.id);
}

/** What deciding each id would answer, by the rules of one decision (decisionRefusal), deciding nothing. */
async function previewDecisions(db: Kysely<Database>, access: Access, ids: number[], action: Decision): Promise<BulkItem[]> {
  const results: BulkItem[] = [];
  for (let start = 0; start < ids.length; start += PREVIEW_CHUNK) {
    const chunk = ids.slice(start, start + PREVIEW_CHUNK);
    const rows = await db
      .selectFrom('requests')
      .select(['id', 'type', 'status', 'user_id', 'team_id', 'workspace_id'])
      .where('id', 'in', chunk)
      .execute();
    const byId = new Map(rows.map((row) => [row.id, row]));
    for (const id of chunk) {
      const refusal = decisionRefusal(access, byId.get(id));
      results.push(refusal ? refused(id, refusal) : { id, status: 'decided', http: 200, request_status: decidedStatus(action) });
    }
  }
  return results;
}

/**
 * POST /api/requests/bulk: decides each request as PATCH /api/requests/{id} would
 * (decideRequest: same visibility, 403/404/409, one transaction per request), so one refusal
 * or conflict leaves the others decided. The requests are the ids given (each once, in the
 * order given) or everything the list's filter matches on the server for this caller (not only
 * the page the console shows). The requester of each decided request is mailed and told over
 * realtime, as for one decision; one more activity entry sums up the call. A dry run decides
 * nothing and answers what would happen (the same shape), so the console can say how many
 * a filter matches before anything is decided.
 */
export async function decideRequests(context: AppContext, access: Access, input: BulkDecisionInput): Promise<BulkAnswer> {
  const ids = input.ids ? [...new Set(input.ids)] : await matchedIds(context.db, access, input.filter ?? {});
  let results: BulkItem[];
  if (input.dryRun) {
    results = await previewDecisions(context.db, access, ids, input.action);
  } else {
    results = [];
    const terms = await approvalTerms(context);
    for (const id of ids) {
      try {
        const decided = await decideRequest(context.db, { requestId: id, access, action: input.action, message: input.message, terms }, (trx, result) =>
          notifyRequester(trx, context.config, result),
        );
        applyAfterCommit(context, decisionEffects(context, decided));
        results.push({ id, status: 'decided', http: 200, request_status: decided.status === 'Approved' ? 'Approved' : 'Denied' });
      } catch (error) {
        // Anything but the three refusals of one decision is a fault: it stops the call (500),
        // and what was decided before it stays decided and recorded.
        results.push(refused(id, error));
      }
    }
  }
  const totals = { requested: results.length, decided: 0, forbidden: 0, not_found: 0, conflict: 0 };
  for (const item of results) totals[item.status] += 1;
  if (!input.dryRun) {
    await recordActivity(context.db, {
      causerId: access.userId,
      description: input.action === 'approve' ? 'requests approved in bulk' : 'requests denied in bulk',
      severity: totals.decided === totals.requested ? 'info' : 'warning',
      properties: {
        action: input.action,
        ...totals,
        ...(input.filter ? { filter: input.filter } : {}),
        ids: results.filter((item) => item.status === 'decided').map((item) => item.id),
      },
    });
  }
  return { results, totals };
}
