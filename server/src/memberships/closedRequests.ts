import type { Kysely } from 'kysely';
import { recordActivity } from '../activity/log.js';
import type { AppContext } from '../context.js';
import { timestamp } from '../db/database.js';
import type { Database, Request } from '../db/schema.js';
import { RealtimeEvent } from '../broadcasting/broadcaster.js';
import { type AfterCommit, mergeAfterCommit, type UserNotice } from '../effects/afterCommit.js';
import { requestDecidedNotices } from '../requests/effects.js';
import { presentRequests } from '../requests/presenter.js';
import { whoMayDecide } from '../requests/routing.js';

// When someone leaves a team or is removed from it, their pending requests that only made
// sense as a member are closed: asking to join one of its workspaces (approving it would bring
// them back into the team's workspaces behind the removal's back) and asking for a new
// workspace in it (only members may). A JoinTeam request is left alone: it asks to come back.

export const NO_LONGER_MEMBER_MESSAGE = 'You are no longer a member of this team.';

/**
 * Denies, inside the removal's transaction, the person's pending JoinWorkspace and
 * CreateWorkspace requests in the team, decided by whoever removed them (or by themselves when
 * leaving), each recorded as "request denied" (automatic, reason "team membership ended").
 */
export async function closeRequestsOfFormerMember(
  trx: Kysely<Database>,
  input: { teamId: number; userId: number; causerId: number | null },
): Promise<Request[]> {
  const now = timestamp();
  const closed = await trx
    .updateTable('requests')
    .set({ status: 'Denied', decision_message: NO_LONGER_MEMBER_MESSAGE, decided_by: input.causerId, decided_at: now, updated_at: now })
    .where('team_id', '=', input.teamId)
    .where('user_id', '=', input.userId)
    .where('type', 'in', ['JoinWorkspace', 'CreateWorkspace'])
    .where('status', '=', 'Pending')
    .returningAll()
    .execute();
  closed.sort((a, b) => a.id - b.id);
  for (const request of closed) {
    await recordActivity(trx, {
      causerId: input.causerId,
      description: 'request denied',
      subject: { type: 'request', id: request.id },
      severity: 'warning',
      properties: {
        type: request.type,
        status: request.status,
        requester_id: request.user_id,
        team_id: request.team_id,
        workspace_id: request.workspace_id,
        object_name: request.object_name,
        automatic: true,
        reason: 'team membership ended',
      },
    });
  }
  return closed;
}

/**
 * After the commit: the requester gets `RequestDecided` for each closed request (as for any
 * decision), and those who could have decided it get `RequestClosed`, so that their pending
 * counts and lists drop it at once. No mail: the requester knows they left or were removed.
 */
export function requestsClosedNotices(context: Pick<AppContext, 'db'>, requests: Request[]): AfterCommit {
  if (requests.length === 0) return {};
  return mergeAfterCommit(...requests.map((request) => requestDecidedNotices(context, request)), {
    laterNotices: [
      {
        label: 'requests closed broadcast',
        compute: async () => {
          const presented = await presentRequests(context.db, requests, null);
          const notices: UserNotice[] = [];
          for (const [index, request] of requests.entries()) {
            for (const decider of await whoMayDecide(context.db, request)) {
              notices.push({ userId: decider.id, event: RealtimeEvent.RequestClosed, payload: { ...presented[index], can_decide: false } });
            }
          }
          return notices;
        },
      },
    ],
  });
}
