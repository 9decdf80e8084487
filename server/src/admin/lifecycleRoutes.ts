import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DAY_MS } from '../clock.js';
import type { AppContext } from '../context.js';
import { requireAdmin } from '../http/authenticate.js';
import { fieldError } from '../http/errors.js';
import { bearerAuth } from '../http/schemas.js';
import { lifecyclePreview } from '../lifecycle/preview.js';
import { lifecycleSettings } from '../lifecycle/settings.js';

// The console's "What ends next" panel (docs/lifecycle.md): what will be warned, suspended,
// deleted and removed until a date. Platform admins only.

const MAX_PREVIEW_DAYS = 3650;
const kinds = z.enum(['workspace_warning', 'workspace_last_warning', 'team_warning', 'team_last_warning', 'workspace_deletion']);

const previewAnswer = z.object({
  until: z.string(),
  warnings: z.array(z.object({ kind: kinds, subject_type: z.enum(['workspace', 'team']), subject_id: z.number(), label: z.string(), team: z.string().nullable(), date: z.string() })),
  suspensions: z.array(z.object({ workspace_id: z.number(), label: z.string(), team_id: z.number(), date: z.string() })),
  deletions: z.array(z.object({ workspace_id: z.number(), label: z.string(), team: z.string(), date: z.string() })),
  /** Team memberships that end (the member is removed from the team and its workspaces). */
  removals: z.array(z.object({ team_id: z.number(), team: z.string(), user_id: z.number(), name: z.string(), date: z.string() })),
});

export function adminLifecycleRoutes(context: AppContext): FastifyPluginAsyncZod {
  const { db, config, clock } = context;
  return async (app) => {
    app.get(
      '/api/admin/lifecycle/preview',
      {
        schema: {
          tags: ['admin'],
          summary: 'What the lifecycle pass will warn of, suspend, delete and remove (memberships that end) from now until a date (default: 30 days on)',
          security: bearerAuth,
          querystring: z.object({ until: z.iso.datetime({ offset: true, error: 'The until field must be an ISO 8601 date-time.' }).optional() }),
          response: { 200: previewAnswer },
        },
        onRequest: requireAdmin,
      },
      async (request) => {
        const now = clock.now();
        const until = request.query.until ? new Date(request.query.until) : new Date(now.getTime() + 30 * DAY_MS);
        if (until.getTime() < now.getTime()) throw fieldError('until', 'The until date must be in the future.');
        if (until.getTime() > now.getTime() + MAX_PREVIEW_DAYS * DAY_MS) throw fieldError('until', 'The until date must be within ten years.');
        return lifecyclePreview(db, await lifecycleSettings(db, config.lifecycleDefaults), until);
      },
    );
  };
}
