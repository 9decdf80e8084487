import type { Kysely } from 'kysely';
import { z } from 'zod';
import { POD_SECURITY } from '../cluster/gateway.js';
import type { Database, Workspace } from '../db/schema.js';
import { isDecider } from '../access/requests.js';
import { type Access, managesWorkspace, seesTeamMembers } from '../access/access.js';

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
  pod_security: z.object({
    enforce: z.enum(['privileged', 'baseline', 'restricted']),
    warn: z.enum(['privileged', 'baseline', 'restricted']),
    audit: z.enum(['privileged', 'baseline', 'restricted']),
    version: z.string(),
  }),
});

export async function presentWorkspace(db: Kysely<Database>, workspace: Workspace, access: Access): Promise<z.infer<typeof workspaceSchema>> {
  const [team, members, pending] = await Promise.all([
    db.selectFrom('teams').select(['id', 'name', 'fullname']).where('id', '=', workspace.team_id).executeTakeFirstOrThrow(),
    db
      .selectFrom('workspace_members as wm')
      .innerJoin('users as u', 'u.id', 'wm.user_id')
      .select(['u.id', 'u.firstname', 'u.lastname', 'u.email', 'u.enabled', 'wm.role'])
      .where('wm.workspace_id', '=', workspace.id)
      .orderBy('wm.id')
      .execute(),
    db
      .selectFrom('requests')
      .selectAll()
      .where('type', '=', 'JoinWorkspace')
      .where('status', '=', 'Pending')
      .where('workspace_id', '=', workspace.id)
      .orderBy('created_at', 'desc')
      .execute(),
  ]);
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
    pod_security: { ...POD_SECURITY },
  };
}
