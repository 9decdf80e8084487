import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { applyAfterCommit } from '../effects/afterCommit.js';
import type { AppContext } from '../context.js';
import { currentUser, requireAdmin } from '../http/authenticate.js';
import { notFound } from '../http/errors.js';
import { bearerAuth, idParam } from '../http/schemas.js';
import { setWorkspaceQuota, workspaceQuotaBody } from '../workspaces/quota.js';
import { findWorkspace } from '../workspaces/workspaces.js';
import { bulkDeleteWorkspaces, bulkWorkspacesAnswer, bulkWorkspacesBody, deleteWorkspaceAsAdmin } from './workspaceBulk.js';
import { adminWorkspaceDetail, adminWorkspaceDetailSchema } from './workspaceDetail.js';

// One workspace for platform admins (docs/api-contract.md, "Admin: workspaces"): its page, its
// quota, its deletion (one or many). 403 for everyone else (requireAdmin, after the onboarding gate).

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
        applyAfterCommit(context, { clusterSync: true });
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
        // workspaceBulk.ts: deletion.ts deletes the rows, queues the namespace and the members'
        // service accounts for the reconciler, and ends the members' realtime rights; the
        // members are told why.
        const deleted = await deleteWorkspaceAsAdmin(context, request.params.id, currentUser(request));
        if (!deleted) throw notFound();
        reply.code(204);
        return null;
      },
    );

    app.post(
      '/api/admin/workspaces/bulk',
      {
        schema: {
          tags,
          summary: 'Delete many workspaces, each as DELETE /api/admin/workspaces/{id} does, with a result per id; dry_run says what would go',
          security,
          body: bulkWorkspacesBody,
          response: { 200: bulkWorkspacesAnswer },
        },
        onRequest: requireAdmin,
      },
      async (request) => bulkDeleteWorkspaces(context, currentUser(request), { ids: request.body.ids, dryRun: request.body.dry_run ?? false }),
    );
  };
}
