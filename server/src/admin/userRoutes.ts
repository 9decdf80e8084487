import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../context.js';
import { currentUser, requireAdmin } from '../http/authenticate.js';
import { bearerAuth, messageSchema } from '../http/schemas.js';
import { bulkUsers } from './userBulk.js';
import { revokeUserTokens, updateUser, userDetail } from './users.js';
import {
  adminUserDetailSchema,
  bulkUsersAnswer,
  bulkUsersBody,
  revokedTokensAnswer,
  updateUserBody,
  userIdParams,
  userTokenParams,
} from './userSchemas.js';

const tags = ['admin'];
const security = bearerAuth;

/** A platform admin's actions on users (docs/api-contract.md, "Admin: users"); 403 for everyone else. */
export function adminUserRoutes(context: AppContext): FastifyPluginAsyncZod {
  const { db, clock } = context;
  const services = context;
  return async (app) => {
    app.get(
      '/api/admin/users/:id',
      {
        schema: { tags, summary: 'One user: profile, memberships, tokens, nodes, recent activity', security, params: userIdParams, response: { 200: adminUserDetailSchema } },
        onRequest: requireAdmin,
      },
      async (request) => userDetail(db, request.params.id),
    );

    app.patch(
      '/api/admin/users/:id',
      {
        schema: {
          tags,
          summary: 'Disable or enable a user, grant or remove admin rights',
          security,
          params: userIdParams,
          body: updateUserBody,
          response: { 200: adminUserDetailSchema, 409: messageSchema },
        },
        onRequest: requireAdmin,
      },
      async (request) => updateUser(services, currentUser(request).id, request.params.id, request.body),
    );

    app.delete(
      '/api/admin/users/:id/tokens',
      {
        schema: { tags, summary: "Revoke every personal access token of a user", security, params: userIdParams, response: { 200: revokedTokensAnswer } },
        onRequest: requireAdmin,
      },
      async (request) => {
        const revoked = await revokeUserTokens(services, currentUser(request).id, request.params.id);
        // Whole sentences for one and for several, so that the catalogue gives each its French.
        return { message: revoked === 1 ? '1 personal access token revoked.' : `${revoked} personal access tokens revoked.`, revoked };
      },
    );

    app.delete(
      '/api/admin/users/:id/tokens/:tokenId',
      {
        schema: { tags, summary: 'Revoke one personal access token of a user', security, params: userTokenParams },
        onRequest: requireAdmin,
      },
      async (request, reply) => {
        await revokeUserTokens(services, currentUser(request).id, request.params.id, request.params.tokenId);
        return reply.code(204).send();
      },
    );

    app.post(
      '/api/admin/users/bulk',
      {
        schema: {
          tags,
          summary: 'Disable or enable many users: by ids, or everything a users-list filter matches; dry_run tells what would happen',
          security,
          body: bulkUsersBody,
          response: { 200: bulkUsersAnswer },
        },
        onRequest: requireAdmin,
      },
      async (request) => {
        const { ids, filter, action, dry_run: dryRun = false } = request.body;
        const filters = filter && {
          q: filter.q,
          admin: filter.admin,
          enabled: filter.enabled,
          verified: filter.verified,
          policy: filter.policy,
          teamId: filter.team_id,
          activeWithinDays: filter.active_within_days,
          now: clock.now(),
        };
        return bulkUsers(services, currentUser(request).id, { ids, filter: filters, action, dryRun });
      },
    );
  };
}
