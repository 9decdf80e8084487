import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { requireAdmin } from '../http/authenticate.js';
import { bearerAuth } from '../http/schemas.js';
import { adminDashboard } from './dashboard.js';

// GET /api/admin/dashboard: the platform admins' overview (dashboard.ts). Units are in the
// field names' documentation: cores, GiB, core-hours, GiB-hours.

const counted = <K extends string>(key: K) => z.array(z.object({ [key]: z.string(), count: z.number() } as Record<K, z.ZodString> & { count: z.ZodNumber }));

export const dashboardAnswer = z.object({
  generated_at: z.string(),
  /** Pending requests per type, every known type (0 included) and any other found pending. */
  pending_requests: z.object({ total: z.number(), by_type: counted('type') }),
  /** People active in the last 24 hours, 7 days and 30 days (users list filter[active_within_days]). */
  active_people: z.object({ day: z.number(), week: z.number(), month: z.number() }),
  /** The teams that used the most CPU core-hours this calendar month (UTC), [from, to). */
  top_teams: z.object({
    from: z.string(),
    to: z.string(),
    teams: z.array(
      z.object({ id: z.number(), name: z.string().nullable(), fullname: z.string().nullable(), cpu_core_hours: z.number(), memory_gib_hours: z.number() }),
    ),
  }),
  capacity: z.object({
    /** The Ready nodes' capacity (cores, GiB), not disabled, from the node watcher's records. */
    contributed: z.object({ nodes: z.number(), cpu: z.number(), memory: z.number() }),
    /** Average cores and GiB requested over the last complete accounted hour; null: nothing accounted yet. */
    used: z.object({ hour_start: z.string(), cpu: z.number(), memory: z.number() }).nullable(),
  }),
  /** The console's nodes per status as the admin list names them ('disabled' for a disabled node). */
  nodes_by_status: counted('status'),
  /** Teams and workspaces ending from now to `days` days on (the lists' filter[expiring_within_days]). */
  expiring_soon: z.object({ days: z.number(), teams: z.number(), workspaces: z.number() }),
});

export function adminDashboardRoutes({ db, clock }: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/admin/dashboard',
      {
        schema: {
          tags: ['admin'],
          summary:
            'The platform overview: pending requests by type, people active in the last day/week/month, the top teams by CPU core-hours this month, capacity used (cores, GiB) against the Ready nodes\' capacity, nodes by status, teams and workspaces ending within 30 days',
          security: bearerAuth,
          response: { 200: dashboardAnswer },
        },
        onRequest: requireAdmin,
      },
      async () => adminDashboard(db, clock.now()),
    );
  };
}
