import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database, User } from '../db/schema.js';
import { presentRequests, requestSchema } from '../requests/presenter.js';
import { requestsOf } from '../requests/requests.js';
import { loadAccess } from '../teams/access.js';

const userTeamSchema = z.object({
  id: z.number(),
  name: z.string(),
  fullname: z.string(),
  shortname: z.string(),
  role: z.enum(['owner', 'manager', 'member']),
});

const userWorkspaceSchema = z.object({
  id: z.number(),
  name: z.string(),
  label: z.string(),
  namespace: z.string(),
  team: z.object({ id: z.number(), name: z.string() }),
  role: z.enum(['manager', 'member']),
});

/**
 * A team of the user's that platform admins suspended: nobody has a role in it then, so it is
 * not among `teams`, nor its workspaces among `workspaces`; the console shows it marked instead
 * of letting it vanish. `role` is the membership's, in force again once the team is enabled
 * (null for someone only in some of its workspaces).
 */
const suspendedTeamSchema = z.object({
  id: z.number(),
  name: z.string(),
  fullname: z.string(),
  shortname: z.string(),
  role: z.enum(['owner', 'manager', 'member']).nullable(),
  workspaces: z.array(z.object({ id: z.number(), name: z.string(), label: z.string(), namespace: z.string() })),
});

/** The user as the console sees it (docs/api-contract.md, "The user"). */
export const userSchema = z.object({
  id: z.number(),
  firstname: z.string(),
  lastname: z.string(),
  name: z.string(),
  email: z.string(),
  email_verified_at: z.string().nullable(),
  aup_accepted_at: z.string().nullable(),
  admin: z.boolean(),
  enabled: z.boolean(),
  authority: z.string().nullable(),
  created_at: z.string(),
  teams: z.array(userTeamSchema),
  workspaces: z.array(userWorkspaceSchema),
  suspended_teams: z.array(suspendedTeamSchema),
  requests: z.array(requestSchema),
});

export type PresentedUser = z.infer<typeof userSchema>;

export type UserRelations = Pick<PresentedUser, 'teams' | 'workspaces' | 'suspended_teams' | 'requests'>;

const noRelations: UserRelations = { teams: [], workspaces: [], suspended_teams: [], requests: [] };

/**
 * The user's suspended teams (enabled memberships only) and their workspaces in them (where the
 * team membership, if any, is enabled), grouped by team, by name. Two small queries by user.
 */
async function loadSuspendedTeams(db: Kysely<Database>, userId: number): Promise<PresentedUser['suspended_teams']> {
  const [teams, workspaces] = await Promise.all([
    db
      .selectFrom('team_members as tm')
      .innerJoin('teams as t', 't.id', 'tm.team_id')
      .select(['t.id', 't.name', 't.fullname', 't.shortname', 'tm.role'])
      .where('tm.user_id', '=', userId)
      .where('tm.enabled', '=', 1)
      .where('t.enabled', '=', 0)
      .execute(),
    db
      .selectFrom('workspace_members as wm')
      .innerJoin('workspaces as w', 'w.id', 'wm.workspace_id')
      .innerJoin('teams as t', 't.id', 'w.team_id')
      .leftJoin('team_members as tm', (join) => join.onRef('tm.team_id', '=', 'w.team_id').onRef('tm.user_id', '=', 'wm.user_id'))
      .select(['w.id', 'w.name', 'w.label', 'w.namespace', 't.id as team_id', 't.name as team_name', 't.fullname as team_fullname', 't.shortname as team_shortname'])
      .where('wm.user_id', '=', userId)
      .where('t.enabled', '=', 0)
      .where((eb) => eb.or([eb('tm.enabled', 'is', null), eb('tm.enabled', '=', 1)]))
      .execute(),
  ]);
  const byId = new Map<number, PresentedUser['suspended_teams'][number]>();
  for (const team of teams) byId.set(team.id, { ...team, workspaces: [] });
  for (const workspace of workspaces) {
    if (!byId.has(workspace.team_id)) {
      byId.set(workspace.team_id, { id: workspace.team_id, name: workspace.team_name, fullname: workspace.team_fullname, shortname: workspace.team_shortname, role: null, workspaces: [] });
    }
    byId.get(workspace.team_id)!.workspaces.push({ id: workspace.id, name: workspace.name, label: workspace.label, namespace: workspace.namespace });
  }
  const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  return [...byId.values()].sort(byName).map((team) => ({ ...team, workspaces: team.workspaces.sort(byName) }));
}

/**
 * The user's teams and workspaces (enabled memberships only, as in `loadAccess`), their
 * suspended teams apart, and own requests, newest first: a fixed handful of queries whatever
 * the numbers.
 */
export async function loadUserRelations(db: Kysely<Database>, user: User): Promise<UserRelations> {
  const access = await loadAccess(db, user);
  const teamIds = [...access.teamRoles.keys()];
  const workspaceIds = [...access.workspaceRoles.keys()];
  const [teams, workspaces, suspended, requests] = await Promise.all([
    teamIds.length
      ? db.selectFrom('teams').select(['id', 'name', 'fullname', 'shortname']).where('id', 'in', teamIds).orderBy('name').execute()
      : Promise.resolve([]),
    workspaceIds.length
      ? db
          .selectFrom('workspaces as w')
          .innerJoin('teams as t', 't.id', 'w.team_id')
          .select(['w.id', 'w.name', 'w.label', 'w.namespace', 't.id as team_id', 't.name as team_name'])
          .where('w.id', 'in', workspaceIds)
          .orderBy('t.name')
          .orderBy('w.name')
          .execute()
      : Promise.resolve([]),
    loadSuspendedTeams(db, user.id),
    requestsOf(db, user.id),
  ]);
  return {
    teams: teams.map((team) => ({ ...team, role: access.teamRoles.get(team.id)! })),
    workspaces: workspaces.map((workspace) => ({
      id: workspace.id,
      name: workspace.name,
      label: workspace.label,
      namespace: workspace.namespace,
      team: { id: workspace.team_id, name: workspace.team_name },
      role: access.workspaceRoles.get(workspace.id)!,
    })),
    suspended_teams: suspended,
    requests: await presentRequests(db, requests, access),
  };
}

/** The user with their teams, workspaces and requests (GET /user and the account answers). */
export async function presentUserWithRelations(db: Kysely<Database>, user: User): Promise<PresentedUser> {
  return presentUser(user, await loadUserRelations(db, user));
}

export function presentUser(user: User, relations: UserRelations = noRelations): PresentedUser {
  return {
    id: user.id,
    firstname: user.firstname,
    lastname: user.lastname,
    name: `${user.firstname} ${user.lastname}`,
    email: user.email,
    email_verified_at: user.email_verified_at,
    aup_accepted_at: user.aup_accepted_at,
    admin: user.admin === 1,
    enabled: user.enabled === 1,
    authority: user.authority,
    created_at: user.created_at,
    ...relations,
  };
}
