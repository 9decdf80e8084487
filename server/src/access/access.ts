import { type Kysely, sql } from 'kysely';
import { preparedQuery } from '../db/prepared.js';
import type { Database, TeamRole, User, WorkspaceRole } from '../db/schema.js';

/**
 * What a user may do in teams and workspaces, loaded once per request (one query) and then
 * consulted by the plain permission functions. Only enabled team memberships count; a
 * disabled team membership also voids the user's workspace roles in that team's workspaces.
 * A suspended team (teams.enabled = 0) gives none of its members any role, in it or in its
 * workspaces; platform admins keep theirs through `admin`.
 */
export interface Access {
  userId: number;
  /** Platform admin: may do anything. */
  admin: boolean;
  teamRoles: ReadonlyMap<number, TeamRole>;
  workspaceRoles: ReadonlyMap<number, WorkspaceRole>;
}

export async function loadAccess(db: Kysely<Database>, user: Pick<User, 'id' | 'admin'>): Promise<Access> {
  const rows = await rolesOfUser.all(db, user.id);
  const teamRoles = new Map<number, TeamRole>();
  const workspaceRoles = new Map<number, WorkspaceRole>();
  for (const row of rows) {
    if (row.kind === 'team') teamRoles.set(row.id, row.role as TeamRole);
    else workspaceRoles.set(row.id, row.role as WorkspaceRole);
  }
  return { userId: user.id, admin: user.admin === 1, teamRoles, workspaceRoles };
}

/**
 * The user's team roles and workspace roles in one query (most API requests load them), built
 * once per database (db/prepared.ts).
 */
const rolesOfUser = preparedQuery((db, userId: number) =>
  db
    .selectFrom('team_members as tm')
    .innerJoin('teams as t', 't.id', 'tm.team_id')
    .select([sql<'team' | 'workspace'>`'team'`.as('kind'), 'tm.team_id as id', 'tm.role'])
    .where('tm.user_id', '=', userId)
    .where('tm.enabled', '=', 1)
    .where('t.enabled', '=', 1)
    .unionAll(
      db
        .selectFrom('workspace_members as wm')
        .innerJoin('workspaces as w', 'w.id', 'wm.workspace_id')
        .innerJoin('teams as t', 't.id', 'w.team_id')
        .leftJoin('team_members as tm', (join) => join.onRef('tm.team_id', '=', 'w.team_id').onRef('tm.user_id', '=', 'wm.user_id'))
        .select([sql<'team' | 'workspace'>`'workspace'`.as('kind'), 'wm.workspace_id as id', 'wm.role'])
        .where('wm.user_id', '=', userId)
        .where('t.enabled', '=', 1)
        .where((eb) => eb.or([eb('tm.enabled', 'is', null), eb('tm.enabled', '=', 1)])),
    ),
);

/**
 * loadAccess for many users at once (two queries per call, whatever the number of users), for
 * the realtime server's re-check of every open subscription. Same rules as loadAccess; a test
 * (server/test/realtime-rights.test.ts) holds the two to the same answers.
 */
export async function loadAccessMany(db: Kysely<Database>, users: readonly Pick<User, 'id' | 'admin'>[]): Promise<Map<number, Access>> {
  const result = new Map<number, Access>();
  if (users.length === 0) return result;
  const ids = users.map((user) => user.id);
  const [teams, workspaces] = await Promise.all([
    db
      .selectFrom('team_members as tm')
      .innerJoin('teams as t', 't.id', 'tm.team_id')
      .select(['tm.user_id', 'tm.team_id', 'tm.role'])
      .where('tm.user_id', 'in', ids)
      .where('tm.enabled', '=', 1)
      .where('t.enabled', '=', 1)
      .execute(),
    db
      .selectFrom('workspace_members as wm')
      .innerJoin('workspaces as w', 'w.id', 'wm.workspace_id')
      .innerJoin('teams as t', 't.id', 'w.team_id')
      .leftJoin('team_members as tm', (join) => join.onRef('tm.team_id', '=', 'w.team_id').onRef('tm.user_id', '=', 'wm.user_id'))
      .select(['wm.user_id', 'wm.workspace_id', 'wm.role'])
      .where('wm.user_id', 'in', ids)
      .where('t.enabled', '=', 1)
      .where((eb) => eb.or([eb('tm.enabled', 'is', null), eb('tm.enabled', '=', 1)]))
      .execute(),
  ]);
  const roles = new Map<number, { teams: Map<number, TeamRole>; workspaces: Map<number, WorkspaceRole> }>();
  for (const user of users) {
    const entry = { teams: new Map<number, TeamRole>(), workspaces: new Map<number, WorkspaceRole>() };
    roles.set(user.id, entry);
    result.set(user.id, { userId: user.id, admin: user.admin === 1, teamRoles: entry.teams, workspaceRoles: entry.workspaces });
  }
  for (const row of teams) roles.get(row.user_id)?.teams.set(row.team_id, row.role);
  for (const row of workspaces) roles.get(row.user_id)?.workspaces.set(row.workspace_id, row.role);
  return result;
}

export const isTeamManagerRole = (role: TeamRole | null | undefined) => role === 'owner' || role === 'manager';

/** Team roles from the least to the most: a manager may not give a role above their own. */
export const TEAM_ROLE_RANK: Readonly<Record<TeamRole, number>> = { member: 0, manager: 1, owner: 2 };

/** Owner or manager of the team (the spec's "team admin"). */
export const managesTeam = (access: Access, teamId: number | null) =>
  teamId !== null && isTeamManagerRole(access.teamRoles.get(teamId));

/** May see a team's members and its joining reason: enabled members and platform admins. */
export const seesTeamMembers = (access: Access, teamId: number) => access.admin || access.teamRoles.has(teamId);

/** May manage a workspace: its managers, its team's owner/managers, platform admins. */
export const managesWorkspace = (access: Access, workspace: { id: number; team_id: number }) =>
  access.admin || access.workspaceRoles.get(workspace.id) === 'manager' || managesTeam(access, workspace.team_id);
