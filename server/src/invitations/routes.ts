import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { currentUser, requireUser } from '../http/authenticate.js';
import { bearerAuth } from '../http/schemas.js';
import { Throttle } from '../http/throttle.js';
import { loadAccess } from '../access/access.js';
import {
  acceptInvitation,
  createInvitation,
  invitationOfLink,
  invitationRefusal,
  type InvitationLimits,
  pendingInvitations,
  resendInvitation,
  revokeInvitation,
  teamToInviteTo,
} from './invitations.js';
import { invitationGrantRefusal } from './rights.js';
import { createInvitations } from './batch.js';
import { HttpError } from '../http/errors.js';
import { requestLocale } from '../i18n/messages.js';
import {
  acceptedSchema,
  batchAnswerSchema,
  invitationBody,
  invitationParams,
  invitationPreviewSchema,
  invitationSchema,
  linkParams,
  presentBatch,
  presentInvitations,
  presentPreview,
  teamParams,
} from './schemas.js';

const tags = ['invitations'];
const security = bearerAuth;

/** The public link routes, exempt from the onboarding gate (http/onboarding.ts). */
export const INVITATION_LINK_ROUTES = ['/api/invitations/:id/:token', '/api/invitations/:id/:token/accept'] as const;

/** Invitations to a team: managed by its owners and managers, accepted through the mailed link. */
export function invitationRoutes(context: AppContext): FastifyPluginAsyncZod {
  const { db, config } = context;
  const limits: InvitationLimits | null = config.rateLimits
    ? { throttle: new Throttle(db), budgets: config.rateLimits }
    : null;
  return async (app) => {
    app.get(
      '/api/tenants/:team/invitations',
      {
        schema: {
          tags,
          summary: "The team's pending invitations, newest first (its owners and managers, platform admins)",
          security,
          params: teamParams,
          response: { 200: z.array(invitationSchema) },
        },
      },
      async (request) => {
        const access = await loadAccess(db, currentUser(request));
        const team = await teamToInviteTo(db, access, request.params.team);
        return presentInvitations(db, await pendingInvitations(db, team.id));
      },
    );

    app.post(
      '/api/tenants/:team/invitations',
      {
        schema: {
          tags,
          summary:
            'Invite someone (email: 201, the invitation) or up to 200 people (emails: 200, one outcome per address) by email to the team (and workspaces of it) with a role no higher than your own; mails a link valid 7 days',
          security,
          params: teamParams,
          body: invitationBody,
          response: { 200: batchAnswerSchema, 201: invitationSchema },
        },
      },
      async (request, reply) => {
        const user = currentUser(request);
        const access = await loadAccess(db, user);
        const { email, emails, ...terms } = request.body;
        if (emails !== undefined) {
          const { outcomes, retryAfter } = await createInvitations(context, limits, {
            access,
            inviter: user,
            teamId: request.params.team,
            batch: { ...terms, emails },
            requestLocale: requestLocale(request),
          });
          return reply.code(200).send(await presentBatch(db, outcomes, retryAfter));
        }
        const invitation = await createInvitation(context, limits, {
          access,
          inviter: user,
          teamId: request.params.team,
          invitation: { ...terms, email: email! },
          requestLocale: requestLocale(request),
        });
        return reply.code(201).send((await presentInvitations(db, [invitation]))[0]);
      },
    );

    app.post(
      '/api/tenants/:team/invitations/:invitation/resend',
      {
        schema: {
          tags,
          summary: 'Mail a pending invitation again with a new link (the previous one stops working), valid 7 days again',
          security,
          params: invitationParams,
          response: { 200: invitationSchema },
        },
      },
      async (request) => {
        const user = currentUser(request);
        const access = await loadAccess(db, user);
        const invitation = await resendInvitation(context, limits, {
          access,
          inviter: user,
          teamId: request.params.team,
          invitationId: request.params.invitation,
          requestLocale: requestLocale(request),
        });
        return (await presentInvitations(db, [invitation]))[0];
      },
    );

    app.delete(
      '/api/tenants/:team/invitations/:invitation',
      { schema: { tags, summary: 'Withdraw a pending invitation: its link stops working', security, params: invitationParams, response: { 204: z.null() } } },
      async (request, reply) => {
        const access = await loadAccess(db, currentUser(request));
        await revokeInvitation(db, { access, teamId: request.params.team, invitationId: request.params.invitation });
        reply.code(204);
        return null;
      },
    );

    app.get(
      '/api/invitations/:id/:token',
      {
        schema: {
          tags,
          summary: 'What a mailed invitation link offers (public: the link is the proof); 403 with the reason when it cannot be accepted',
          params: linkParams,
          response: { 200: invitationPreviewSchema },
        },
      },
      async (request) => {
        const invitation = await invitationOfLink(db, request.params);
        const refusal = invitationRefusal(invitation);
        if (refusal) throw refusal;
        // Shown before signing in, so that nobody registers for an invitation that cannot be accepted now.
        const grantRefused = await invitationGrantRefusal(db, invitation);
        if (grantRefused) throw new HttpError(403, grantRefused);
        return presentPreview(db, invitation);
      },
    );

    app.post(
      '/api/invitations/:id/:token/accept',
      {
        schema: {
          tags,
          summary: 'Accept an invitation as the signed-in person it was sent to: joins the team and its workspaces at once (verifies the address)',
          security,
          params: linkParams,
          response: { 200: acceptedSchema },
        },
        onRequest: requireUser,
      },
      async (request) => {
        const user = currentUser(request);
        const { invitation, workspaceIds } = await acceptInvitation(context, user, request.params);
        const preview = await presentPreview(db, { ...invitation, workspace_ids: JSON.stringify(workspaceIds) });
        return {
          message: `You joined ${preview.team.fullname}.`,
          team: preview.team,
          role: preview.role,
          workspaces: preview.workspaces,
        };
      },
    );
  };
}
