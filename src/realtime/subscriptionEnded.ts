import { useChannelEvent } from './RealtimeProvider';

/**
 * The event the realtime server sends on a channel, to one subscriber, when it ends that
 * subscription because a right behind it ended (docs/api-contract.md, "Realtime"). Nothing more
 * arrives on the channel afterwards, and subscribing again is refused.
 */
export const SUBSCRIPTION_ENDED = 'SubscriptionEnded';

export type SubscriptionEndReason = 'access-ended' | 'session-ended' | 'account-disabled';

export interface SubscriptionEnded {
  reason: SubscriptionEndReason;
  message?: string;
}

const REASONS: readonly SubscriptionEndReason[] = ['access-ended', 'session-ended', 'account-disabled'];

/** The payload as the console reads it: an unknown reason counts as access-ended. */
export const readSubscriptionEnded = (payload: unknown): SubscriptionEnded => {
  const { reason, message } = (payload ?? {}) as { reason?: unknown; message?: unknown };
  return {
    reason: REASONS.includes(reason as SubscriptionEndReason) ? (reason as SubscriptionEndReason) : 'access-ended',
    message: typeof message === 'string' ? message : undefined,
  };
};

/**
 * The i18n key (and its arguments) that says why: `accessKey` for a lost access (with
 * `accessArgs`), the session or account notice otherwise.
 */
export const subscriptionEndedNotice = (ended: SubscriptionEnded, accessKey: string, accessArgs: Record<string, unknown> = {}) => {
  if (ended.reason === 'session-ended') return { key: 'app.realtime.session_ended', args: {} };
  if (ended.reason === 'account-disabled') return { key: 'app.realtime.account_disabled', args: {} };
  return { key: accessKey, args: accessArgs };
};

/** Calls `handler` when the server ends the subscription to the private channel `name`. */
export const useSubscriptionEnded = (name: string | null, handler: (ended: SubscriptionEnded) => void) =>
  useChannelEvent(name, SUBSCRIPTION_ENDED, (payload) => handler(readSubscriptionEnded(payload)));
