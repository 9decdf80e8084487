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
  requests: z.array(requestSchema),
});

export type PresentedUser = z.infer<typeof userSchema>;

export type UserRelations = Pick<PresentedUser, 'teams' | 'workspaces' | 'requests'>;

const noRelations: UserRelations = { teams: [], workspaces: [], requests: [] };

/**
 * The user's teams and workspaces (enabled memberships only, as in `loadAccess`) and own
 * requests, newest first: a fixed handful of queries whatever the numbers.
 */
export async function loadUserRelations(db: Kysely<Database>, user: User): Promise<UserRelations> {
  const access = await loadAccess(db, user);
  const teamIds = [...access.teamRoles.keys()];
  const workspaceIds = [...access.workspaceRoles.keys()];
  const [teams, workspaces, requests] = await Promise.all([
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
