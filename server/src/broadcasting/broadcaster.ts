import type { FastifyBaseLogger } from 'fastify';
import type { RealtimeServer } from '../realtime/pusherServer.js';

// What the domains broadcast, and to whom. Event names are Laravel-style short names: the
// console listens with a leading dot (`Echo.private('App.User.7').listen('.RequestDecided', …)`),
// which tells laravel-echo not to prefix its `App\Events` namespace.

export const RealtimeEvent = {
  /** To each decider's user channel: a new Pending request they may decide. Payload: the presented request. */
  RequestCreated: 'RequestCreated',
  /** To the requester's user channel: their request was approved or denied. Payload: the presented request. */
  RequestDecided: 'RequestDecided',
  /** To each decider's user channel: a pending request was closed without them (its requester left the team). Payload: the presented request. */
  RequestClosed: 'RequestClosed',
  /** To the owner's user channel: the status of their node changed. Payload: the presented node. */
  NodeStatusChanged: 'NodeStatusChanged',
  /** To each member's user channel: a platform admin deleted a workspace they were in. Payload: {id, name, label, namespace, team}. */
  WorkspaceDeleted: 'WorkspaceDeleted',
  /** To the inviter's user channel: their invitation was accepted. Payload: {id, team_id, email, user_id}. */
  InvitationAccepted: 'InvitationAccepted',
} as const;

export type RealtimeEventName = (typeof RealtimeEvent)[keyof typeof RealtimeEvent];

/** The private channel of a user (laravel-echo: `Echo.private('App.User.{id}')`). */
export const userChannel = (userId: number) => `private-App.User.${userId}`;
/** The private channel of a workspace (laravel-echo: `Echo.private('workspace.{id}')`). */
export const workspaceChannel = (workspaceId: number) => `private-workspace.${workspaceId}`;

export interface Broadcaster {
  toUser(userId: number, event: string, payload: unknown): void;
  toWorkspace(workspaceId: number, event: string, payload: unknown): void;
  /**
   * A right of these users may have ended (a membership, a token or session, the account, a
   * node): the realtime server re-checks their open subscriptions and ends those no longer
   * allowed. Call it after the change is committed.
   */
  rightsChanged(userIds: number[]): void;
}

/** For apps without a realtime server (most tests, the CLI): broadcasts go nowhere. */
export const noopBroadcaster: Broadcaster = {
  toUser() {},
  toWorkspace() {},
  rightsChanged() {},
};

/**
 * Broadcasts through the Pusher-protocol server of this process, and hands it rights changes
 * (re-checked by realtime/rights.ts once attached). Never throws.
 */
export function realtimeBroadcaster(server: Pick<RealtimeServer, 'broadcast' | 'rightsChanged'>, logger?: FastifyBaseLogger): Broadcaster {
  const broadcast = (channel: string, event: string, payload: unknown) => {
    try {
      server.broadcast(channel, event, payload);
    } catch (error) {
      logger?.error({ err: error, channel, event }, 'realtime broadcast failed');
    }
  };
  return {
    toUser: (userId, event, payload) => broadcast(userChannel(userId), event, payload),
    toWorkspace: (workspaceId, event, payload) => broadcast(workspaceChannel(workspaceId), event, payload),
    rightsChanged(userIds) {
      try {
        server.rightsChanged(userIds);
      } catch (error) {
        logger?.error({ err: error, userIds }, 'realtime rights change failed');
      }
    },
  };
}
