import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { applyAfterCommit } from '../effects/afterCommit.js';
import { currentUser, requireAdmin } from '../http/authenticate.js';
import { notFound } from '../http/errors.js';
import { bearerAuth, idParam } from '../http/schemas.js';
import { deleteTeam, teamDeletionPlan, teamDetail, updateTeam } from './teams.js';
import { bulkTeams } from './teamBulk.js';
import { bulkExtend } from './extendBulk.js';
import { adminTeamDetailSchema, bulkTeamsAnswer, bulkTeamsBody, deleteTeamQuery, teamDeletionSchema, updateTeamBody } from './teamSchemas.js';
import { findTeam } from '../teams/teams.js';
import { setTeamQuota } from '../teams/quota.js';
import { setTeamAllocation } from '../allocations/allocations.js';

const tags = ['admin'];
const security = bearerAuth;
const params = z.object({ id: idParam() });

/** A platform admin's team page and actions (403 for everyone else; behind the onboarding gate first). */
export function adminTeamRoutes(context: AppContext): FastifyPluginAsyncZod {
  const { db } = context;
  return async (app) => {
    app.get(
      '/api/admin/teams/:id',
      {
        schema: { tags, summary: 'A team with its members and roles, workspaces, quotas, counts and recent activity', security, params, response: { 200: adminTeamDetailSchema } },
        onRequest: requireAdmin,
      },
      async (request) => {
        const team = await findTeam(db, request.params.id);
        if (!team) throw notFound();
        return teamDetail(db, team);
      },
    );

    app.patch(
      '/api/admin/teams/:id',
      {
        schema: {
          tags,
          summary:
            "Edit a team (fullname, url, country, affiliation), suspend/enable it (enabled): a suspended team's members lose their rights and cluster access in it, or set its quota (cpu, memory, pods, storage; null: no cap), which its workspaces' quotas may not add up beyond, or its monthly CPU allocation (allocation_core_hours; null: none)",
          security,
          params,
          body: updateTeamBody,
          response: { 200: adminTeamDetailSchema },
        },
        onRequest: requireAdmin,
      },
      async (request) => {
        const team = await findTeam(db, request.params.id);
        if (!team) throw notFound();
        const { quota, allocation_core_hours: allocation, ...changes } = request.body;
        const causerId = currentUser(request).id;
        // The quota first: a cap below what the workspaces hold is refused before anything changes.
        if (quota !== undefined) await setTeamQuota(db, { teamId: team.id, change: quota, causerId });
        if (allocation !== undefined) await setTeamAllocation(db, { teamId: team.id, coreHours: allocation, causerId });
        const result = await updateTeam(db, { team: allocation === undefined ? team : { ...team, allocation_core_hours: allocation }, changes, causerId });
        applyAfterCommit(context, result.effects);
        return teamDetail(db, result.team);
      },
    );

    app.post(
      '/api/admin/teams/bulk',
      {
        schema: {
          tags,
          summary:
            'Suspend or enable many teams, each as PATCH {enabled} does, or extend their review dates by `days`: by ids, or every team the teams list filter matches; dry_run says what would happen',
          security,
          body: bulkTeamsBody,
          response: { 200: bulkTeamsAnswer },
        },
        onRequest: requireAdmin,
      },
      async (request) => {
        const { ids, filter, action, days, dry_run: dryRun = false } = request.body;
        const filters = filter && {
          q: filter.q || undefined,
          from: filter.from,
          to: filter.to,
          hasWorkspaces: filter.has_workspaces,
          expiringWithinDays: filter.expiring_within_days,
          expired: filter.expired,
          now: context.clock.now(),
        };
        const actorId = currentUser(request).id;
        if (action === 'extend') return bulkExtend(context, actorId, { kind: 'team', ids, filter: filters, filterAsSent: filter, days: days!, dryRun });
        return bulkTeams(context, actorId, { ids, filter: filters, filterAsSent: filter, action, dryRun });
      },
    );

    app.delete(
      '/api/admin/teams/:id',
      {
        schema: {
          tags,
          summary: 'Delete a team: refused (409) while it has workspaces unless ?cascade=1 (their namespaces are deleted through the reconciler); ?dry_run=1 says what would be deleted',
          security,
          params,
          querystring: deleteTeamQuery,
          response: { 200: teamDeletionSchema },
        },
        onRequest: requireAdmin,
      },
      async (request) => {
        const team = await findTeam(db, request.params.id);
        if (!team) throw notFound();
        const cascade = request.query.cascade ?? false;
        if (request.query.dry_run) {
          const plan = await teamDeletionPlan(db, team);
          return { ...plan, dry_run: true, requires_cascade: plan.workspaces.length > 0, deleted: false };
        }
        const { plan, effects } = await deleteTeam(db, { team, cascade, causerId: currentUser(request).id });
        applyAfterCommit(context, effects);
        return { ...plan, dry_run: false, requires_cascade: plan.workspaces.length > 0, deleted: true };
      },
    );
  };
}
