import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { currentUser } from '../http/authenticate.js';
import { notFound } from '../http/errors.js';
import { bearerAuth, MAX_TEXT_LENGTH } from '../http/schemas.js';
import { matches, nameRank } from '../db/search.js';
import { loadAccess } from '../access/access.js';
import { presentTeams, teamSchema } from './presenter.js';
import { findTeamByIdOrName } from '../teams/teams.js';
import { presentCredit, presentTeamQuota } from '../teams/quota.js';
import { recentLifecycleSettings } from '../config/lifecycleSettings.js';
import { seesTeamMembers } from '../access/access.js';
import { HttpError } from '../http/errors.js';
import { sumUsages, workspaceUsages } from '../workspaces/quotaSums.js';
import { workspaceUsageSchema } from '../workspaces/usage.js';
import { allocationState } from '../allocations/allocations.js';

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
export function teamRoutes({ db, config, clock, cluster }: AppContext): FastifyPluginAsyncZod {
  // Statuses are measured against the warning time, read at most every few seconds.
  const statusClock = async () => ({ now: clock.now(), warningDays: (await recentLifecycleSettings(db, config.lifecycleDefaults)).warning_days });
  return async (app) => {
    app.get(
      '/api/tenants',
      {
        schema: {
          tags,
          summary: 'Every team, public part only; with q, the first `limit` (20, at most 100) teams whose names match it (pickers among thousands of teams): the team named q (any case) first, then names starting with q, then the rest, each by name',
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
          // The team named q first, then names that start with it, then the other matches.
          .$if(q !== undefined && q !== '', (qb) => qb.where(matches(db, 'teams', 'teams', q!)).orderBy(nameRank('teams.name', q!)).limit(limit))
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

    app.get(
      '/api/tenants/:team/quota',
      {
        schema: {
          tags,
          summary: "What the team's workspaces hold of their quotas and use of them, summed and per workspace, and its CPU allocation this month (the team's members and platform admins)",
          security,
          params: z.object({ team: z.string().min(1).max(MAX_TEXT_LENGTH) }),
          response: {
            200: z.object({
              total: workspaceUsageSchema,
              workspaces: z.array(z.object({ id: z.number(), name: z.string(), label: z.string(), quota: workspaceUsageSchema })),
              /** This month's CPU allocation and its use (allocations/); null: the team has none. */
              allocation: z
                .object({ core_hours: z.number(), used: z.number(), period_start: z.string(), period_end: z.string(), used_up_at: z.string().nullable() })
                .nullable(),
            }),
          },
        },
      },
      async (request) => {
        const team = await findTeamByIdOrName(db, request.params.team);
        if (!team) throw notFound();
        const access = await loadAccess(db, currentUser(request));
        if (!seesTeamMembers(access, team.id)) throw new HttpError(403, "Only the team's members and platform admins can see its quotas.");
        const workspaces = await db.selectFrom('workspaces').selectAll().where('team_id', '=', team.id).orderBy('name').execute();
        const [usages, allocation] = await Promise.all([workspaceUsages(cluster, workspaces), allocationState(db, team, clock.now())]);
        return {
          allocation,
          total: sumUsages(usages),
          workspaces: workspaces.map((workspace, index) => ({ id: workspace.id, name: workspace.name, label: workspace.label, quota: usages[index]! })),
        };
      },
    );
  };
}
