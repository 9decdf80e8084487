import type { Kysely } from 'kysely';
import { z } from 'zod';
import { type ClusterGateway, POD_SECURITY, type QuotaStatus } from '../cluster/gateway.js';
import { effectiveQuota, QUOTA_DEFAULTS } from '../cluster/quota.js';
import type { Database, Workspace } from '../db/schema.js';
import { workspaceQuotaOf } from '../workspaces/quota.js';
import { presentActivity } from './lists.js';
import { adminActivitySchema } from './schemas.js';

// GET /api/admin/workspaces/{id}: one workspace as a platform admin sees it (docs/api-contract.md,
// "Admin: workspaces"): team, members with emails and roles, quota (the database's values and
// the cluster's ResourceQuota), pod security, cluster state, counts and recent activity.

/** How many activity entries the page shows; the full log is /admin/activity. */
const RECENT_ACTIVITY = 20;

const level = z.enum(['privileged', 'baseline', 'restricted']);
const quotaValues = z.object({ cpu: z.string(), memory: z.string(), pods: z.number(), storage: z.string() });

export const adminWorkspaceDetailSchema = z.object({
  id: z.number(),
  name: z.string(),
  label: z.string(),
  description: z.string().nullable(),
  namespace: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  /** Its own end date (null: none) and when the leader's pass suspended it (null: it is not). */
  expires_at: z.string().nullable(),
  suspended_at: z.string().nullable(),
  team: z.object({ id: z.number(), name: z.string(), fullname: z.string() }),
  users: z.array(
    z.object({
      id: z.number(),
      name: z.string(),
      email: z.string(),
      enabled: z.boolean(),
      role: z.enum(['manager', 'member']),
      cluster_state: z.enum(['pending', 'ready', 'error']),
      joined_at: z.string(),
    }),
  ),
  counts: z.object({ members: z.number(), managers: z.number(), pending_requests: z.number() }),
  quota: z.object({
    /** In force: the workspace's own values, else the defaults. */
    values: quotaValues,
    /** Set for this workspace (null: the default applies). */
    own: z.object({ cpu: z.string().nullable(), memory: z.string().nullable(), pods: z.number().nullable(), storage: z.string().nullable() }),
    defaults: quotaValues,
    /** The namespace's ResourceQuota as the cluster has it; null when it cannot be read now. */
    cluster: z.object({ hard: z.record(z.string(), z.string()), used: z.record(z.string(), z.string()) }).nullable(),
  }),
  pod_security: z.object({ enforce: level, warn: level, audit: level, version: z.string() }),
  cluster: z.object({
    state: z.enum(['pending', 'ready', 'error']),
    error: z.string().nullable(),
    synced_at: z.string().nullable(),
  }),
  activity: z.array(adminActivitySchema),
});

export type AdminWorkspaceDetail = z.infer<typeof adminWorkspaceDetailSchema>;

/**
 * The quota as the cluster has it. Best effort: the page must open while the cluster is down
 * (or absent), so any failure is "unknown" (null) rather than an error answer.
 */
async function clusterQuota(cluster: ClusterGateway, workspace: Workspace): Promise<QuotaStatus | null> {
  if (workspace.cluster_state === 'error') return null;
  try {
    return await cluster.readWorkspaceQuota(workspace.namespace);
  } catch {
    return null;
  }
}

export async function adminWorkspaceDetail(db: Kysely<Database>, cluster: ClusterGateway, workspace: Workspace): Promise<AdminWorkspaceDetail> {
  const [team, members, pending, entries, quotaInCluster] = await Promise.all([
    db.selectFrom('teams').select(['id', 'name', 'fullname']).where('id', '=', workspace.team_id).executeTakeFirstOrThrow(),
    db
      .selectFrom('workspace_members as wm')
      .innerJoin('users as u', 'u.id', 'wm.user_id')
      .select(['u.id', 'u.firstname', 'u.lastname', 'u.email', 'u.enabled', 'wm.role', 'wm.cluster_state', 'wm.created_at'])
      .where('wm.workspace_id', '=', workspace.id)
      .orderBy('wm.id')
      .execute(),
    db
      .selectFrom('requests')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('type', '=', 'JoinWorkspace')
      .where('status', '=', 'Pending')
      .where('workspace_id', '=', workspace.id)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('activity_log')
      .selectAll()
      .where('subject_type', '=', 'workspace')
      .where('subject_id', '=', workspace.id)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(RECENT_ACTIVITY)
      .execute(),
    clusterQuota(cluster, workspace),
  ]);
  const own = workspaceQuotaOf(workspace);
  return {
    id: workspace.id,
    name: workspace.name,
    label: workspace.label,
    description: workspace.description,
    namespace: workspace.namespace,
    created_at: workspace.created_at,
    updated_at: workspace.updated_at,
    team,
    users: members.map((member) => ({
      id: member.id,
      name: `${member.firstname} ${member.lastname}`,
      email: member.email,
      enabled: member.enabled === 1,
      role: member.role,
      cluster_state: member.cluster_state,
      joined_at: member.created_at,
    })),
    counts: {
      members: members.length,
      managers: members.filter((member) => member.role === 'manager').length,
      // PostgreSQL answers count(*) as a string.
      pending_requests: Number(pending.count),
    },
    quota: { values: effectiveQuota(own), own, defaults: { ...QUOTA_DEFAULTS }, cluster: quotaInCluster },
    pod_security: { ...POD_SECURITY },
    cluster: { state: workspace.cluster_state, error: workspace.cluster_error, synced_at: workspace.cluster_synced_at },
    expires_at: workspace.expires_at,
    suspended_at: workspace.suspended_at,
    activity: await presentActivity(db, entries),
  };
}
