import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { currentUser } from '../http/authenticate.js';
import { notFound } from '../http/errors.js';
import { bearerAuth, MAX_TEXT_LENGTH } from '../http/schemas.js';
import { matches } from '../db/search.js';
import { loadAccess } from '../access/access.js';
import { presentTeams, teamSchema } from './presenter.js';
import { findTeamByIdOrName } from '../teams/teams.js';
import { presentCredit, presentTeamQuota } from '../teams/quota.js';
import { recentLifecycleSettings } from '../config/lifecycleSettings.js';

// The teams as people browse them (GET /api/tenants…). This folder sits above requests/, since
// a team shows the viewer's pending request to join it (presenter.ts); the team records
// (teams/) sit below requests/, which creates teams and adds members when it decides.

const tags = ['teams'];

// The search is the admin lists' (indexed, db/search.ts): name, full name, short name, affiliation.
const tenantsQuery = z.object({
  q: z
    .string({ error: 'The q field must be a string.' })
    .trim()
    .max(255, 'The q field must not be greater than 255 characters.')
    .refine((value) => !value.includes('\u0000'), 'The q field contains an invalid character.')
    .optional(),
  limit: z.coerce
    .number({ error: 'The limit field must be a number.' })
    .int('The limit field must be a whole number.')
    .min(1, 'The limit field must be between 1 and 100.')
    .max(100, 'The limit field must be between 1 and 100.')
    .default(20),
});
const security = bearerAuth;

/** Teams ("tenants" in the spec's paths). Behind the onboarding gate. */
export function teamRoutes({ db, config, clock }: AppContext): FastifyPluginAsyncZod {
  // Statuses are measured against the warning time, read at most every few seconds.
  const statusClock = async () => ({ now: clock.now(), warningDays: (await recentLifecycleSettings(db, config.lifecycleDefaults)).warning_days });
  return async (app) => {
    app.get(
      '/api/tenants',
      {
        schema: {
          tags,
          summary: 'Every team, public part only; with q, the first `limit` (20, at most 100) teams whose names match it (pickers among thousands of teams)',
          security,
          querystring: tenantsQuery,
          response: { 200: z.array(teamSchema) },
        },
      },
      async (request) => {
        const access = await loadAccess(db, currentUser(request));
        const { q, limit } = request.query;
        const teams = await db
          .selectFrom('teams')
          .selectAll()
          .$if(q !== undefined && q !== '', (qb) => qb.where(matches(db, 'teams', 'teams', q!)).limit(limit))
          .orderBy('name')
          .execute();
        return presentTeams(db, teams, access, { withMembers: false, when: await statusClock() });
      },
    );

    app.get(
      '/api/tenants/:team',
      {
        schema: {
          tags,
          summary: 'A team by id or name, with its review date and status, its quota (allocated / hard per resource) and contributor credit; members and admins also get its users',
          security,
          params: z.object({ team: z.string().min(1).max(MAX_TEXT_LENGTH) }),
          response: { 200: teamSchema },
        },
      },
      async (request) => {
        const team = await findTeamByIdOrName(db, request.params.team);
        if (!team) throw notFound();
        const access = await loadAccess(db, currentUser(request));
        const [presented] = await presentTeams(db, [team], access, { withMembers: true, when: await statusClock() });
        return { ...presented!, quota: await presentTeamQuota(db, team), credit: await presentCredit(db, team.id) };
      },
    );
  };
}
