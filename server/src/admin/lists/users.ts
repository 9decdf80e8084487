import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import { DAY_MS } from '../../clock.js';
import { dialectOf } from '../../db/database.js';
import { jsonArrayFrom, jsonRows } from '../../db/json.js';
import type { Database } from '../../db/schema.js';
import { type ListOptions, fullName, groupBy, inChunks } from './common.js';
import { countMatches, matches } from '../../db/search.js';

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
  /** Active from `now` back this many days (activeUserIds); needs `now`. */
  activeWithinDays?: number;
  /** When the list is read (the app's clock), for activeWithinDays. */
  now?: Date;
}

/** The activity log entries that only the person themself causes, by signing in or out. */
const PRESENCE = ['logged in', 'logged out'] as const;

/**
 * Who was active since `since`: a person whose access token (a session or a personal token)
 * authenticated a request then, or who logged in or out then. Tokens alone would forget whoever
 * logged out since (logging out deletes the session), so the log's sign-ins and sign-outs fill
 * in; other log entries are left out, since some name a person who did not act (a failed login
 * on their address). Both reads walk an index of migration 0020 over the window only.
 */
export const activeUserIds = (db: Kysely<Database>, since: Date) => activity(db, since).select('user_id');

/** The rows of activeUserIds with when each was: `user_id`, `seen` (one row per token or log entry). */
const activity = (db: Kysely<Database>, since: Date) => {
  const from = since.toISOString();
  return db.selectFrom(
    db
      .selectFrom('access_tokens')
      .select(['user_id', 'last_used_at as seen'])
      .where('last_used_at', '>=', from)
      .$narrowType<{ seen: string }>()
      .unionAll(
        db
          .selectFrom('activity_log')
          .select(['causer_id as user_id', 'created_at as seen'])
          .where('description', 'in', [...PRESENCE])
          .where('created_at', '>=', from)
          .where('causer_id', 'is not', null)
          .$narrowType<{ user_id: number }>(),
      )
      .as('presence'),
  );
};

/**
 * How many people were active within each window back from `now`, in one pass over the widest:
 * each person's latest sign of presence, counted against each window's start. Every id is a
 * user's (tokens go with their user, a deleted user's log entries lose their causer), so these
 * are the users list's totals for filter[active_within_days].
 */
export async function countActive<W extends string>(db: Kysely<Database>, now: Date, windows: Record<W, number>): Promise<Record<W, number>> {
  const entries = Object.entries(windows) as [W, number][];
  const widest = Math.max(...entries.map(([, days]) => days));
  const latest = activity(db, activeSince({ activeWithinDays: widest, now }))
    .select(['user_id', (eb) => eb.fn.max('seen').as('seen')])
    .groupBy('user_id')
    .as('latest');
  const row = await db
    .selectFrom(latest)
    .select(
      entries.map(([window, days]) =>
        sql<number | string>`sum(case when ${sql.ref('latest.seen')} >= ${activeSince({ activeWithinDays: days, now }).toISOString()} then 1 else 0 end)`.as(window),
      ),
    )
    .executeTakeFirstOrThrow();
  const counts = row as Record<string, number | string | null>;
  return Object.fromEntries(entries.map(([window]) => [window, Number(counts[window] ?? 0)])) as Record<W, number>;
}

/** The start of the "active within N days" window at `now`. */
export function activeSince(filters: Pick<UserFilters, 'activeWithinDays' | 'now'>): Date {
  // A filter read by time without the app's clock would disagree with the dashboard's counts.
  if (!filters.now) throw new Error('The activity filter needs the time it is read at (the app clock).');
  return new Date(filters.now.getTime() - filters.activeWithinDays! * DAY_MS);
}

type Flag = 'admin' | 'enabled' | 'verified' | 'policy';

/**
 * Each flag filter's test, written with literals so that both planners match the partial
 * indexes of migration 0011 (on the rare side: admins, disabled, unverified, policy pending).
 */
const FLAGS: Record<Flag, { rare: boolean; test: (value: boolean) => Expression<SqlBool> }> = {
  admin: { rare: true, test: (value) => sql<SqlBool>`${sql.ref('users.admin')} = ${sql.lit(value ? 1 : 0)}` },
  enabled: { rare: false, test: (value) => sql<SqlBool>`${sql.ref('users.enabled')} = ${sql.lit(value ? 1 : 0)}` },
  verified: { rare: false, test: (value) => sql<SqlBool>`${sql.ref('users.email_verified_at')} ${sql.raw(value ? 'is not null' : 'is null')}` },
  policy: { rare: false, test: (value) => sql<SqlBool>`${sql.ref('users.aup_accepted_at')} ${sql.raw(value ? 'is not null' : 'is null')}` },
};
const FLAG_NAMES = Object.keys(FLAGS) as Flag[];

/** The users of the list's filters, unsorted and unpaged. */
export const filteredUsers = (db: Kysely<Database>, filters: UserFilters, options: { searchInOrder?: boolean } = {}) =>
  db
    .selectFrom('users')
    .$call((qb) => FLAG_NAMES.reduce((query, flag) => (filters[flag] === undefined ? query : query.where(FLAGS[flag].test(filters[flag]!))), qb))
    .$if(filters.teamId !== undefined, (qb) =>
      qb.where('id', 'in', db.selectFrom('team_members').select('user_id').where('team_id', '=', filters.teamId!)),
    )
    .$if(filters.activeWithinDays !== undefined, (qb) => qb.where('id', 'in', activeUserIds(db, activeSince(filters))))
    .$if(filters.q !== undefined && filters.q !== '', (qb) =>
      qb.where(matches(db, 'users', 'users', filters.q!, { inOrder: options.searchInOrder })),
    );

/** The columns presentUsers needs (never the password hash). */
export const USER_COLUMNS = ['id', 'firstname', 'lastname', 'email', 'admin', 'enabled', 'email_verified_at', 'aup_accepted_at', 'created_at'] as const;

/** Every user, from the trigger-kept counter of migration 0011 (a count(*) when it is missing). */
async function allUsers(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql<{ row_count: number | string }>`select row_count from row_counts where table_name = 'users'`.execute(db);
  if (rows[0] !== undefined) return Number(rows[0].row_count);
  return Number((await db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
}

const countOf = async (query: ReturnType<typeof filteredUsers>) =>
  Number((await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()).total);

/**
 * The list's total without reading every user where an index or the counter can answer:
 * no filter (the counter), one flag on its common side (every user minus the rare side, which
 * a partial index counts), a search alone on SQLite (its FTS table). Exact in every case.
 */
export async function countUsers(db: Kysely<Database>, filters: UserFilters): Promise<number> {
  const flags = FLAG_NAMES.filter((flag) => filters[flag] !== undefined);
  const searching = filters.q !== undefined && filters.q !== '';
  if (!searching && filters.teamId === undefined && filters.activeWithinDays === undefined) {
    if (flags.length === 0) return allUsers(db);
    const flag = flags[0]!;
    if (flags.length === 1 && filters[flag] !== FLAGS[flag].rare) {
      const [all, rare] = await Promise.all([allUsers(db), countOf(filteredUsers(db, { [flag]: FLAGS[flag].rare }))]);
      return all - rare;
    }
  }
  if (searching && filters.teamId === undefined && filters.activeWithinDays === undefined && flags.length === 0) {
    const counted = await countMatches(db, 'users', filters.q!);
    if (counted !== null) return counted;
  }
  return countOf(filteredUsers(db, filters));
}

export async function listUsers(db: Kysely<Database>, options: ListOptions<'name' | 'email' | 'created_at'> & UserFilters) {
  const order = options.order ?? 'asc';
  const jsonArray = jsonArrayFrom(db);
  // Each user's teams and workspaces come with the page, as JSON arrays (one query, not three).
  const rows = async (limit?: { limit: number; offset: number }, searchInOrder = false) => {
    let query = filteredUsers(db, options, { searchInOrder })
      .select(USER_COLUMNS)
      .select((eb) => [
        jsonArray(
          eb
            .selectFrom('team_members as tm')
            .innerJoin('teams as t', 't.id', 'tm.team_id')
            .select(['t.id', 't.name', 'tm.role'])
            .whereRef('tm.user_id', '=', 'users.id')
            .orderBy('t.name'),
        ).as('team_list'),
        jsonArray(
          eb
            .selectFrom('workspace_members as wm')
            .innerJoin('workspaces as w', 'w.id', 'wm.workspace_id')
            .select(['w.id', 'w.name', 'wm.role'])
            .whereRef('wm.user_id', '=', 'users.id')
            .orderBy('w.name'),
        ).as('workspace_list'),
      ]);
    query = options.sort === 'name' ? query.orderBy('firstname', order).orderBy('lastname', order) : query.orderBy(options.sort, order);
    const found = await query
      .orderBy('id', order)
      .$if(limit !== undefined, (qb) => qb.limit(limit!.limit).offset(limit!.offset))
      .execute();
    return found.map(({ team_list, workspace_list, ...user }) => presentUser(user, jsonRows<Membership<TeamRole>>(team_list), jsonRows<Membership<WorkspaceRole>>(workspace_list)));
  };
  if (options.page === undefined) {
    const all = await rows();
    return { total: all.length, rows: all };
  }
  const total = await countUsers(db, options);
  const limit = { limit: options.perPage, offset: (options.page - 1) * options.perPage };
  // SQLite, searching: when the matches are many, walking the sort index until the page is
  // full reads fewer rows than fetching and sorting every match (about (offset + limit) ×
  // all / total index entries against total rows). Every sort of the list has an index.
  const searchInOrder =
    dialectOf(db) === 'sqlite' && options.q !== undefined && options.q !== '' && total * total > (limit.offset + limit.limit) * (await allUsers(db));
  const page = limit.offset < total ? await rows(limit, searchInOrder) : [];
  return { total, rows: page };
}

/**
 * The ids' range as well as the ids, when they lie close together (the CSV export's batches
 * of 1,000 in id order): PostgreSQL then walks the user_id index over that range instead of
 * scanning every membership to test it against a list of 1,000 ids. Scattered ids (a page
 * sorted by name) are left to the list alone.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any of Kysely's select builders
function withinRange<QB extends { where: (...args: any[]) => QB }>(qb: QB, column: string, ids: number[]): QB {
  if (ids.length < 2) return qb;
  const low = Math.min(...ids);
  const high = Math.max(...ids);
  return high - low < 2 * ids.length ? qb.where(column, '>=', low).where(column, '<=', high) : qb;
}

interface UserRow {
  id: number;
  firstname: string;
  lastname: string;
  email: string;
  admin: number;
  enabled: number;
  email_verified_at: string | null;
  aup_accepted_at: string | null;
  created_at: string;
}

/** Users as the list answers them, with their teams and workspaces (role), for rows read in batches (the CSV export). */
export async function presentUsers(db: Kysely<Database>, rows: UserRow[]) {
  const ids = rows.map((user) => user.id);
  const [teams, workspaces] = await Promise.all([
    inChunks(ids, (chunk) =>
      db
        .selectFrom('team_members as tm')
        .innerJoin('teams as t', 't.id', 'tm.team_id')
        .select(['tm.user_id', 'tm.role', 't.id', 't.name'])
        .where('tm.user_id', 'in', chunk)
        .$call((qb) => withinRange(qb, 'tm.user_id', chunk))
        .orderBy('t.name')
        .execute(),
    ),
    inChunks(ids, (chunk) =>
      db
        .selectFrom('workspace_members as wm')
        .innerJoin('workspaces as w', 'w.id', 'wm.workspace_id')
        .select(['wm.user_id', 'wm.role', 'w.id', 'w.name'])
        .where('wm.user_id', 'in', chunk)
        .$call((qb) => withinRange(qb, 'wm.user_id', chunk))
        .orderBy('w.name')
        .execute(),
    ),
  ]);
  const teamsByUser = groupBy(teams, (team) => team.user_id);
  const workspacesByUser = groupBy(workspaces, (workspace) => workspace.user_id);
  return rows.map((user) => presentUser(user, teamsByUser.get(user.id) ?? [], workspacesByUser.get(user.id) ?? []));
}

type TeamRole = 'owner' | 'manager' | 'member';
type WorkspaceRole = 'manager' | 'member';
interface Membership<Role> {
  id: number;
  name: string;
  role: Role;
}


function presentUser(
  user: UserRow,
  teams: Membership<TeamRole>[],
  workspaces: Membership<WorkspaceRole>[],
) {
  return {
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
    teams: teams.map(({ id, name, role }) => ({ id, name, role })),
    workspaces: workspaces.map(({ id, name, role }) => ({ id, name, role })),
  };
}
