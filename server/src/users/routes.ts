import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { currentUser, requireUser } from '../http/authenticate.js';
import { bearerAuth, requiredText } from '../http/schemas.js';
import { presentUserWithRelations, userSchema } from './presenter.js';
import { acceptPolicy, updateProfile } from './users.js';

const tags = ['accounts'];
const security = bearerAuth;

/** The signed-in user's own account: read it, edit the names, accept the policy. */
export function userRoutes({ db }: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/user',
      { schema: { tags, summary: 'The current user', security, response: { 200: userSchema } }, onRequest: requireUser },
      async (request) => presentUserWithRelations(db, currentUser(request)),
    );

    app.patch(
      '/user',
      {
        schema: {
          tags,
          summary: 'Edit the first and last name',
          security,
          body: z.object({ firstname: requiredText('firstname'), lastname: requiredText('lastname') }),
          response: { 200: userSchema },
        },
        onRequest: requireUser,
      },
      async (request) => presentUserWithRelations(db, await updateProfile(db, currentUser(request), request.body)),
    );

    app.post(
      '/aup/accept',
      {
        schema: { tags, summary: 'Accept the acceptable use policy', security, response: { 200: userSchema } },
        onRequest: requireUser,
      },
      async (request) => presentUserWithRelations(db, await acceptPolicy(db, currentUser(request))),
    );
  };
}
