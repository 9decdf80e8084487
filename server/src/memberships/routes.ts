import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { currentUser } from '../http/authenticate.js';
import { HttpError, notFound } from '../http/errors.js';
import { bearerAuth, idParam } from '../http/schemas.js';
import { loadAccess } from '../access/access.js';
import { bulkMembersAnswer, bulkMembersBody, memberRoleAnswer, roleBody } from './schemas.js';
import { applyAfterCommit } from '../effects/afterCommit.js';
import { setMembershipEnd } from './ends.js';
import { checkEndDate } from '../teams/membershipEnd.js';
import { changeTeamMemberRole, managesTeamMembers, type MemberOutcome, removalEffects, removeTeamMember, removeTeamMembers } from './members.js';
import { findTeam } from '../teams/teams.js';
import type { TeamRole } from '../db/schema.js';

const tags = ['teams'];
const security = bearerAuth;
// `:team` as GET /api/tenants/:team names it, but only ids here.
const memberParams = z.object({ team: idParam(), userId: idParam() });

const STATUS_CODES = { forbidden: 403, not_found: 404, conflict: 409 } as const;

/** A refused outcome as the answer of a one-person call. */
function refused(outcome: MemberOutcome): never {
  if (outcome.status === 'done') throw new Error('not a refusal');
  throw new HttpError(STATUS_CODES[outcome.status], outcome.message);
}

/** A team's members managed by its owners and managers (and platform admins). Behind the onboarding gate. */
export function teamMemberRoutes(context: AppContext): FastifyPluginAsyncZod {
  const { db } = context;
  return async (app) => {
    app.patch(
      '/api/tenants/:team/users/:userId',
      {
        schema: {
          tags,
          summary:
            "Change a member's team role and/or the membership's end date (expires_at, null: no end) (the team's owners and managers, platform admins); a team keeps at least one owner",
          security,
          params: memberParams,
          body: roleBody,
          response: { 200: memberRoleAnswer },
        },
      },
      async (request) => {
        const team = await findTeam(db, request.params.team);
        if (!team) throw notFound();
        const access = await loadAccess(db, currentUser(request));
        const { role, expires_at } = request.body;
        const teamId = team.id;
        const userId = request.params.userId;
        // The date is checked before anything changes: a bad one leaves the role as it was too.
        const expiresAt = expires_at === undefined ? undefined : checkEndDate('expires_at', expires_at, context.clock.now());
        let previous: TeamRole | undefined;
        if (role !== undefined) {
          const outcome = await changeTeamMemberRole(db, { teamId, userId, role, access });
          if (outcome.status !== 'done') refused(outcome);
          previous = outcome.previous;
        }
        if (expiresAt !== undefined) {
          const outcome = await setMembershipEnd(db, { teamId, userId, expiresAt, access });
          if (outcome.status !== 'done') refused(outcome);
        }
        const member = await db.selectFrom('team_members').select(['role', 'expires_at']).where('team_id', '=', teamId).where('user_id', '=', userId).executeTakeFirstOrThrow();
        return { id: userId, team_id: teamId, role: member.role, previous: previous ?? member.role, expires_at: member.expires_at };
      },
    );

    app.delete(
      '/api/tenants/:team/users/:userId',
      {
        schema: {
          tags,
          summary:
            "Remove a member from the team and its workspaces (the team's owners and managers, platform admins, or the member leaving); their cluster access goes too, and their pending workspace requests in the team are closed",
          security,
          params: memberParams,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        const team = await findTeam(db, request.params.team);
        if (!team) throw notFound();
        const access = await loadAccess(db, currentUser(request));
        const outcome = await removeTeamMember(db, { teamId: team.id, userId: request.params.userId, access });
        if (outcome.status !== 'done') refused(outcome);
        applyAfterCommit(context, removalEffects(context, [request.params.userId], outcome.closed_requests));
        reply.code(204);
        return null;
      },
    );

    app.post(
      '/api/tenants/:team/users/bulk',
      {
        schema: {
          tags,
          summary: 'Remove several members at once; answers per id what happened (done, forbidden, not_found, conflict) and totals',
          security,
          params: z.object({ team: idParam() }),
          body: bulkMembersBody,
          response: { 200: bulkMembersAnswer },
        },
      },
      async (request) => {
        const team = await findTeam(db, request.params.team);
        if (!team) throw notFound();
        const access = await loadAccess(db, currentUser(request));
        if (!managesTeamMembers(access, team.id)) throw new HttpError(403, "Only the team's owners and managers can remove members.");
        const { closed_requests: closed, ...result } = await removeTeamMembers(db, { teamId: team.id, userIds: request.body.user_ids, access });
        const removed = result.results.filter((entry) => entry.status === 'done').map((entry) => entry.id);
        applyAfterCommit(context, removalEffects(context, removed, closed));
        return result;
      },
    );
  };
}
