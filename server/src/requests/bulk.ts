import { recordActivity } from '../activity/log.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../http/errors.js';
import type { Access } from '../teams/access.js';
import { broadcastRequestDecided } from './broadcasts.js';
import { notifyRequester } from './notifications.js';
import { type Decision, decideRequest } from './routing.js';

export type BulkOutcome = 'decided' | 'forbidden' | 'not_found' | 'conflict';

export interface BulkItem {
  id: number;
  status: BulkOutcome;
  http: 200 | 403 | 404 | 409;
  /** Approved or Denied, for a decided request. */
  request_status?: 'Approved' | 'Denied';
  message?: string;
}

export interface BulkAnswer {
  results: BulkItem[];
  totals: Record<BulkOutcome, number> & { requested: number };
}

const OUTCOMES: Record<number, { status: BulkOutcome; http: 403 | 404 | 409 }> = {
  403: { status: 'forbidden', http: 403 },
  404: { status: 'not_found', http: 404 },
  409: { status: 'conflict', http: 409 },
};

/**
 * POST /api/requests/bulk: decides each request as PATCH /api/requests/{id} would
 * (decideRequest: same visibility, 403/404/409, one transaction per request), so one refusal
 * or conflict leaves the others decided. Ids are taken once each, in the order given. The
 * requester of each decided request is mailed and told over realtime, as for one decision;
 * one more activity entry sums up the call.
 */
export async function decideRequests(
  context: AppContext,
  access: Access,
  input: { ids: number[]; action: Decision; message: string | null },
): Promise<BulkAnswer> {
  const results: BulkItem[] = [];
  for (const id of new Set(input.ids)) {
    try {
      const decided = await decideRequest(context.db, { requestId: id, access, action: input.action, message: input.message });
      notifyRequester(context, decided);
      broadcastRequestDecided(context, decided);
      results.push({ id, status: 'decided', http: 200, request_status: decided.status === 'Approved' ? 'Approved' : 'Denied' });
    } catch (error) {
      // Anything but the three refusals of one decision is a fault: it stops the call (500),
      // and what was decided before it stays decided and recorded.
      const outcome = error instanceof HttpError ? OUTCOMES[error.status] : undefined;
      if (!outcome) throw error;
      results.push({ id, ...outcome, message: (error as HttpError).message });
    }
  }
  const totals = { requested: results.length, decided: 0, forbidden: 0, not_found: 0, conflict: 0 };
  for (const item of results) totals[item.status] += 1;
  await recordActivity(context.db, {
    causerId: access.userId,
    description: input.action === 'approve' ? 'requests approved in bulk' : 'requests denied in bulk',
    severity: totals.decided === totals.requested ? 'info' : 'warning',
    properties: { action: input.action, ...totals, ids: results.filter((item) => item.status === 'decided').map((item) => item.id) },
  });
  return { results, totals };
}
