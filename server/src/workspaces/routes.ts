import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { currentUser } from '../http/authenticate.js';
import { notFound } from '../http/errors.js';
import { bearerAuth, idParam } from '../http/schemas.js';
import { loadAccess } from '../teams/access.js';
import { presentWorkspace, workspaceSchema } from './presenter.js';
import { findWorkspace } from './workspaces.js';

/** Workspaces ("subnamespaces" in the spec's paths). Behind the onboarding gate. */
export function workspaceRoutes({ db }: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/subnamespaces/:id',
      {
        schema: {
          tags: ['workspaces'],
          summary: 'A workspace, its members (no emails) and the pending join requests you may see',
          security: bearerAuth,
          params: z.object({ id: idParam() }),
          response: { 200: workspaceSchema },
        },
      },
      async (request) => {
        const workspace = await findWorkspace(db, request.params.id);
        if (!workspace) throw notFound();
        return presentWorkspace(db, workspace, await loadAccess(db, currentUser(request)));
      },
    );
  };
}
