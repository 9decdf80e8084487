import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import type { User } from '../db/schema.js';
import { currentUser, FORBIDDEN, requireOnboarded } from '../http/authenticate.js';
import { HttpError } from '../http/errors.js';
import { bearerAuth } from '../http/schemas.js';
import { loadAccess } from '../teams/access.js';
import { findWorkspace } from '../workspaces/workspaces.js';
import { POD_LOG_CHANNEL } from './clusterFeeds.js';
import { channelAuthSignature, realtimeAppSecret, SOCKET_ID_PATTERN } from './pusherServer.js';

const authBody = z.object({
  socket_id: z
    .string({ error: 'The socket_id field is required.' })
    .regex(SOCKET_ID_PATTERN, 'The socket_id field format is invalid.')
    .max(64, 'The socket_id field format is invalid.'),
  channel_name: z.string({ error: 'The channel_name field is required.' }).min(1, 'The channel_name field is required.').max(200),
});

const USER_CHANNEL = /^private-App\.User\.(\d{1,9})$/;
const WORKSPACE_CHANNEL = /^private-workspace\.(\d{1,9})$/;

/**
 * Whether the user may listen on the channel: their own user channel; a workspace channel
 * when they are a member of the workspace (with an enabled team membership) or a platform
 * admin; a pod-log channel of a workspace when they are a member of it. Any other channel: no.
 */
export async function mayListen(context: AppContext, user: User, channel: string): Promise<boolean> {
  const userMatch = USER_CHANNEL.exec(channel);
  if (userMatch) return Number(userMatch[1]) === user.id;
  const workspaceMatch = WORKSPACE_CHANNEL.exec(channel);
  if (workspaceMatch) {
    const workspace = await findWorkspace(context.db, Number(workspaceMatch[1]));
    if (!workspace) return false;
    const access = await loadAccess(context.db, user);
    return access.admin || access.workspaceRoles.has(workspace.id);
  }
  const logMatch = POD_LOG_CHANNEL.exec(channel);
  if (logMatch) {
    // A pod's log: workspace members only (the Pods section is theirs alone; spec §2).
    const workspace = await findWorkspace(context.db, Number(logMatch[1]));
    if (!workspace) return false;
    const access = await loadAccess(context.db, user);
    return access.workspaceRoles.has(workspace.id);
  }
  return false;
}

/** POST /broadcasting/auth: signs a private channel subscription for pusher-js / laravel-echo. */
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
          response: { 200: z.object({ auth: z.string() }) },
        },
      },
      async (request) => {
        const user = currentUser(request);
        const { socket_id, channel_name } = request.body;
        if (!(await mayListen(context, user, channel_name))) throw new HttpError(403, FORBIDDEN);
        return { auth: channelAuthSignature(config.realtime.key, appSecret, socket_id, channel_name) };
      },
    );
  };
}
