import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import { type ListOptions, fullName, groupBy, inChunks, pageAndTotal } from './common.js';
import { matches } from './search.js';

export interface UserFilters {
  q?: string;
  admin?: boolean;
  enabled?: boolean;
  /** Email verified (or not). */
  verified?: boolean;
  /** Acceptable use policy accepted (or not). */
  policy?: boolean;
  /** Members of this team (any role). */
  teamId?: number;
}

/** The users of the list's filters, unsorted and unpaged. */
export const filteredUsers = (db: Kysely<Database>, filters: UserFilters) =>
  db
    .selectFrom('users')
    .$if(filters.admin !== undefined, (qb) => qb.where('admin', '=', filters.admin ? 1 : 0))
    .$if(filters.enabled !== undefined, (qb) => qb.where('enabled', '=', filters.enabled ? 1 : 0))
    .$if(filters.verified !== undefined, (qb) => qb.where('email_verified_at', filters.verified ? 'is not' : 'is', null))
    .$if(filters.policy !== undefined, (qb) => qb.where('aup_accepted_at', filters.policy ? 'is not' : 'is', null))
    .$if(filters.teamId !== undefined, (qb) =>
      qb.where('id', 'in', db.selectFrom('team_members').select('user_id').where('team_id', '=', filters.teamId!)),
    )
    .$if(filters.q !== undefined && filters.q !== '', (qb) =>
      qb.where(matches(db, 'users', 'users', filters.q!)),
    );

/** The columns presentUsers needs (never the password hash). */
export const USER_COLUMNS = ['id', 'firstname', 'lastname', 'email', 'admin', 'enabled', 'email_verified_at', 'aup_accepted_at', 'created_at'] as const;

export async function listUsers(db: Kysely<Database>, options: ListOptions<'name' | 'email' | 'created_at'> & UserFilters) {
  const order = options.order ?? 'asc';
  const filtered = filteredUsers(db, options);
  const { rows, total } = await pageAndTotal(
    options,
    (limit) => {
      let query = filtered.select(USER_COLUMNS);
      query = options.sort === 'name' ? query.orderBy('firstname', order).orderBy('lastname', order) : query.orderBy(options.sort, order);
      return query
        .orderBy('id', order)
        .$if(limit !== undefined, (qb) => qb.limit(limit!.limit).offset(limit!.offset))
        .execute();
    },
    () => filtered.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  );
  return { total, rows: await presentUsers(db, rows) };
}

/** Users as the list answers them, with their teams and workspaces (role). */
export async function presentUsers(
  db: Kysely<Database>,
  rows: {
    id: number;
    firstname: string;
    lastname: string;
    email: string;
    admin: number;
    enabled: number;
    email_verified_at: string | null;
    aup_accepted_at: string | null;
    created_at: string;
  }[],
) {
  const ids = rows.map((user) => user.id);
  const [teams, workspaces] = await Promise.all([
    inChunks(ids, (chunk) =>
      db
        .selectFrom('team_members as tm')
        .innerJoin('teams as t', 't.id', 'tm.team_id')
        .select(['tm.user_id', 'tm.role', 't.id', 't.name'])
        .where('tm.user_id', 'in', chunk)
        .orderBy('t.name')
        .execute(),
    ),
    inChunks(ids, (chunk) =>
      db
        .selectFrom('workspace_members as wm')
        .innerJoin('workspaces as w', 'w.id', 'wm.workspace_id')
        .select(['wm.user_id', 'wm.role', 'w.id', 'w.name'])
        .where('wm.user_id', 'in', chunk)
        .orderBy('w.name')
        .execute(),
    ),
  ]);
  const teamsByUser = groupBy(teams, (team) => team.user_id);
  const workspacesByUser = groupBy(workspaces, (workspace) => workspace.user_id);
  return rows.map((user) => ({
    id: user.id,
    name: fullName(user),
    firstname: user.firstname,
    lastname: user.lastname,
    email: user.email,
    admin: user.admin === 1,
    enabled: user.enabled === 1,
    email_verified_at: user.email_verified_at,
    aup_accepted_at: user.aup_accepted_at,
    created_at: user.created_at,
    teams: (teamsByUser.get(user.id) ?? []).map(({ id, name, role }) => ({ id, name, role })),
    workspaces: (workspacesByUser.get(user.id) ?? []).map(({ id, name, role }) => ({ id, name, role })),
  }));
}
