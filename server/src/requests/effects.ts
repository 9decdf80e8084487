import type { AppContext } from '../context.js';
import type { Request } from '../db/schema.js';
import { RealtimeEvent } from '../broadcasting/broadcaster.js';
import { type AfterCommit, mergeAfterCommit } from '../effects/afterCommit.js';
import { presentRequests } from './presenter.js';
import { whoMayDecide } from './routing.js';

// What follows a request's creation or decision once it committed: the mails written in its
// transaction sent, the reconciler told about access an approval granted, and realtime events
// computed in the background. An event's payload is the request as GET /api/requests presents
// it, with `can_decide` as it is for the recipient.

type Readers = Pick<AppContext, 'db'>;

/** `RequestCreated` on the user channel of everyone who may decide a new pending request. */
export function requestCreatedNotices(context: Readers, request: Request): AfterCommit {
  return {
    laterNotices: [
      {
        label: 'request created broadcast',
        compute: async () => {
          const [presented] = await presentRequests(context.db, [request], null);
          const deciders = await whoMayDecide(context.db, request);
          return deciders.map((decider) => ({
            userId: decider.id,
            event: RealtimeEvent.RequestCreated,
            payload: { ...presented, can_decide: true },
          }));
        },
      },
    ],
  };
}

/** `RequestDecided` on the requester's user channel. */
export function requestDecidedNotices(context: Readers, request: Request): AfterCommit {
  return {
    laterNotices: [
      {
        label: 'request decided broadcast',
        compute: async () => {
          const [presented] = await presentRequests(context.db, [request], null);
          return [{ userId: request.user_id, event: RealtimeEvent.RequestDecided, payload: { ...presented, can_decide: false } }];
        },
      },
    ],
  };
}

/** An approval that grants workspace access (a new workspace, a join, a renewal lifting a suspension): the reconciler applies it. */
const grantsAccess = (request: Request) =>
  request.status === 'Approved' &&
  ((request.workspace_id !== null && (request.type === 'CreateWorkspace' || request.type === 'JoinWorkspace' || request.type === 'RenewWorkspace' || request.type === 'QuotaIncrease')) ||
    request.type === 'RenewTeam');

/**
 * A new request: a pending one mails and tells its deciders. One approved at once (its requester
 * could decide it) has nobody else to tell; only the access it grants follows.
 */
export function creationEffects(context: Readers, request: Request): AfterCommit {
  if (request.status === 'Pending') return mergeAfterCommit({ mail: true }, requestCreatedNotices(context, request));
  return { clusterSync: grantsAccess(request) };
}

/** A decision: the requester's mail sent and their event, and the access an approval grants. */
export function decisionEffects(context: Readers, request: Request): AfterCommit {
  return mergeAfterCommit({ mail: true, clusterSync: grantsAccess(request) }, requestDecidedNotices(context, request));
}
