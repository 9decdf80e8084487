import type { Kysely } from 'kysely';
import { z } from 'zod';
import { jsonArrayFrom, jsonRows } from '../db/json.js';
import { preparedQuery } from '../db/prepared.js';
import type { Database, Request, User } from '../db/schema.js';
import { type JoinedRequest, presentRequestsWith, type RequestRelations, requestSchema, splitJoinedRequests } from '../requests/presenter.js';
import type { Access } from '../access/access.js';
import { isLocale } from '../i18n/messages.js';
import { teamStatus, workspaceLifecycle } from '../workspaces/expiry.js';
import type { StatusClock } from '../workspaces/presenter.js';

const endStatus = z.enum(['active', 'expiring', 'expired']);

/** A workspace of the user's in one of their teams (a team's workspaces, also named sub_namespaces by the console's API). */
const teamWorkspaceSchema = z.object({
  id: z.number(),
  name: z.string(),
  label: z.string(),
  namespace: z.string(),
  role: z.enum(['manager', 'member']),
});

const userTeamSchema = z.object({
  id: z.number(),
  name: z.string(),
  fullname: z.string(),
  shortname: z.string(),
  city: z.string().nullable(),
  country: z.string().nullable(),
  url: z.string().nullable(),
  role: z.enum(['owner', 'manager', 'member']),
  /** The team's review date (null: none) and where it stands (docs/lifecycle.md): the home's banner. */
  expires_at: z.string().nullable(),
  status: endStatus,
  workspaces: z.array(teamWorkspaceSchema),
  sub_namespaces: z.array(teamWorkspaceSchema),
  subnamespaces: z.array(teamWorkspaceSchema),
});

const userWorkspaceSchema = z.object({
  id: z.number(),
  name: z.string(),
  label: z.string(),
  namespace: z.string(),
  team: z.object({ id: z.number(), name: z.string() }),
  /** The console API's other name for `team` (docs/api-contract.md). */
  tenant: z.object({ id: z.number(), name: z.string() }),
  role: z.enum(['manager', 'member']),
  /** As GET /api/subnamespaces/{id} answers them: its own end date, when it ends (its team's date included), its status. */
  expires_at: z.string().nullable(),
  ends_at: z.string().nullable(),
  status: endStatus,
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
  /** The policy version accepted last; null: the built-in text ("initial"), or never accepted. */
  aup_version_id: z.number().nullable(),
  /** True while the person must accept the policy in force (the onboarding gate refuses the API). */
  aup_required: z.boolean(),
  /** Why an earlier acceptance no longer holds, with the new version's "what changed" line. */
  aup_renewal: z.object({ reason: z.enum(['new_version', 'expired']), summary: z.string().nullable() }).nullable(),
  admin: z.boolean(),
  enabled: z.boolean(),
  authority: z.string().nullable(),
  /** The language the user chose for the console and their mails; null: not chosen. */
  locale: z.enum(['en', 'fr']).nullable(),
  created_at: z.string(),
  teams: z.array(userTeamSchema),
  /** The console API's other name for `teams` (docs/api-contract.md). */
  tenants: z.array(userTeamSchema),
  workspaces: z.array(userWorkspaceSchema),
  suspended_teams: z.array(suspendedTeamSchema),
  requests: z.array(requestSchema),
});

export type PresentedUser = z.infer<typeof userSchema>;

export type UserRelations = Pick<PresentedUser, 'teams' | 'tenants' | 'workspaces' | 'suspended_teams' | 'requests'>;

const noRelations: UserRelations = { teams: [], tenants: [], workspaces: [], suspended_teams: [], requests: [] };

type TeamRole = 'owner' | 'manager' | 'member';
type WorkspaceRole = 'manager' | 'member';

interface TeamRow {
  id: number;
  name: string;
  fullname: string;
  shortname: string;
  city: string | null;
  country: string | null;
  url: string | null;
  team_enabled: number;
  expires_at: string | null;
  role: TeamRole;
}
interface WorkspaceRow {
  id: number;
  name: string;
  label: string;
  namespace: string;
  team_id: number;
  team_name: string;
  team_fullname: string;
  team_shortname: string;
  team_city: string | null;
  team_country: string | null;
  team_url: string | null;
  team_enabled: number;
  team_expires_at: string | null;
  expires_at: string | null;
  suspended_at: string | null;
  cluster_state: string;
  role: WorkspaceRole;
}

/**
 * Everything GET /user shows besides the user, in one query (built once, db/prepared.ts): the
 * enabled team memberships (teams suspended or not), the workspace memberships whose team
 * membership, if any, is enabled, and the user's requests with the people, teams and
 * workspaces they name. Each comes back as a JSON array (json_group_array on SQLite, json_agg
 * on PostgreSQL).
 */
const userRelationsQuery = preparedQuery((db, userId: number) => {
  const jsonArray = jsonArrayFrom(db);
  return db.selectNoFrom([
    jsonArray(
      db
        .selectFrom('team_members as tm')
        .innerJoin('teams as t', 't.id', 'tm.team_id')
        .select(['t.id', 't.name', 't.fullname', 't.shortname', 't.city', 't.country', 't.url', 't.enabled as team_enabled', 't.expires_at', 'tm.role'])
        .where('tm.user_id', '=', userId)
        .where('tm.enabled', '=', 1),
    ).as('teams'),
    jsonArray(
      db
        .selectFrom('workspace_members as wm')
        .innerJoin('workspaces as w', 'w.id', 'wm.workspace_id')
        .innerJoin('teams as t', 't.id', 'w.team_id')
        .leftJoin('team_members as tm', (join) => join.onRef('tm.team_id', '=', 'w.team_id').onRef('tm.user_id', '=', 'wm.user_id'))
        .select([
          'w.id',
          'w.name',
          'w.label',
          'w.namespace',
          't.id as team_id',
          't.name as team_name',
          't.fullname as team_fullname',
          't.shortname as team_shortname',
          't.city as team_city',
          't.country as team_country',
          't.url as team_url',
          't.enabled as team_enabled',
          't.expires_at as team_expires_at',
          'w.expires_at',
          'w.suspended_at',
          'w.cluster_state',
          'wm.role',
        ])
        .where('wm.user_id', '=', userId)
        .where((eb) => eb.or([eb('tm.enabled', 'is', null), eb('tm.enabled', '=', 1)])),
    ).as('workspaces'),
    jsonArray(
      db
        .selectFrom('requests as r')
        .leftJoin('users as d', 'd.id', 'r.decided_by')
        .leftJoin('teams as t', 't.id', 'r.team_id')
        .leftJoin('workspaces as w', 'w.id', 'r.workspace_id')
        .select([
          // Every column of requests, named (SQLite's json_object needs explicit selections).
          'r.id',
          'r.type',
          'r.status',
          'r.user_id',
          'r.team_id',
          'r.workspace_id',
          'r.object_name',
          'r.dedupe_key',
          'r.data',
          'r.message',
          'r.decision_message',
          'r.decided_by',
          'r.decided_at',
          'r.created_at',
          'r.updated_at',
          'd.firstname as decider_firstname',
          'd.lastname as decider_lastname',
          'd.email as decider_email',
          't.name as team_name',
          't.fullname as team_fullname',
          't.shortname as team_shortname',
          'w.name as workspace_name',
          'w.label as workspace_label',
        ])
        .where('r.user_id', '=', userId),
    ).as('requests'),
  ]);
});


const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
const newestFirst = (a: Request, b: Request) =>
  a.created_at !== b.created_at ? (a.created_at < b.created_at ? 1 : -1) : b.id - a.id;

/**
 * The user's teams and workspaces (enabled memberships of enabled teams, as in `loadAccess`),
 * their suspended teams apart, and their own requests, newest first: one query whatever the
 * numbers.
 */
export async function loadUserRelations(db: Kysely<Database>, user: User, when: StatusClock): Promise<UserRelations> {
  const row = (await userRelationsQuery.first(db, user.id))!;
  const teamRows = jsonRows<TeamRow>(row.teams);
  const workspaceRows = jsonRows<WorkspaceRow>(row.workspaces);
  const requestRows = jsonRows<JoinedRequest>(row.requests);

  const access: Access = {
    userId: user.id,
    admin: user.admin === 1,
    teamRoles: new Map(teamRows.filter((team) => team.team_enabled === 1).map((team) => [team.id, team.role])),
    workspaceRoles: new Map(workspaceRows.filter((workspace) => workspace.team_enabled === 1).map((workspace) => [workspace.id, workspace.role])),
  };

  const workspaces = workspaceRows
    .filter((workspace) => workspace.team_enabled === 1)
    .sort((a, b) => byName({ name: a.team_name }, { name: b.team_name }) || byName(a, b));
  const workspacesOfTeam = new Map<number, PresentedUser['teams'][number]['workspaces']>();
  for (const workspace of workspaces) {
    const entry = { id: workspace.id, name: workspace.name, label: workspace.label, namespace: workspace.namespace, role: workspace.role };
    workspacesOfTeam.set(workspace.team_id, [...(workspacesOfTeam.get(workspace.team_id) ?? []), entry]);
  }
  const teams = teamRows
    .filter((team) => team.team_enabled === 1)
    .sort(byName)
    .map((team) => {
      const inTeam = workspacesOfTeam.get(team.id) ?? [];
      return {
        id: team.id,
        name: team.name,
        fullname: team.fullname,
        shortname: team.shortname,
        city: team.city,
        country: team.country,
        url: team.url,
        role: team.role,
        expires_at: team.expires_at,
        status: teamStatus(team.expires_at, when.warningDays, when.now),
        workspaces: inTeam,
        sub_namespaces: inTeam,
        subnamespaces: inTeam,
      };
    });

  // Suspended teams: those the user is an enabled member of, and those they only have
  // workspaces in.
  const suspended = new Map<number, PresentedUser['suspended_teams'][number]>();
  for (const team of teamRows.filter((team) => team.team_enabled === 0)) {
    suspended.set(team.id, { id: team.id, name: team.name, fullname: team.fullname, shortname: team.shortname, role: team.role, workspaces: [] });
  }
  for (const workspace of workspaceRows.filter((workspace) => workspace.team_enabled === 0)) {
    if (!suspended.has(workspace.team_id)) {
      suspended.set(workspace.team_id, {
        id: workspace.team_id,
        name: workspace.team_name,
        fullname: workspace.team_fullname,
        shortname: workspace.team_shortname,
        role: null,
        workspaces: [],
      });
    }
    suspended.get(workspace.team_id)!.workspaces.push({ id: workspace.id, name: workspace.name, label: workspace.label, namespace: workspace.namespace });
  }

  // The requester is the user; the rest comes joined in.
  const known: RequestRelations = { users: new Map(), teams: new Map(), workspaces: new Map() };
  known.users.set(user.id, { id: user.id, firstname: user.firstname, lastname: user.lastname, email: user.email });
  const { requests, relations } = splitJoinedRequests(requestRows, known);

  return {
    teams,
    tenants: teams,
    workspaces: workspaces.map((workspace) => {
      const lifecycle = workspaceLifecycle(workspace, when.warningDays, when.now);
      return {
        id: workspace.id,
        name: workspace.name,
        label: workspace.label,
        namespace: workspace.namespace,
        team: { id: workspace.team_id, name: workspace.team_name },
        tenant: { id: workspace.team_id, name: workspace.team_name },
        role: workspace.role,
        expires_at: workspace.expires_at,
        ends_at: lifecycle.ends_at,
        status: lifecycle.status,
      };
    }),
    suspended_teams: [...suspended.values()].sort(byName).map((team) => ({ ...team, workspaces: team.workspaces.sort(byName) })),
    requests: presentRequestsWith(requests.sort(newestFirst), relations, access),
  };
}

/** The user with their teams, workspaces and requests (GET /user and the account answers). */
export async function presentUserWithRelations(db: Kysely<Database>, user: User, when: StatusClock, policy?: PolicyFields): Promise<PresentedUser> {
  return presentUser(user, await loadUserRelations(db, user, when), policy);
}

/** The user's standing against the policy in force (policy/inForce.ts userPolicyFields). */
export type PolicyFields = Pick<PresentedUser, 'aup_version_id' | 'aup_required' | 'aup_renewal'>;

export function presentUser(user: User, relations: UserRelations = noRelations, policy?: PolicyFields): PresentedUser {
  return {
    id: user.id,
    firstname: user.firstname,
    lastname: user.lastname,
    name: `${user.firstname} ${user.lastname}`,
    email: user.email,
    email_verified_at: user.email_verified_at,
    aup_accepted_at: user.aup_accepted_at,
    // Without the policy in force at hand (a fresh registration): only "never accepted" is known.
    ...(policy ?? { aup_version_id: user.aup_version_id, aup_required: !user.aup_accepted_at, aup_renewal: null }),
    admin: user.admin === 1,
    enabled: user.enabled === 1,
    authority: user.authority,
    locale: isLocale(user.locale) ? user.locale : null,
    created_at: user.created_at,
    ...relations,
  };
}
