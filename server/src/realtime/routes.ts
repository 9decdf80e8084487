import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { currentUser, FORBIDDEN, requireOnboarded } from '../http/authenticate.js';
import { HttpError } from '../http/errors.js';
import { bearerAuth } from '../http/schemas.js';
import { mayListen } from './channels.js';
import { channelAuthSignature, holderChannelData, realtimeAppSecret, SOCKET_ID_PATTERN } from './protocol.js';

const authBody = z.object({
  socket_id: z
    .string({ error: 'The socket_id field is required.' })
    .regex(SOCKET_ID_PATTERN, 'The socket_id field format is invalid.')
    .max(64, 'The socket_id field format is invalid.'),
  channel_name: z.string({ error: 'The channel_name field is required.' }).min(1, 'The channel_name field is required.').max(200),
});

// Who may listen where lives in channels.ts (the rights re-check asks it too).
export { mayListen } from './channels.js';

/**
 * POST /broadcasting/auth: signs a private channel subscription for pusher-js / laravel-echo.
 * The answer names the holder in `channel_data` (`{user_id, token_id}`), which the signature
 * covers and pusher-js sends back with `auth`: the realtime server learns from it, without
 * asking anybody, whose right to re-check when rights change (realtime/rights.ts).
 */
export function realtimeRoutes(context: AppContext): FastifyPluginAsyncZod {
  const { config } = context;
  const appSecret = realtimeAppSecret(config.appKey);
  return async (app) => {
    // pusher-js posts a form (socket_id=…&channel_name=…); only this plugin accepts forms.
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      done(null, Object.fromEntries(new URLSearchParams(text)));
    });

    app.post(
      '/broadcasting/auth',
      {
        onRequest: requireOnboarded,
        schema: {
          tags: ['realtime'],
          summary: 'Authorize a private channel subscription (Pusher signature)',
          security: bearerAuth,
          body: authBody,
          response: { 200: z.object({ auth: z.string(), channel_data: z.string() }) },
        },
      },
      async (request) => {
        const user = currentUser(request);
        const { socket_id, channel_name } = request.body;
        // requireOnboarded let the request in, so it came with a token.
        const token = request.accessToken;
        if (!token || !(await mayListen(context, user, channel_name))) throw new HttpError(403, FORBIDDEN);
        const channelData = holderChannelData({ userId: user.id, tokenId: token.id });
        return { auth: channelAuthSignature(config.realtime.key, appSecret, socket_id, channel_name, channelData), channel_data: channelData };
      },
    );
  };
}
