import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { accessChanged, applyAfterCommit } from '../effects/afterCommit.js';
import { currentUser } from '../http/authenticate.js';
import { HttpError, notFound } from '../http/errors.js';
import { kubeconfigYaml, NO_CLUSTER, STILL_SETTING_UP, withCluster } from '../cluster/http.js';
import { bearerAuth, idParam } from '../http/schemas.js';
import { loadAccess, managesWorkspace } from '../access/access.js';
import { entitledRole } from '../cluster/entitlement.js';
import { presentWorkspace, workspaceSchema } from './presenter.js';
import { recentLifecycleSettings } from '../config/lifecycleSettings.js';
import { findWorkspace, removeWorkspaceMember } from './workspaces.js';
import { resourcesNearLimit, workspaceUsages } from './quotaSums.js';

/** How long a downloaded kubeconfig's token lasts (clusters may cap it lower). */
const KUBECONFIG_LIFETIME_SECONDS = 8 * 3600;

/** How many of a person's workspaces the home looks at for limits (one quota read each). */
const NEAR_LIMIT_WORKSPACES = 100;

const nearLimitAnswer = z.object({
  data: z.array(
    z.object({
      id: z.number(),
      name: z.string(),
      label: z.string(),
      team: z.object({ id: z.number(), name: z.string(), fullname: z.string() }).nullable(),
      /** Each resource at 80 % or more: its limit, what is used, and the share (0.8 … 1 and more). */
      resources: z.array(z.object({ resource: z.enum(['pods', 'cpu', 'memory', 'storage']), hard: z.string(), used: z.string(), share: z.number() })),
    }),
  ),
});

/** Workspaces ("subnamespaces" in the spec's paths). Behind the onboarding gate. */
export function workspaceRoutes(context: AppContext): FastifyPluginAsyncZod {
  const { db, cluster } = context;
  return async (app) => {
    app.get(
      '/api/subnamespaces/near-limit',
      {
        schema: {
          tags: ['workspaces'],
          summary: 'Your workspaces that use 80 % or more of one of their quota resources (the home), fullest first',
          security: bearerAuth,
          response: { 200: nearLimitAnswer },
        },
      },
      async (request) => {
        const access = await loadAccess(db, currentUser(request));
        const ids = [...access.workspaceRoles.keys()];
        if (ids.length === 0) return { data: [] };
        const workspaces = await db
          .selectFrom('workspaces')
          .selectAll()
          .where('id', 'in', ids)
          .where('suspended_at', 'is', null)
          .orderBy('id')
          .limit(NEAR_LIMIT_WORKSPACES)
          .execute();
        const usages = await workspaceUsages(cluster, workspaces);
        const teams = new Map(
          (await db.selectFrom('teams').select(['id', 'name', 'fullname']).where('id', 'in', [...new Set(workspaces.map((w) => w.team_id))]).execute()).map(
            (team) => [team.id, team],
          ),
        );
        const data = workspaces
          .map((workspace, index) => ({ workspace, resources: resourcesNearLimit(usages[index]!) }))
          .filter((item) => item.resources.length > 0)
          .sort((a, b) => b.resources[0]!.share - a.resources[0]!.share)
          .map(({ workspace, resources }) => ({
            id: workspace.id,
            name: workspace.name,
            label: workspace.label,
            team: teams.get(workspace.team_id) ?? null,
            resources,
          }));
        return { data };
      },
    );

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
        // The page is read often; its statuses go by the settings as read in the last few seconds.
        const settings = await recentLifecycleSettings(db, context.config.lifecycleDefaults);
        const when = { now: context.clock.now(), warningDays: settings.warning_days };
        return presentWorkspace(db, cluster, workspace, await loadAccess(db, currentUser(request)), when);
      },
    );

    app.delete(
      '/api/subnamespaces/:id/users/:userId',
      {
        schema: {
          tags: ['workspaces'],
          summary: "Remove a member (the workspace's and team's managers, platform admins, or the member leaving); their cluster access goes too",
          security: bearerAuth,
          params: z.object({ id: idParam(), userId: idParam() }),
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        const workspace = await findWorkspace(db, request.params.id);
        if (!workspace) throw notFound();
        const user = currentUser(request);
        const access = await loadAccess(db, user);
        const leaving = request.params.userId === user.id;
        if (!leaving && !managesWorkspace(access, workspace)) {
          throw new HttpError(403, "Only the workspace's managers and its team's managers can remove members.");
        }
        const outcome = await removeWorkspaceMember(db, { workspace, userId: request.params.userId, causerId: user.id });
        if (outcome === 'not-member') throw new HttpError(404, 'This person is not a member of this workspace.');
        // Their cluster access goes, and their open workspace and pod-log subscriptions end too.
        applyAfterCommit(context, accessChanged([request.params.userId]));
        reply.code(204);
        return null;
      },
    );

    app.post(
      '/api/subnamespaces/:id/kubeconfig',
      {
        schema: {
          tags: ['workspaces'],
          summary: "A kubeconfig for the workspace's namespace (its members only)",
          security: bearerAuth,
          params: z.object({ id: idParam() }),
          response: {
            201: z.object({ kubeconfig: z.string(), namespace: z.string(), expires_at: z.string(), filename: z.string() }),
          },
        },
      },
      async (request, reply) => {
        const workspace = await findWorkspace(db, request.params.id);
        if (!workspace) throw notFound();
        const user = currentUser(request);
        const access = await loadAccess(db, user);
        const role = access.workspaceRoles.get(workspace.id);
        // Members only (the product rule for cluster access), platform admins included: an admin
        // who needs cluster access to a workspace joins it, so the binding is recorded and revoked
        // like anyone's.
        if (!role) throw new HttpError(403, 'You are not a member of this workspace.');
        const info = cluster.clusterInfo();
        if (!info) throw new HttpError(503, NO_CLUSTER);
        if (workspace.cluster_state !== 'ready') throw new HttpError(409, STILL_SETTING_UP);

        // The binding is ensured on demand (idempotent), so a kubeconfig works even before the
        // reconciler has got to this membership. The membership's cluster_state is the
        // reconciler's alone: marking it `ready` here could hide a `pending` that a removal of
        // the right has just set.
        const target = { namespace: workspace.namespace, workspaceId: workspace.id, userId: user.id };
        await withCluster(() => cluster.ensureClusterRoles());
        await withCluster(() => cluster.ensureMemberAccess({ ...target, role }));
        const issued = await withCluster(() => cluster.issueKubeconfigToken({ ...target, expirationSeconds: KUBECONFIG_LIFETIME_SECONDS }));
        // The right may have ended while the cluster was being asked (the member removed, the
        // account disabled, the team suspended …), and its revocation may have run before the
        // ensure above recreated the service account. Every end of a right commits before its
        // revocation runs, so: still entitled now means any revocation comes after this token
        // and voids it; no longer entitled means this request takes back what it made.
        const current = await entitledRole(db, workspace.id, user.id);
        if (current === null) {
          await withCluster(() => cluster.revokeMemberAccess(target));
          throw new HttpError(403, 'You are not a member of this workspace.');
        }
        if (current !== role) {
          // The role changed meanwhile: the reconciler binds the current one.
          await db.updateTable('workspace_members').set({ cluster_state: 'pending' }).where('workspace_id', '=', workspace.id).where('user_id', '=', user.id).execute();
          applyAfterCommit(context, { clusterSync: true });
        }
        const kubeconfig = kubeconfigYaml({
          server: info.server,
          caPem: info.ca,
          namespace: workspace.namespace,
          user: `testbed-user-${user.id}`,
          token: issued.token,
        });
        reply.code(201);
        return { kubeconfig, namespace: workspace.namespace, expires_at: issued.expiresAt, filename: `${workspace.namespace}.kubeconfig` };
      },
    );
  };
}
