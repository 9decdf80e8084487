import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../context.js';
import { checkEndDate } from '../teams/membershipEnd.js';
import { currentUser } from '../http/authenticate.js';
import { listSchema, paginated } from '../http/pagination.js';
import { bearerAuth } from '../http/schemas.js';
import { loadAccess } from '../access/access.js';
import { decisionEffects } from './effects.js';
import { applyAfterCommit } from '../effects/afterCommit.js';
import { notifyRequester } from './notifications.js';
import { presentRequests, presentRequestsWith, requestSchema } from './presenter.js';
import { decideRequests } from './bulk.js';
import { requestsToDecide } from './list.js';
import {
  requestTeamCreation,
  requestTeamMembership,
  requestWorkspaceCreation,
  requestWorkspaceMembership,
} from './requests.js';
import { approvalTerms, decideRequest } from './routing.js';
import {
  bulkDecisionBody,
  bulkDecisionSchema,
  createTeamBody,
  createWorkspaceBody,
  decisionBody,
  joinTeamBody,
  joinWorkspaceBody,
  requestIdParams,
  requestListQuery,
  quotaRequestBody,
  teamRenewalBody,
  workspaceRenewalBody,
} from './schemas.js';
import { requestTeamRenewal, requestWorkspaceRenewal } from './renewals.js';
import { checkRaiseTeamQuota, requestQuotaIncrease } from './quotaRequests.js';

const tags = ['requests'];
const security = bearerAuth;

/** Requests to create or join teams and workspaces, and their decisions. All behind the onboarding gate. */
export function requestRoutes(context: AppContext): FastifyPluginAsyncZod {
  const { db } = context;
  return async (app) => {
    app.post(
      '/api/requests/teams',
      {
        schema: { tags, summary: 'Ask for a new team (platform admins decide)', security, body: createTeamBody, response: { 201: requestSchema } },
      },
      async (request, reply) => {
        const user = currentUser(request);
        const access = await loadAccess(db, user);
        const { name: _ignored, ...form } = request.body;
        const created = await requestTeamCreation(context, user, access, form);
        return reply.code(201).send((await presentRequests(db, [created], access))[0]);
      },
    );

    app.patch(
      '/api/requests/teams',
      { schema: { tags, summary: 'Ask to join a team', security, body: joinTeamBody, response: { 201: requestSchema } } },
      async (request, reply) => {
        const user = currentUser(request);
        const access = await loadAccess(db, user);
        const created = await requestTeamMembership(context, user, access, request.body);
        return reply.code(201).send((await presentRequests(db, [created], access))[0]);
      },
    );

    app.post(
      '/api/requests/workspaces',
      {
        schema: {
          tags,
          summary: 'Ask for a new workspace in your team (approved at once for its owner/managers)',
          security,
          body: createWorkspaceBody,
          response: { 201: requestSchema },
        },
      },
      async (request, reply) => {
        const user = currentUser(request);
        const access = await loadAccess(db, user);
        const created = await requestWorkspaceCreation(context, user, access, request.body);
        return reply.code(201).send((await presentRequests(db, [created], access))[0]);
      },
    );

    // The spec's console calls this path with a trailing slash; both spellings work.
    for (const url of ['/api/requests/workspaces/', '/api/requests/workspaces']) {
      app.patch(
        url,
        {
          schema: {
            tags,
            summary: 'Ask to join a workspace (approved at once for the team owner/managers)',
            security,
            hide: !url.endsWith('/'),
            body: joinWorkspaceBody,
            response: { 201: requestSchema },
          },
        },
        async (request, reply) => {
          const user = currentUser(request);
          const access = await loadAccess(db, user);
          const created = await requestWorkspaceMembership(context, user, access, request.body);
          return reply.code(201).send((await presentRequests(db, [created], access))[0]);
        },
      );
    }

    app.post(
      '/api/requests/workspaces/:id/renewal',
      {
        schema: {
          tags,
          summary:
            'Ask to renew a workspace, before or after its end: days more (or until a date); the team managers decide up to the default lifetime, platform admins beyond',
          security,
          params: requestIdParams,
          body: workspaceRenewalBody,
          response: { 201: requestSchema },
        },
      },
      async (request, reply) => {
        const user = currentUser(request);
        const access = await loadAccess(db, user);
        const { days, until, reason } = request.body;
        const created = await requestWorkspaceRenewal(context, user, access, { workspaceId: request.params.id, days, until, reason });
        return reply.code(201).send((await presentRequests(db, [created], access))[0]);
      },
    );

    app.post(
      '/api/requests/workspaces/:id/quota',
      {
        schema: {
          tags,
          summary:
            "Ask for more quota for a workspace (its members and its team's managers): the values wanted, why, and optionally until when; the team managers decide within what the team has left, platform admins beyond (and may raise the team quota: raise_team_quota in the decision)",
          security,
          params: requestIdParams,
          body: quotaRequestBody,
          response: { 201: requestSchema },
        },
      },
      async (request, reply) => {
        const user = currentUser(request);
        const access = await loadAccess(db, user);
        const { quota, reason, until } = request.body;
        const created = await requestQuotaIncrease(context, user, access, { workspaceId: request.params.id, quota, reason, until });
        return reply.code(201).send((await presentRequests(db, [created], access))[0]);
      },
    );

    app.post(
      '/api/requests/teams/:id/renewal',
      {
        schema: {
          tags,
          summary: 'Ask to renew a team (a new review date); platform admins decide',
          security,
          params: requestIdParams,
          body: teamRenewalBody,
          response: { 201: requestSchema },
        },
      },
      async (request, reply) => {
        const user = currentUser(request);
        const access = await loadAccess(db, user);
        const created = await requestTeamRenewal(context, user, access, { teamId: request.params.id, reason: request.body.reason });
        return reply.code(201).send((await presentRequests(db, [created], access))[0]);
      },
    );

    app.get(
      '/api/requests',
      {
        schema: {
          tags,
          summary: 'The requests you may decide, newest first; filters, search, paginated with ?page',
          security,
          querystring: requestListQuery,
          response: { 200: listSchema(requestSchema) },
        },
      },
      async (request) => {
        const access = await loadAccess(db, currentUser(request));
        const { query } = request;
        const { page, per_page } = query;
        const { rows, total, relations } = await requestsToDecide(db, access, {
          status: query['filter[status]'] ?? query.status,
          type: query['filter[type]'],
          teamId: query['filter[team_id]'],
          q: query.q || undefined,
          order: query.order,
          page,
          perPage: per_page,
        });
        const data = presentRequestsWith(rows, relations, access);
        return page === undefined ? data : paginated(data, total, { page, perPage: per_page });
      },
    );

    app.post(
      '/api/requests/bulk',
      {
        schema: {
          tags,
          summary:
            'Approve or deny up to 500 requests by id, or every request the list filter matches, each as one at a time; the answer says what happened to each; dry_run decides nothing and says what would happen',
          security,
          body: bulkDecisionBody,
          response: { 200: bulkDecisionSchema },
        },
      },
      async (request) => {
        const access = await loadAccess(db, currentUser(request));
        const { ids, filter, action, message, dry_run: dryRun = false } = request.body;
        return decideRequests(context, access, { ids, filter, action, message, dryRun });
      },
    );

    app.patch(
      '/api/requests/:id',
      {
        schema: {
          tags,
          summary: 'Approve or deny a pending request; the requester is mailed (raise_team_quota: a platform admin approving more quota than the team has left raises the team quota too)',
          security,
          params: requestIdParams,
          body: decisionBody,
          response: { 200: requestSchema },
        },
      },
      async (request) => {
        const access = await loadAccess(db, currentUser(request));
        // The requester's mail is written in the decision's transaction, and sent once it committed.
        const decided = await decideRequest(
          db,
          {
            requestId: request.params.id,
            access,
            action: request.body.action,
            message: request.body.message,
            terms: await approvalTerms(context),
            // Checked against the clock before anything is decided; ignored on a denial.
            membershipExpiresAt:
              request.body.action === 'approve' ? checkEndDate('membership_expires_at', request.body.membership_expires_at, context.clock.now()) : null,
            raiseTeamQuota: request.body.action === 'approve' && checkRaiseTeamQuota(access, request.body.raise_team_quota),
          },
          (trx, result) => notifyRequester(trx, context.config, result),
        );
        applyAfterCommit(context, decisionEffects(context, decided));
        return (await presentRequests(db, [decided], access))[0];
      },
    );
  };
}
