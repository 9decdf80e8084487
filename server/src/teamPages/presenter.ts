import type { Kysely } from 'kysely';
import { z } from 'zod';
import { creditSchema, teamQuotaSchema } from '../teams/quota.js';
import type { Database, Team } from '../db/schema.js';
import { presentRequests, requestSchema } from '../requests/presenter.js';
import { type Access, seesTeamMembers } from '../access/access.js';
import { teamStatus } from '../workspaces/expiry.js';
import type { StatusClock } from '../workspaces/presenter.js';

const workspaceSummary = z.object({ id: z.number(), name: z.string(), label: z.string(), namespace: z.string() });

/**
 * A team (docs/api-contract.md, "Team"). `users` is always there (clients map over it): the members
 * for members and platform admins, empty for everyone else and in the list; `joining_reason`
 * only for members and admins. `subnamespaces` and `sub_namespaces` are the spec's names for
 * `workspaces`.
 */
export const teamSchema = z.object({
  id: z.number(),
  name: z.string(),
  fullname: z.string(),
  shortname: z.string(),
  affiliation: z.string().nullable(),
  city: z.string().nullable(),
  country: z.string().nullable(),
  url: z.string().nullable(),
  joining_category: z.string().nullable(),
  joining_reason: z.string().nullable().optional(),
  created_at: z.string(),
  /** False while platform admins have suspended the team: nobody has a role in it then. */
  enabled: z.boolean(),
  /** Its review date (null: none); past it, its workspaces are suspended until it is renewed. */
  expires_at: z.string().nullable(),
  /** `expiring` from the warning time before its review date, `expired` after it (docs/lifecycle.md). */
  status: z.enum(['active', 'expiring', 'expired']),
  role: z.enum(['owner', 'manager', 'member']).nullable(),
  member: z.boolean(),
  pending_request: requestSchema.nullable(),
  workspaces: z.array(workspaceSummary),
  subnamespaces: z.array(workspaceSummary),
  sub_namespaces: z.array(workspaceSummary),
  users: z
    .array(
      z.object({
        id: z.number(),
        name: z.string(),
        firstname: z.string(),
        lastname: z.string(),
        email: z.string(),
        enabled: z.boolean(),
        /** The membership: its role, and its end date (null: none; memberships/ends.ts). */
        pivot: z.object({ role: z.enum(['owner', 'manager', 'member']), expires_at: z.string().nullable() }),
      }),
    ),
  /** GET /api/tenants/{id} only: the team quota (null: none) and the contributor credit in it. */
  quota: teamQuotaSchema.optional(),
  credit: creditSchema.optional(),
});

export type PresentedTeam = z.infer<typeof teamSchema>;

/**
 * Presents teams for one viewer: workspaces, the viewer's pending JoinTeam requests and (for
 * teams whose members they may see) the members, one query each for all the teams.
 */
export async function presentTeams(
  db: Kysely<Database>,
  teams: Team[],
  access: Access,
  options: { withMembers: boolean; when: StatusClock },
): Promise<PresentedTeam[]> {
  if (teams.length === 0) return [];
  const ids = teams.map((team) => team.id);
  const memberTeamIds = options.withMembers ? ids.filter((id) => seesTeamMembers(access, id)) : [];
  const [workspaces, pending, members] = await Promise.all([
    db
      .selectFrom('workspaces')
      .select(['id', 'team_id', 'name', 'label', 'namespace'])
      .where('team_id', 'in', ids)
      .orderBy('name')
      .execute(),
    db
      .selectFrom('requests')
      .selectAll()
      .where('type', '=', 'JoinTeam')
      .where('status', '=', 'Pending')
      .where('user_id', '=', access.userId)
      .where('team_id', 'in', ids)
      .execute(),
    memberTeamIds.length
      ? db
          .selectFrom('team_members as tm')
          .innerJoin('users as u', 'u.id', 'tm.user_id')
          .select(['tm.team_id', 'tm.role', 'tm.enabled as membership_enabled', 'tm.expires_at', 'u.id', 'u.firstname', 'u.lastname', 'u.email', 'u.enabled'])
          .where('tm.team_id', 'in', memberTeamIds)
          .orderBy('tm.id')
          .execute()
      : Promise.resolve([]),
  ]);
  const presentedPending = await presentRequests(db, pending, access);
  const pendingByTeam = new Map(presentedPending.map((request, index) => [pending[index].team_id, request]));

  return teams.map((team) => {
    const teamWorkspaces = workspaces
      .filter((workspace) => workspace.team_id === team.id)
      .map(({ id, name, label, namespace }) => ({ id, name, label, namespace }));
    const role = access.teamRoles.get(team.id) ?? null;
    const full = memberTeamIds.includes(team.id);
    return {
      id: team.id,
      name: team.name,
      fullname: team.fullname,
      shortname: team.shortname,
      affiliation: team.affiliation,
      city: team.city,
      country: team.country,
      url: team.url,
      joining_category: team.joining_category,
      created_at: team.created_at,
      enabled: team.enabled === 1,
      expires_at: team.expires_at,
      status: teamStatus(team.expires_at, options.when.warningDays, options.when.now),
      role,
      member: role !== null,
      pending_request: pendingByTeam.get(team.id) ?? null,
      workspaces: teamWorkspaces,
      subnamespaces: teamWorkspaces,
      sub_namespaces: teamWorkspaces,
      users: full
        ? members
            .filter((member) => member.team_id === team.id)
            .map((member) => ({
              id: member.id,
              name: `${member.firstname} ${member.lastname}`,
              firstname: member.firstname,
              lastname: member.lastname,
              email: member.email,
              enabled: member.enabled === 1 && member.membership_enabled === 1,
              pivot: { role: member.role, expires_at: member.expires_at },
            }))
        : [],
      ...(full ? { joining_reason: team.joining_reason } : {}),
    };
  });
}
