import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requestClusterSync } from '../cluster/reconciler.js';
import type { AppContext } from '../context.js';
import { currentUser, requireAdmin } from '../http/authenticate.js';
import { notFound } from '../http/errors.js';
import { bearerAuth, idParam } from '../http/schemas.js';
import { deleteWorkspace } from '../workspaces/deletion.js';
import { tellMembersWorkspaceDeleted } from '../workspaces/deletionNotice.js';
import { setWorkspaceQuota, workspaceQuotaBody } from '../workspaces/quota.js';
import { findWorkspace } from '../workspaces/workspaces.js';
import { adminWorkspaceDetail, adminWorkspaceDetailSchema } from './workspaceDetail.js';

// One workspace for platform admins (docs/api-contract.md, "Admin: workspaces"): its page, its
// quota, its deletion. 403 for everyone else (requireAdmin, after the onboarding gate).

const tags = ['admin'];
const security = bearerAuth;
const params = z.object({ id: idParam() });

export function adminWorkspaceRoutes(context: AppContext): FastifyPluginAsyncZod {
  const { db, cluster } = context;
  return async (app) => {
    app.get(
      '/api/admin/workspaces/:id',
      {
        schema: {
          tags,
          summary: 'A workspace with its team, members (with emails), quota, pod security, cluster state, counts and recent activity',
          security,
          params,
          response: { 200: adminWorkspaceDetailSchema },
        },
        onRequest: requireAdmin,
      },
      async (request) => {
        const workspace = await findWorkspace(db, request.params.id);
        if (!workspace) throw notFound();
        return adminWorkspaceDetail(db, cluster, workspace);
      },
    );

    app.patch(
      '/api/admin/workspaces/:id',
      {
        schema: {
          tags,
          summary: "Set the workspace's quota (cpu, memory, pods, storage; null = the default); the reconciler applies it to the namespace's ResourceQuota",
          security,
          params,
          body: workspaceQuotaBody,
          response: { 200: adminWorkspaceDetailSchema },
        },
        onRequest: requireAdmin,
      },
      async (request) => {
        const updated = await setWorkspaceQuota(db, { workspaceId: request.params.id, change: request.body.quota, causerId: currentUser(request).id });
        if (!updated) throw notFound();
        requestClusterSync();
        return adminWorkspaceDetail(db, cluster, updated);
      },
    );

    app.delete(
      '/api/admin/workspaces/:id',
      {
        schema: {
          tags,
          summary: 'Delete the workspace: its namespace goes through the reconciler, its members lose access and are told',
          security,
          params,
          response: { 204: z.null() },
        },
        onRequest: requireAdmin,
      },
      async (request, reply) => {
        const workspace = await findWorkspace(db, request.params.id);
        if (!workspace) throw notFound();
        const team = await db.selectFrom('teams').select(['id', 'name', 'fullname']).where('id', '=', workspace.team_id).executeTakeFirstOrThrow();
        const actor = currentUser(request);
        // deletion.ts deletes the rows, queues the namespace and the members' service accounts
        // for the reconciler, and ends the members' realtime rights; we tell them why.
        const deleted = await deleteWorkspace(context, workspace.id, actor);
        if (!deleted) throw notFound();
        tellMembersWorkspaceDeleted(context, {
          workspace: { id: workspace.id, name: workspace.name, label: workspace.label, namespace: workspace.namespace, team },
          memberIds: deleted.member_ids,
          deciderName: `${actor.firstname} ${actor.lastname}`,
        });
        reply.code(204);
        return null;
      },
    );
  };
}
