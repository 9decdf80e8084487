import { type Kysely, sql } from 'kysely';
import type { Database, Team } from '../../db/schema.js';
import { type EndFilters, endBounds, type ListOptions, fullName, groupBy, inChunks, pageAndTotal, undatedLast } from './common.js';
import { matches } from '../../db/search.js';
import { endStatus } from '../../workspaces/expiry.js';

export interface TeamFilters extends EndFilters {
  q?: string;
  /** Created at or after / before (ISO 8601). */
  from?: string;
  to?: string;
  /** Teams with (true) or without (false) a workspace. */
  hasWorkspaces?: boolean;
}

/** The teams of the list's search, unsorted and unpaged. */
export const filteredTeams = (db: Kysely<Database>, filters: TeamFilters) => {
  // The end filters read the review date (`expires_at`, indexed): ending from now to the bound, or passed.
  const ends = endBounds(filters);
  return db
    .selectFrom('teams')
    .$if(ends !== null && ends.by !== null, (qb) => qb.where('expires_at', '>', ends!.now).where('expires_at', '<=', ends!.by!))
    .$if(filters.expired === true, (qb) => qb.where('expires_at', '<=', ends!.now))
    .$if(filters.expired === false, (qb) => qb.where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', ends!.now)])))
    .$if(filters.q !== undefined && filters.q !== '', (qb) => qb.where(matches(db, 'teams', 'teams', filters.q!)))
    .$if(filters.from !== undefined, (qb) => qb.where('created_at', '>=', filters.from!))
    .$if(filters.to !== undefined, (qb) => qb.where('created_at', '<', filters.to!))
    .$if(filters.hasWorkspaces !== undefined, (qb) =>
      qb.where(({ exists, not, selectFrom }) => {
        const any = exists(selectFrom('workspaces').select('workspaces.id').whereRef('workspaces.team_id', '=', 'teams.id'));
        return filters.hasWorkspaces ? any : not(any);
      }),
    );
};

/** When the list's statuses are measured: the app's clock and the warning time (docs/lifecycle.md). */
export interface StatusTime {
  now: Date;
  warningDays: number;
}

export async function listTeams(
  db: Kysely<Database>,
  options: ListOptions<'name' | 'fullname' | 'created_at' | 'expires_at'> & TeamFilters,
  at: StatusTime,
) {
  const order = options.order ?? 'asc';
  const filtered = filteredTeams(db, options);
  const { rows, total } = await pageAndTotal(
    options,
    (limit) =>
      filtered
        .selectAll()
        .$if(options.sort === 'expires_at', (qb) => qb.orderBy(undatedLast('expires_at')))
        .orderBy(options.sort, order)
        .orderBy('id', order)
        .$if(limit !== undefined, (qb) => qb.limit(limit!.limit).offset(limit!.offset))
        .execute(),
    () => filtered.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  );
  return { total, rows: await presentTeamCounts(db, rows, at) };
}

/** Members a row of the admin teams list carries (the first ones, owners first). */
export const USERS_PER_TEAM_ROW = 5;

/**
 * Teams as the list answers them: member and workspace counts, the workspaces' names, and the
 * first USERS_PER_TEAM_ROW members with their role, not all of them (a team of 400 people made
 * a row of a thousand pixels; the team's page lists them).
 */
export async function presentTeamCounts(db: Kysely<Database>, rows: Team[], at: StatusTime) {
  const ids = rows.map((team) => team.id);
  const rank = sql<number>`row_number() over (partition by tm.team_id order by case tm.role when 'owner' then 0 when 'manager' then 1 else 2 end, tm.id)`;
  const [members, workspaces, firstMembers] = await Promise.all([
    inChunks(ids, (chunk) =>
      db
        .selectFrom('team_members')
        .select((eb) => ['team_id', eb.fn.countAll<number | string>().as('count')])
        .where('team_id', 'in', chunk)
        .groupBy('team_id')
        .execute(),
    ),
    inChunks(ids, (chunk) =>
      db.selectFrom('workspaces').select(['id', 'team_id', 'name']).where('team_id', 'in', chunk).orderBy('name').execute(),
    ),
    inChunks(ids, (chunk) =>
      db
        .selectFrom(
          db
            .selectFrom('team_members as tm')
            .innerJoin('users as u', 'u.id', 'tm.user_id')
            .select(['tm.team_id', 'tm.role', 'u.id', 'u.firstname', 'u.lastname', rank.as('rank')])
            .where('tm.team_id', 'in', chunk)
            .as('ranked'),
        )
        .selectAll()
        .where('rank', '<=', USERS_PER_TEAM_ROW)
        .orderBy('team_id')
        .orderBy('rank')
        .execute(),
    ),
  ]);
  const memberCounts = new Map(members.map((member) => [member.team_id, Number(member.count)]));
  const workspacesByTeam = groupBy(workspaces, (workspace) => workspace.team_id);
  const firstMembersByTeam = groupBy(firstMembers, (member) => member.team_id);
  return rows.map((team) => {
    const teamWorkspaces = (workspacesByTeam.get(team.id) ?? []).map(({ id, name }) => ({ id, name }));
    return {
      id: team.id,
      name: team.name,
      fullname: team.fullname,
      shortname: team.shortname,
      country: team.country,
      affiliation: team.affiliation,
      enabled: Boolean(team.enabled),
      created_at: team.created_at,
      /** The review date; `status` is where it stands (expiring from the warning time before). */
      expires_at: team.expires_at,
      status: endStatus(team.expires_at, at.warningDays, at.now),
      member_count: memberCounts.get(team.id) ?? 0,
      users: (firstMembersByTeam.get(team.id) ?? []).map((member) => ({ id: member.id, name: fullName(member), role: member.role, pivot: { role: member.role } })),
      workspace_count: teamWorkspaces.length,
      workspaces: teamWorkspaces,
    };
  });
}

/** Teams with their users (role) and workspaces, as the CSV export writes them. */
export async function presentTeams(db: Kysely<Database>, rows: Team[]) {
  const ids = rows.map((team) => team.id);
  const [members, workspaces] = await Promise.all([
    inChunks(ids, (chunk) =>
      db
        .selectFrom('team_members as tm')
        .innerJoin('users as u', 'u.id', 'tm.user_id')
        .select(['tm.team_id', 'tm.role', 'u.id', 'u.firstname', 'u.lastname'])
        .where('tm.team_id', 'in', chunk)
        .orderBy('tm.id')
        .execute(),
    ),
    inChunks(ids, (chunk) =>
      db.selectFrom('workspaces').select(['id', 'team_id', 'name']).where('team_id', 'in', chunk).orderBy('name').execute(),
    ),
  ]);
  const membersByTeam = groupBy(members, (member) => member.team_id);
  const workspacesByTeam = groupBy(workspaces, (workspace) => workspace.team_id);
  return rows.map((team) => ({
    id: team.id,
    name: team.name,
    fullname: team.fullname,
    shortname: team.shortname,
    country: team.country,
    created_at: team.created_at,
    users: (membersByTeam.get(team.id) ?? []).map((member) => ({ id: member.id, name: fullName(member), role: member.role })),
    workspaces: (workspacesByTeam.get(team.id) ?? []).map(({ id, name }) => ({ id, name })),
  }));
}
