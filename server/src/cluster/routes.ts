import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { currentUser } from '../http/authenticate.js';
import { fieldError, HttpError, notFound } from '../http/errors.js';
import { bearerAuth } from '../http/schemas.js';
import { loadAccess } from '../access/access.js';
import { withCluster } from './http.js';

const tags = ['cluster'];
const security = bearerAuth;

const podSchema = z.object({
  name: z.string(),
  namespace: z.string(),
  status: z.object({ phase: z.string().nullable(), podIP: z.string().nullable(), hostIP: z.string().nullable(), startTime: z.string().nullable() }),
});

/** GET /api/cluster and GET /api/pods (docs/api-contract.md, "Cluster"). Behind the onboarding gate. */
export function clusterRoutes({ db, cluster }: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/cluster',
      {
        schema: {
          tags,
          summary: 'The connected cluster: its CA and API server address, mode and whether it answers',
          security,
          response: {
            200: z.object({ ca: z.string().nullable(), server: z.string().nullable(), mode: z.enum(['kubernetes', 'sandbox', 'none']), reachable: z.boolean() }),
          },
        },
      },
      async () => {
        const info = cluster.clusterInfo();
        return { ca: info?.ca ?? null, server: info?.server ?? null, mode: cluster.mode, reachable: info ? await cluster.health() : false };
      },
    );

    app.get(
      '/api/pods',
      {
        schema: {
          tags,
          summary: "The pods of a workspace's namespace (its members and platform admins)",
          security,
          querystring: z.object({ namespace: z.string().max(255).optional() }),
          response: { 200: z.array(podSchema) },
        },
      },
      async (request) => {
        const namespace = request.query.namespace?.trim();
        if (!namespace) throw fieldError('namespace', 'The namespace field is required.');
        const workspace = await db.selectFrom('workspaces').select(['id', 'team_id']).where('namespace', '=', namespace).executeTakeFirst();
        if (!workspace) throw notFound();
        const access = await loadAccess(db, currentUser(request));
        if (!access.admin && !access.workspaceRoles.has(workspace.id)) throw new HttpError(403, 'You are not a member of this workspace.');
        return withCluster(() => cluster.listPods(namespace));
      },
    );
  };
}
