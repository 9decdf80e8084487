import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { applyAfterCommit } from '../effects/afterCommit.js';
import { currentUser, requireUser } from '../http/authenticate.js';
import { notFound } from '../http/errors.js';
import { bearerAuth, MAX_TEXT_LENGTH, requiredText } from '../http/schemas.js';
import { createPersonalToken, deletePersonalToken, listPersonalTokens, presentToken } from './tokens.js';

const tags = ['tokens'];
const security = bearerAuth;

const tokenSchema = z.object({
  id: z.number(),
  name: z.string(),
  abilities: z.array(z.string()),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
});

const createTokenBody = z.object({
  name: requiredText('name'),
  overwrite: z.boolean({ error: 'The overwrite field must be true or false.' }).optional(),
  expires_in_days: z
    .number({ error: 'The expires_in_days field must be a number.' })
    .int('The expires_in_days field must be a whole number.')
    .min(1, 'The expires_in_days field must be between 1 and 365.')
    .max(365, 'The expires_in_days field must be between 1 and 365.')
    .nullish(),
});

/** Personal access tokens (login sessions are tokens too, but are not listed here). */
export function tokenRoutes(context: AppContext): FastifyPluginAsyncZod {
  const { db } = context;
  return async (app) => {
    app.get(
      '/api/tokens',
      {
        schema: { tags, summary: 'Your personal access tokens (never their secrets)', security, response: { 200: z.array(tokenSchema) } },
        onRequest: requireUser,
      },
      async (request) => (await listPersonalTokens(db, currentUser(request).id)).map(presentToken),
    );

    app.post(
      '/api/tokens',
      {
        schema: {
          tags,
          summary: 'Create a personal access token; its plain text is in this answer only',
          security,
          body: createTokenBody,
          response: {
            201: z.object({ token: z.object({ accessToken: tokenSchema, plainTextToken: z.string() }) }),
          },
        },
        onRequest: requireUser,
      },
      async (request, reply) => {
        const { name, overwrite, expires_in_days } = request.body;
        const user = currentUser(request);
        const issued = await createPersonalToken(db, user, {
          name,
          overwrite: overwrite ?? false,
          expiresInDays: expires_in_days ?? null,
        });
        // An overwritten token is revoked: realtime subscriptions it signed end.
        applyAfterCommit(context, { rightsChanged: overwrite ? [user.id] : [] });
        return reply
          .code(201)
          .send({ token: { accessToken: presentToken(issued.token), plainTextToken: issued.plainText } });
      },
    );

    app.delete(
      '/api/tokens/:name',
      {
        schema: {
          tags,
          summary: 'Delete a personal access token by name; it stops working at once',
          security,
          params: z.object({ name: z.string().max(MAX_TEXT_LENGTH) }),
        },
        onRequest: requireUser,
      },
      async (request, reply) => {
        const user = currentUser(request);
        if (!(await deletePersonalToken(db, user, request.params.name))) throw notFound();
        // Realtime subscriptions signed with this token end with it.
        applyAfterCommit(context, { rightsChanged: [user.id] });
        return reply.code(204).send();
      },
    );
  };
}
