import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { currentUser } from '../http/authenticate.js';
import { bearerAuth } from '../http/schemas.js';
import { activityCausedBy, presentActivity } from './log.js';

const activityEntrySchema = z.object({
  id: z.number(),
  description: z.string(),
  subject_type: z.string().nullable(),
  subject_id: z.number().nullable(),
  properties: z.looseObject({ severity: z.enum(['info', 'warning', 'error']) }),
  created_at: z.string(),
});

/** Activity entries. Under /api, so behind the onboarding gate. */
export function activityRoutes({ db }: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/activity/mine',
      {
        schema: {
          tags: ['activity'],
          summary: 'Your own recent activity, newest first',
          security: bearerAuth,
          querystring: z.object({
            limit: z.coerce
              .number({ error: 'The limit field must be a number.' })
              .int('The limit field must be a whole number.')
              .min(1, 'The limit field must be between 1 and 100.')
              .max(100, 'The limit field must be between 1 and 100.')
              .default(50),
          }),
          response: { 200: z.array(activityEntrySchema) },
        },
      },
      async (request) => (await activityCausedBy(db, currentUser(request).id, request.query.limit)).map(presentActivity),
    );
  };
}
