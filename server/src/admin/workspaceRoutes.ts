import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { applyAfterCommit } from '../effects/afterCommit.js';
import type { AppContext } from '../context.js';
import { currentUser, requireAdmin } from '../http/authenticate.js';
import { notFound } from '../http/errors.js';
import { bearerAuth, idParam } from '../http/schemas.js';
import { setWorkspaceQuota, workspaceQuotaBody } from '../workspaces/quota.js';
import { setWorkspaceEnd } from '../workspaces/renewal.js';
import { findWorkspace } from '../workspaces/workspaces.js';
import { bulkDeleteWorkspaces, bulkWorkspacesAnswer, bulkWorkspacesBody, deleteWorkspaceAsAdmin } from './workspaceBulk.js';
import { bulkExtend } from './extendBulk.js';
import { adminWorkspaceDetail, adminWorkspaceDetailSchema } from './workspaceDetail.js';

// One workspace for platform admins (docs/api-contract.md, "Admin: workspaces"): its page, its
// quota, its deletion (one or many). 403 for everyone else (requireAdmin, after the onboarding gate).

const tags = ['admin'];
const security = bearerAuth;
const params = z.object({ id: idParam() });

/** PATCH /api/admin/workspaces/{id}: the quota, the end date, or both (at least one). */
const adminWorkspacePatchBody = z
  .object({
    quota: workspaceQuotaBody.shape.quota.optional(),
    expires_at: z.iso.datetime({ offset: true, error: 'The expires_at field must be an ISO 8601 date-time or null.' }).nullable().optional(),
  })
  .refine((body) => body.quota !== undefined || body.expires_at !== undefined, { message: 'Give the quota, expires_at or both.', path: ['quota'] });

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
          summary:
            "Set the workspace's quota (cpu, memory, pods, storage; null = the default), which the reconciler applies to the namespace's ResourceQuota, and/or its end date (expires_at, ISO 8601 or null: no end); a date ahead lifts a suspension",
          security,
          params,
          body: adminWorkspacePatchBody,
          response: { 200: adminWorkspaceDetailSchema },
        },
        onRequest: requireAdmin,
      },
      async (request) => {
        const causerId = currentUser(request).id;
        const { quota, expires_at: expiresAt } = request.body;
        if (!(await findWorkspace(db, request.params.id))) throw notFound();
        if (quota !== undefined) await setWorkspaceQuota(db, { workspaceId: request.params.id, change: quota, causerId });
        if (expiresAt !== undefined) {
          const when = expiresAt === null ? null : new Date(expiresAt).toISOString();
          await db.transaction().execute((trx) =>
            setWorkspaceEnd(trx, { workspaceId: request.params.id, expiresAt: when, now: context.clock.now(), causerId, cause: 'set by a platform admin' }),
          );
        }
        applyAfterCommit(context, { clusterSync: true });
        const updated = await findWorkspace(db, request.params.id);
        if (!updated) throw notFound();
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
          summary:
            'Delete many workspaces by ids, each as DELETE /api/admin/workspaces/{id} does, or extend their end dates by `days` (by ids or the list filter; a suspension lifts), with a result per id; dry_run says what would happen',
          security,
          body: bulkWorkspacesBody,
          response: { 200: bulkWorkspacesAnswer },
        },
        onRequest: requireAdmin,
      },
      async (request) => {
        const { ids, filter, action, days, dry_run: dryRun = false } = request.body;
        if (action === 'delete') return bulkDeleteWorkspaces(context, currentUser(request), { ids: ids!, dryRun });
        const filters = filter && {
          q: filter.q || undefined,
          teamId: filter.team_id,
          from: filter.from,
          to: filter.to,
          expiringWithinDays: filter.expiring_within_days,
          expired: filter.expired,
        };
        return bulkExtend(context, currentUser(request).id, { kind: 'workspace', ids, filter: filters, filterAsSent: filter, days: days!, dryRun });
      },
    );
  };
}
