import type { Kysely } from 'kysely';
import pino from 'pino';
import Pusher from 'pusher-js';
import type { Database } from '../../src/db/schema.js';
import { createRealtimeServer, type RealtimeServer, type RealtimeServerOptions, realtimeAppSecret } from '../../src/realtime/pusherServer.js';
import { attachRightsChecks, type RightsChecks } from '../../src/realtime/rights.js';

// The realtime side as main.ts runs it: the Pusher-protocol server with its rights checks, on
// loopback, and real pusher-js clients whose private channels the listening app authorizes.

export const REALTIME_APP_KEY = 'testbed';

export interface TestRealtimeOptions {
  /** The Pusher-protocol server's own options (limits, activity timeouts, client address). */
  server?: Partial<RealtimeServerOptions>;
  /** How often open subscriptions are re-checked (the server's default otherwise). */
  recheckIntervalMs?: number;
}

export interface TestRealtime {
  server: RealtimeServer;
  rights: RightsChecks;
  /** A pusher-js client (disconnected on close) whose private channels are authorized with the token. */
  pusher(token?: string): Pusher;
}

export async function startTestRealtime(
  input: { appKey: string; db: Kysely<Database> },
  options: TestRealtimeOptions = {},
): Promise<TestRealtime & { listening(baseUrl: string): void; close(): Promise<void> }> {
  const logger = pino({ level: 'silent' });
  const server = await createRealtimeServer({
    port: 0,
    host: '127.0.0.1',
    appKey: REALTIME_APP_KEY,
    appSecret: realtimeAppSecret(input.appKey),
    logger,
    ...options.server,
  });
  const rights = attachRightsChecks({ realtime: server, db: input.db, logger, intervalMs: options.recheckIntervalMs });
  let authEndpoint = '';
  const clients: Pusher[] = [];
  return {
    server,
    rights,
    pusher(token) {
      const client = new Pusher(REALTIME_APP_KEY, {
        cluster: 'mt1',
        wsHost: '127.0.0.1',
        wsPort: server.port,
        forceTLS: false,
        enabledTransports: ['ws'],
        disableStats: true,
        channelAuthorization: {
          endpoint: authEndpoint,
          transport: 'ajax',
          headers: token ? { Authorization: `Bearer ${token}`, Accept: 'application/json' } : { Accept: 'application/json' },
        },
      });
      clients.push(client);
      return client;
    },
    listening(baseUrl) {
      authEndpoint = `${baseUrl}/broadcasting/auth`;
    },
    async close() {
      for (const client of clients) client.disconnect();
      await rights.close();
      await server.close();
    },
  };
}
