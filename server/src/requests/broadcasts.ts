import type { AppContext } from '../context.js';
import type { Request } from '../db/schema.js';
import { RealtimeEvent } from '../broadcasting/broadcaster.js';
import { presentRequests } from './presenter.js';
import { whoMayDecide } from './routing.js';

// Realtime events about requests, sent in the background (context.tasks) after the change
// committed, like the mails of notifications.ts. Payload: the request as GET /api/requests
// presents it, with `can_decide` as it is for the recipient.

/** `RequestCreated` on the user channel of everyone who may decide a new pending request. */
export function broadcastRequestCreated(context: AppContext, request: Request): void {
  context.tasks.run('request created broadcast', async () => {
    const [presented] = await presentRequests(context.db, [request], null);
    for (const decider of await whoMayDecide(context.db, request)) {
      context.broadcaster.toUser(decider.id, RealtimeEvent.RequestCreated, { ...presented, can_decide: true });
    }
  });
}

/** `RequestDecided` on the requester's user channel. */
export function broadcastRequestDecided(context: AppContext, request: Request): void {
  context.tasks.run('request decided broadcast', async () => {
    const [presented] = await presentRequests(context.db, [request], null);
    context.broadcaster.toUser(request.user_id, RealtimeEvent.RequestDecided, { ...presented, can_decide: false });
  });
}
