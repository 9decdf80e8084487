import type { Kysely } from 'kysely';
import { z } from 'zod';
import { type ClusterGateway, POD_SECURITY } from '../cluster/gateway.js';
import { preparedQuery } from '../db/prepared.js';
import type { Database, Workspace } from '../db/schema.js';
import { isDecider } from '../access/requests.js';
import { type Access, managesWorkspace, seesTeamMembers } from '../access/access.js';
import { workspaceLifecycle } from './expiry.js';
import { workspaceUsage, workspaceUsageSchema } from './usage.js';

const teamRef = z.object({ id: z.number(), name: z.string(), fullname: z.string() });

/**
 * A workspace (docs/api-contract.md, "Workspace"): visible to every onboarded user. Its users'
 * emails only for those who see the team's members (its members and platform admins), null
 * for everyone else.
 */
export const workspaceSchema = z.object({
  id: z.number(),
  name: z.string(),
  label: z.string(),
  description: z.string().nullable(),
  namespace: z.string(),
  created_at: z.string(),
  team: teamRef,
  tenant: teamRef,
  role: z.enum(['manager', 'member']).nullable(),
  member: z.boolean(),
  can_manage: z.boolean(),
  users: z.array(
    z.object({
      id: z.number(),
      name: z.string(),
      firstname: z.string(),
      lastname: z.string(),
      email: z.string().nullable(),
      enabled: z.boolean(),
      pivot: z.object({ role: z.enum(['manager', 'member']) }),
    }),
  ),
  requests: z.array(z.object({ id: z.number(), user_id: z.number(), type: z.string(), status: z.string(), created_at: z.string() })),
  /** The Pod Security Admission levels the console gives the namespace (cluster/gateway.ts POD_SECURITY). */
  /** `expiring` from the warning time before its end, `expired` after it (docs/lifecycle.md). */
  status: z.enum(['active', 'expiring', 'expired']),
  /** Its own end date (null: none); platform admins set it. */
  expires_at: z.string().nullable(),
  /** When it ends: the earlier of its own date and its team's review date. */
  ends_at: z.string().nullable(),
  /** Expired: `suspending` until the cluster holds the suspension, `suspended` after. */
  suspension: z.enum(['suspending', 'suspended']).nullable(),
  pod_security: z.object({
    enforce: z.enum(['privileged', 'baseline', 'restricted']),
    warn: z.enum(['privileged', 'baseline', 'restricted']),
    audit: z.enum(['privileged', 'baseline', 'restricted']),
    version: z.string(),
  }),
  /** Each quota resource's limit and what the cluster counts against it (usage.ts); used null when not known now. */
  quota: workspaceUsageSchema,
  /** Since when its team's CPU allocation for the month is used up (no new pods); null: not used up. */
  allocation_used_up_at: z.string().nullable(),
});

/** What a workspace's status is measured against: the clock's now and the warning time. */
export interface StatusClock {
  now: Date;
  warningDays: number;
}

// The workspace page's queries, built once (db/prepared.ts): the page is the one members open most.
const teamOfWorkspace = preparedQuery((db, teamId: number) =>
  db.selectFrom('teams').select(['id', 'name', 'fullname', 'expires_at', 'allocation_used_up_at']).where('id', '=', teamId),
);
const membersOfWorkspace = preparedQuery((db, workspaceId: number) =>
  db
    .selectFrom('workspace_members as wm')
    .innerJoin('users as u', 'u.id', 'wm.user_id')
    .select(['u.id', 'u.firstname', 'u.lastname', 'u.email', 'u.enabled', 'wm.role'])
    .where('wm.workspace_id', '=', workspaceId)
    .orderBy('wm.id'),
);
const pendingJoinRequests = preparedQuery((db, workspaceId: number) =>
  db
    .selectFrom('requests')
    .selectAll()
    .where('type', '=', 'JoinWorkspace')
    .where('status', '=', 'Pending')
    .where('workspace_id', '=', workspaceId)
    .orderBy('created_at', 'desc'),
);

export async function presentWorkspace(
  db: Kysely<Database>,
  cluster: ClusterGateway,
  workspace: Workspace,
  access: Access,
  when: StatusClock,
): Promise<z.infer<typeof workspaceSchema>> {
  // The cluster is read alongside the database, so its round trip adds nothing when it is quick.
  const [[team], members, pending, quota] = await Promise.all([
    teamOfWorkspace.all(db, workspace.team_id),
    membersOfWorkspace.all(db, workspace.id),
    pendingJoinRequests.all(db, workspace.id),
    workspaceUsage(cluster, workspace),
  ]);
  if (!team) throw new Error(`Workspace ${workspace.id} has no team ${workspace.team_id}`);
  const role = access.workspaceRoles.get(workspace.id) ?? null;
  const seesEmails = seesTeamMembers(access, workspace.team_id);
  const teamRef = { id: team.id, name: team.name, fullname: team.fullname };
  return {
    id: workspace.id,
    name: workspace.name,
    label: workspace.label,
    description: workspace.description,
    namespace: workspace.namespace,
    created_at: workspace.created_at,
    team: teamRef,
    tenant: teamRef,
    role,
    member: role !== null,
    can_manage: managesWorkspace(access, workspace),
    users: members.map((member) => ({
      id: member.id,
      name: `${member.firstname} ${member.lastname}`,
      firstname: member.firstname,
      lastname: member.lastname,
      email: seesEmails ? member.email : null,
      enabled: member.enabled === 1,
      pivot: { role: member.role },
    })),
    // Their own pending request for everyone; all of them for those who may decide them.
    requests: pending
      .filter((request) => request.user_id === access.userId || isDecider(access, request))
      .map(({ id, user_id, type, status, created_at }) => ({ id, user_id, type, status, created_at })),
    ...presentEnd(workspace, team.expires_at, when),
    pod_security: { ...POD_SECURITY },
    quota,
    allocation_used_up_at: team.allocation_used_up_at,
  };
}

/** The status fields of a workspace (with its team's review date) as the API answers them. */
export function presentEnd(
  workspace: Pick<Workspace, 'expires_at' | 'suspended_at' | 'cluster_state'>,
  teamExpiresAt: string | null,
  when: StatusClock,
) {
  const lifecycle = workspaceLifecycle({ ...workspace, team_expires_at: teamExpiresAt }, when.warningDays, when.now);
  return { status: lifecycle.status, expires_at: workspace.expires_at, ends_at: lifecycle.ends_at, suspension: lifecycle.suspension };
}
