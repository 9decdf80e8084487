import Echo from 'laravel-echo';
import Pusher from 'pusher-js';
import type { Settings } from '../settings';

/** Events the server broadcasts on `private-App.User.{id}` (docs/server.md, "Realtime"). */
export const USER_EVENTS = ['RequestCreated', 'RequestDecided'] as const;
export type UserEvent = (typeof USER_EVENTS)[number];

/**
 * A laravel-echo client speaking the Pusher protocol to the console's realtime server (or a
 * Laravel Reverb server): private channels are authorized by POST /broadcasting/auth with the
 * session's bearer token.
 */
export const createEcho = (settings: Settings, token: string): Echo<'reverb'> =>
  new Echo({
    broadcaster: 'reverb',
    Pusher,
    key: settings.realtime.key,
    wsHost: settings.realtime.host,
    wsPort: settings.realtime.port,
    wssPort: settings.realtime.port,
    forceTLS: settings.realtime.forceTLS,
    enabledTransports: ['ws', 'wss'],
    authEndpoint: `${settings.apiUrl}/broadcasting/auth`,
    auth: { headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' } },
  });
