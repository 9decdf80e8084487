import { createHmac, timingSafeEqual } from 'node:crypto';

// What the Pusher protocol v7 says, apart from the server that speaks it: error codes, channel
// signatures, the handshake URL and the holder of a subscription.
// (https://pusher.com/docs/channels/library_auth_reference/pusher-websockets-protocol/)

/** Pusher error codes used here. 4000-4099: the client does not reconnect; 4100-4199: it backs off; 4200-4299: it reconnects. */
export const PusherErrorCode = {
  /** 4001: no application with this key. The client does not reconnect. */
  APP_NOT_FOUND: 4001,
  /** 4005: the path is not /app/{key}. */
  PATH_NOT_FOUND: 4005,
  /** 4007: a protocol version other than 7. */
  UNSUPPORTED_PROTOCOL: 4007,
  /** 4008: no protocol version. */
  NO_PROTOCOL: 4008,
  /** 4009: a message over the size limit (the connection is closed). */
  MESSAGE_TOO_LARGE: 4009,
  /** 4100: too many connections (for the server or from this address), or too many messages on this one; the client backs off. */
  OVER_CAPACITY: 4100,
  /** 4201: idle past the activity timeout and its grace; the client reconnects. */
  IDLE: 4201,
  /** 4202: subscribed to nothing for a whole activity timeout ("closed after inactivity"). */
  UNUSED: 4202,
  /** 4301: client events are not allowed (the connection stays open). */
  CLIENT_EVENT_REFUSED: 4301,
} as const;

/**
 * Sent on a channel, to one subscriber, when the server ends that subscription because a right
 * behind it ended (docs/api-contract.md, "Realtime"). A normal event, not `pusher_internal:*`,
 * because pusher-js hands only normal events to the application.
 */
export const SUBSCRIPTION_ENDED_EVENT = 'SubscriptionEnded';

/** Why a subscription was ended (the `reason` of SubscriptionEnded). */
export type SubscriptionEndReason = 'access-ended' | 'session-ended' | 'account-disabled';

export interface SubscriptionEnd {
  reason: SubscriptionEndReason;
  message: string;
}

/** The app secret of the realtime server: derived from APP_KEY, stable across restarts, never sent to clients. */
export function realtimeAppSecret(appKey: string): string {
  return createHmac('sha256', appKey).update('testbed-console realtime app secret v1').digest('hex');
}

/**
 * The `auth` value Pusher expects: `{key}:{hex HMAC-SHA256(secret, "socket_id:channel")}`, or
 * over `"socket_id:channel:channel_data"` when the subscription carries channel data (as
 * presence channels do; here every private channel does, to name its holder).
 */
export function channelAuthSignature(appKey: string, appSecret: string, socketId: string, channel: string, channelData?: string): string {
  const signed = channelData === undefined ? `${socketId}:${channel}` : `${socketId}:${channel}:${channelData}`;
  return `${appKey}:${createHmac('sha256', appSecret).update(signed).digest('hex')}`;
}

/** Who holds a private subscription: the user and the access token that authorized it. */
export interface Holder {
  userId: number;
  tokenId: number;
}

/** The channel_data that POST /broadcasting/auth signs: `{"user_id":5,"token_id":12}`. */
export const holderChannelData = (holder: Holder) => JSON.stringify({ user_id: holder.userId, token_id: holder.tokenId });

/** The holder named by signed channel data, or null when it names none properly. */
export function parseHolder(channelData: string): Holder | null {
  let value: unknown;
  try {
    value = JSON.parse(channelData);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { user_id: userId, token_id: tokenId } = value as Record<string, unknown>;
  const id = (candidate: unknown): candidate is number => typeof candidate === 'number' && Number.isSafeInteger(candidate) && candidate > 0;
  return id(userId) && id(tokenId) ? { userId, tokenId } : null;
}

export const SOCKET_ID_PATTERN = /^\d+\.\d+$/;
export const CHANNEL_NAME_PATTERN = /^[A-Za-z0-9_\-=@,.;]+$/;

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A handshake URL that parsed: the app key when the path is /app/{key}, and the protocol version. */
export interface Handshake {
  /** null when the path is not /app/{key} (answered with 4005 after the upgrade, as Pusher does). */
  key: string | null;
  protocol: string | null;
}

/** RFC 3986 origin-form: an absolute path of pchars, an optional query; no fragment. */
const ORIGIN_FORM = /^\/[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*(\?[A-Za-z0-9\-._~!$&'()*+,;=:@%/?]*)?$/;
/** A `%` not followed by two hex digits. */
const BAD_PERCENT = /%(?![0-9A-Fa-f]{2})/;

/**
 * Reads the request target of a WebSocket handshake; null when it is malformed (not a path,
 * bad percent-encoding), which is refused with HTTP 400 before the upgrade. Only the
 * origin-form (`/path?query`) is accepted: the target is parsed as a path under a fixed base,
 * so `//host/…` or `http://[…` can neither throw nor name another host.
 */
export function parseHandshakeUrl(target: string | undefined): Handshake | null {
  if (!target || !ORIGIN_FORM.test(target) || target.startsWith('//') || BAD_PERCENT.test(target)) return null;
  let url: URL;
  try {
    url = new URL(`http://realtime.invalid${target}`);
  } catch {
    return null;
  }
  const match = /^\/app\/([^/]+)$/.exec(url.pathname);
  let key: string | null = null;
  if (match) {
    try {
      key = decodeURIComponent(match[1]);
    } catch {
      return null;
    }
  }
  return { key, protocol: url.searchParams.get('protocol') };
}
