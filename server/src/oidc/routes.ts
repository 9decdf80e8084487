import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { recordActivity } from '../activity/log.js';
import { verifyPassword } from '../users/passwords.js';
import type { AppContext } from '../context.js';
import type { Database } from '../db/schema.js';
import { currentUser, requireAdmin } from '../http/authenticate.js';
import { fieldError, HttpError, notFound } from '../http/errors.js';
import { bearerAuth, idParam, MAX_PASSWORD_LENGTH, requiredText } from '../http/schemas.js';
import { routeRateLimit } from '../http/rateLimit.js';
import { reserveEach, Throttle } from '../http/throttle.js';
import { BROWSER_COOKIE, type CallbackOutcome, CODE_SECONDS, createOidcService, NO_PASSWORD, type OidcService, STATE_MINUTES } from './oidc.js';

export const WRONG_PASSWORD = 'The password is incorrect.';
export const LAST_WAY_IN = 'Set a password (Forgot password) or link another identity before unlinking this one: it is your only way to sign in.';

const tags = ['institutional sign-in'];

const identitySchema = z.object({
  id: z.number(),
  provider: z.string(),
  provider_name: z.string(),
  issuer: z.string(),
  email: z.string().nullable(),
  linked_at: z.string(),
  /** 'sign-up': the account was made with it (a password reset keeps it); 'password': linked from the profile (a password reset unlinks it). */
  linked_with: z.enum(['sign-up', 'password']),
  /** False for the only way into an account without a password. */
  can_unlink: z.boolean(),
});

function readCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

/**
 * The cookie binding a sign-in to this browser, until its one-time code is exchanged (the state
 * lives STATE_MINUTES, then the code CODE_SECONDS); an empty value with Max-Age 0 removes it.
 */
function setBrowserCookie(reply: FastifyReply, appUrl: string, value: string): void {
  const secure = appUrl.startsWith('https:') ? '; Secure' : '';
  const maxAge = value ? STATE_MINUTES * 60 + 2 * CODE_SECONDS : 0;
  reply.header('set-cookie', `${BROWSER_COOKIE}=${value}; Path=/auth/oidc; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure}`);
}

/**
 * Where the console's /oidc/callback page takes over. A failure is named by its code (OIDC_ERRORS)
 * and the provider's id; the console has its own words for each code, in the person's language.
 */
function consoleUrl(appUrl: string, outcome: CallbackOutcome): string {
  const query = new URLSearchParams(
    outcome.kind === 'code'
      ? { code: outcome.code }
      : outcome.kind === 'linked'
        ? { linked: outcome.provider }
        : { intent: outcome.intent, error: outcome.error, ...(outcome.provider ? { provider: outcome.provider } : {}) },
  );
  return `${appUrl}/oidc/callback?${query}`;
}

export async function identitiesOf(db: Kysely<Database>, oidc: Pick<OidcService, 'provider'>, userId: number) {
  const [rows, user] = await Promise.all([
    db.selectFrom('identities').selectAll().where('user_id', '=', userId).orderBy('linked_at').orderBy('id').execute(),
    db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirst(),
  ]);
  const otherWays = (user !== undefined && user.password_hash !== NO_PASSWORD ? 1 : 0) + rows.length - 1;
  return rows.map((row) => ({
    id: row.id,
    provider: row.provider,
    provider_name: oidc.provider(row.provider)?.name ?? row.provider,
    issuer: row.issuer,
    email: row.email,
    linked_at: row.linked_at,
    linked_with: row.linked_with,
    can_unlink: otherWays > 0,
  }));
}

/** Institutional sign-in (OpenID Connect): the redirects, the code exchange, linked identities. */
export function oidcRoutes(context: AppContext): FastifyPluginAsyncZod {
  const { config, db } = context;
  return async (app) => {
    const oidc = createOidcService({ config, db, services: context, log: app.log });
    const linkLimit = config.rateLimits?.login ?? null;
    const throttle = linkLimit ? new Throttle(db) : null;

    app.get(
      '/auth/oidc/:provider',
      {
        schema: {
          tags,
          summary: 'Start a sign-in with an institution: redirects to the provider (or to /oidc/callback with the error when it cannot be reached)',
          params: z.object({ provider: z.string().max(40) }),
        },
        // Each start stores a state row: a per-address limit keeps one client from filling the table.
        config: { rateLimit: routeRateLimit(config.rateLimits?.oidcStart, (request) => request.ip) },
      },
      async (request, reply) => {
        try {
          const started = await oidc.start({ provider: request.params.provider, intent: 'login' });
          setBrowserCookie(reply, config.appUrl, started.browser);
          return reply.redirect(started.url, 302);
        } catch (error) {
          if (error instanceof HttpError && error.status === 502) {
            const outcome = { kind: 'error', intent: 'login', error: 'provider_down', provider: request.params.provider } as const;
            return reply.redirect(consoleUrl(config.appUrl, outcome), 302);
          }
          throw error;
        }
      },
    );

    app.get(
      '/auth/oidc/callback',
      { schema: { tags, summary: "The provider's redirect back (redirect_uri): ends on the console's /oidc/callback with a one-time code, or the error" } },
      async (request, reply) => {
        const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
        const outcome = await oidc.callback(query, readCookie(request, BROWSER_COOKIE));
        return reply.redirect(consoleUrl(config.appUrl, outcome), 302);
      },
    );

    app.post(
      '/auth/oidc/exchange',
      {
        schema: {
          tags,
          summary:
            "Exchange a sign-in's one-time code (valid 60 s) for the session token POST /login gives; only from the browser that started the sign-in (its oidc_browser cookie)",
          body: z.object({ code: requiredText('code', 100) }),
          response: { 200: z.object({ token: z.string() }) },
        },
      },
      async (request, reply) => {
        const token = await oidc.exchange(request.body.code, readCookie(request, BROWSER_COOKIE), request.ip);
        // Used up: the browser no longer needs it.
        setBrowserCookie(reply, config.appUrl, '');
        return { token };
      },
    );

    app.get(
      '/api/identities',
      { schema: { tags, summary: 'Your linked institutional identities', security: bearerAuth, response: { 200: z.array(identitySchema) } } },
      async (request) => identitiesOf(db, oidc, currentUser(request).id),
    );

    app.post(
      '/api/identities',
      {
        schema: {
          tags,
          summary:
            'Start linking an institutional identity (your password again): answers the provider URL to send the browser to; the link is mailed to you, and a password reset undoes it',
          security: bearerAuth,
          body: z.object({
            provider: requiredText('provider', 40),
            password: z
              .string({ error: 'The password field is required.' })
              .min(1, 'The password field is required.')
              .max(MAX_PASSWORD_LENGTH, `The password field must not be greater than ${MAX_PASSWORD_LENGTH} characters.`),
          }),
          response: { 200: z.object({ url: z.string() }) },
        },
      },
      async (request, reply) => {
        const user = currentUser(request);
        if (!oidc.provider(request.body.provider)) throw fieldError('provider', 'The selected provider is invalid.');
        const reservations = throttle && linkLimit ? await reserveEach(throttle, [[`identity-link:${user.id}`, linkLimit]]) : [];
        if (!(await verifyPassword(user.password_hash, request.body.password))) throw fieldError('password', WRONG_PASSWORD);
        for (const reservation of reservations) await throttle?.release(reservation);
        const started = await oidc.start({ provider: request.body.provider, intent: 'link', userId: user.id });
        setBrowserCookie(reply, config.appUrl, started.browser);
        return { url: started.url };
      },
    );

    app.delete(
      '/api/identities/:id',
      {
        schema: {
          tags,
          summary: 'Unlink one of your identities; refused (409) when it is your only way to sign in',
          security: bearerAuth,
          params: z.object({ id: idParam() }),
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        const user = currentUser(request);
        const identity = (await identitiesOf(db, oidc, user.id)).find((entry) => entry.id === request.params.id);
        if (!identity) throw notFound();
        if (!identity.can_unlink) throw new HttpError(409, LAST_WAY_IN);
        await db.transaction().execute(async (trx) => {
          await trx.deleteFrom('identities').where('id', '=', identity.id).where('user_id', '=', user.id).execute();
          await recordActivity(trx, {
            causerId: user.id,
            description: 'identity unlinked',
            subject: { type: 'user', id: user.id },
            properties: { provider: identity.provider, issuer: identity.issuer },
          });
        });
        reply.code(204);
        return null;
      },
    );

    app.get(
      '/api/admin/users/:id/identities',
      {
        schema: {
          tags,
          summary: "A user's linked institutional identities (platform admins)",
          security: bearerAuth,
          params: z.object({ id: idParam() }),
          response: { 200: z.array(identitySchema) },
        },
        onRequest: requireAdmin,
      },
      async (request) => {
        const user = await db.selectFrom('users').select('id').where('id', '=', request.params.id).executeTakeFirst();
        if (!user) throw notFound();
        return identitiesOf(db, oidc, user.id);
      },
    );
  };
}
