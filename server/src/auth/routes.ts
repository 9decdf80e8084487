import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { applyAfterCommit } from '../effects/afterCommit.js';
import { currentUser, requireUser } from '../http/authenticate.js';
import { validationError } from '../http/errors.js';
import { routeRateLimit } from '../http/rateLimit.js';
import { bearerAuth, messageSchema } from '../http/schemas.js';
import { Throttle } from '../http/throttle.js';
import { presentUser, userSchema } from '../profile/presenter.js';
import { type LoginThrottle, logIn, logOut } from './login.js';
import { resetPassword, sendPasswordResetLink } from './passwordReset.js';
import { ALREADY_VERIFIED, REGISTERED, registerUser, resendVerificationLink, VERIFICATION_SENT } from './registration.js';
import { registrationErrors } from './registrationErrors.js';
import {
  loginBody,
  passwordLinkBody,
  passwordResetBody,
  passwordResetParams,
  registerBody,
  verificationLinkParams,
  verificationLinkQuery,
} from './schemas.js';
import { verifyEmailLink } from './verification.js';
import { requestLocale } from '../i18n/messages.js';
import { registrationIsInvited } from '../invitations/invitations.js';

export const PASSWORD_LINK_SENT = 'If an account exists for this address, we have emailed a password reset link.';
export const PASSWORD_UPDATED =
  'Your password has been updated. Every session and personal access token of the account has been revoked.';
export const EMAIL_VERIFIED = 'Your email address is verified.';

const tags = ['accounts'];

/** A reset's answer: the message, and the identities it unlinked (empty when none). */
const passwordResetAnswer = messageSchema.extend({
  unlinked_identities: z.array(z.object({ provider: z.string(), provider_name: z.string(), email: z.string().nullable() })),
});

/** Registration, login and logout, email verification, password recovery. */
export function authRoutes(context: AppContext): FastifyPluginAsyncZod {
  const { config, db, tasks } = context;
  const limits = config.rateLimits;
  const loginLimits: LoginThrottle | null = limits
    ? { throttle: new Throttle(db), perAccount: limits.login, perAddress: limits.loginAddress }
    : null;

  return async (app) => {
    app.post(
      '/register',
      {
        schema: {
          tags,
          summary: 'Create an account and mail its verification link',
          body: registerBody,
          response: { 201: z.object({ message: z.string(), user: userSchema }) },
        },
        // Counted once the body is parsed (preHandler): a registration carrying a valid
        // invitation to the address it registers is neither counted nor stopped.
        config: {
          rateLimit: routeRateLimit(limits?.register, (request) => request.ip, 'preHandler', (request) =>
            registrationIsInvited(db, request.body, context.clock.now()),
          ),
        },
        // A refused body is judged again whole (registrationErrors.ts), so that one answer has
        // every field's errors, the email already taken included.
        attachValidation: true,
      },
      async (request, reply) => {
        if (request.validationError) {
          const body: unknown = request.body;
          if (typeof body !== 'object' || body === null || Array.isArray(body)) throw request.validationError;
          const errors = await registrationErrors(db, body as Record<string, unknown>);
          throw Object.keys(errors).length > 0 ? validationError(errors) : request.validationError;
        }
        const user = await registerUser(context, request.body, requestLocale(request));
        return reply.code(201).send({ message: REGISTERED, user: presentUser(user) });
      },
    );

    app.post(
      '/login',
      {
        schema: {
          tags,
          summary: 'Open a session; answers its bearer token',
          body: loginBody,
          response: { 200: z.object({ token: z.string() }) },
        },
      },
      async (request) => ({ token: await logIn(db, loginLimits, { ...request.body, ip: request.ip }) }),
    );

    app.post(
      '/logout',
      { schema: { tags, summary: 'Revoke the token of this request', security: bearerAuth }, onRequest: requireUser },
      async (request, reply) => {
        const user = currentUser(request);
        if (request.accessToken) await logOut(db, user, request.accessToken);
        // Realtime subscriptions signed with this session end with it.
        applyAfterCommit(context, { rightsChanged: [user.id] });
        return reply.code(204).send();
      },
    );

    app.post(
      '/email/verification',
      {
        schema: {
          tags,
          summary: 'Mail a new verification link',
          security: bearerAuth,
          response: { 200: messageSchema, 202: messageSchema },
        },
        onRequest: requireUser,
        config: {
          rateLimit: routeRateLimit(limits?.verificationResend, (request) => `user:${request.user?.id}`, 'preHandler'),
        },
      },
      async (request, reply) => {
        const sent = await resendVerificationLink(context, currentUser(request), requestLocale(request));
        return sent ? reply.code(202).send({ message: VERIFICATION_SENT }) : { message: ALREADY_VERIFIED };
      },
    );

    app.get(
      '/api/email/verify/:id/:hash',
      {
        schema: {
          tags,
          summary: 'Verify an email address through a signed link (no bearer token needed)',
          params: verificationLinkParams,
          querystring: verificationLinkQuery,
          response: { 200: z.object({ message: z.string(), verified: z.literal(true) }) },
        },
      },
      async (request) => {
        await verifyEmailLink(db, config.appKey, { ...request.params, ...request.query });
        return { message: EMAIL_VERIFIED, verified: true as const };
      },
    );

    app.post(
      '/password/link',
      {
        schema: {
          tags,
          summary: 'Mail a password reset link; the answer is the same for unknown addresses',
          body: passwordLinkBody,
          response: { 200: messageSchema },
        },
        config: {
          rateLimit: routeRateLimit(
            limits?.passwordLink,
            (request) => `${(request.body as { email: string }).email}|${request.ip}`,
            'preHandler',
          ),
        },
      },
      async (request) => {
        // The lookup and the mail happen after the answer, so its timing says nothing about
        // whether the address has an account.
        const { email } = request.body;
        const locale = requestLocale(request);
        tasks.run('password reset mail', () => sendPasswordResetLink(context, email, new Date(), locale));
        return { message: PASSWORD_LINK_SENT };
      },
    );

    app.post(
      '/password/reset/:id/:signature',
      {
        schema: {
          tags,
          summary:
            'Choose a new password through a mailed reset link; revokes every session and personal access token, and unlinks the institutional identities linked with a password (named in the answer)',
          params: passwordResetParams,
          body: passwordResetBody,
          response: { 200: passwordResetAnswer },
        },
      },
      async (request) => {
        const { id, signature } = request.params;
        const { unlinkedIdentities } = await resetPassword(context, { userId: id, token: signature }, request.body.password, new Date(), requestLocale(request));
        return {
          message: PASSWORD_UPDATED,
          unlinked_identities: unlinkedIdentities.map(({ provider, provider_name, email }) => ({ provider, provider_name, email })),
        };
      },
    );
  };
}
