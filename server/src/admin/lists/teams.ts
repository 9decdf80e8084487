import { type Kysely, sql } from 'kysely';
import type { Database, Team } from '../../db/schema.js';
import { type ListOptions, contains, fullName, groupBy, inChunks, pageAndTotal } from './common.js';

export interface TeamFilters {
  q?: string;
}

/** The teams of the list's search, unsorted and unpaged. */
export const filteredTeams = (db: Kysely<Database>, filters: TeamFilters) =>
  db
    .selectFrom('teams')
    .$if(filters.q !== undefined && filters.q !== '', (qb) =>
      qb.where(contains(filters.q!, [sql.ref('name'), sql.ref('fullname'), sql.ref('shortname')])),
    );

export async function listTeams(db: Kysely<Database>, options: ListOptions<'name' | 'fullname' | 'created_at'>) {
  const order = options.order ?? 'asc';
  const filtered = filteredTeams(db, options);
  const { rows, total } = await pageAndTotal(
    options,
    (limit) =>
      filtered
        .selectAll()
        .orderBy(options.sort, order)
        .orderBy('id', order)
        .$if(limit !== undefined, (qb) => qb.limit(limit!.limit).offset(limit!.offset))
        .execute(),
    () => filtered.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  );
  return { total, rows: await presentTeams(db, rows) };
}

/** Teams as the list answers them, with their users (role) and workspaces. */
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
