import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import { dialectOf } from '../db/database.js';
import type { ActivityEntry, Database, Team } from '../db/schema.js';

// The platform admins' lists. Each filters, sorts and paginates in SQL, then loads the
// relations of the rows it answers with one query per relation (in chunks of CHUNK ids for
// the unpaginated arrays), never one per row.
//
// The filters (filteredX), the selected columns and the presenters (presentX) are exported
// apart from the paging, so that the CSV exports (csvExport.ts) stream exactly the list's
// rows in keyset-paged batches instead of repeating its filters.

export interface ListOptions<Sort extends string> {
  page?: number;
  perPage: number;
  sort: Sort;
  order?: 'asc' | 'desc';
  q?: string;
}

export interface ListResult<T> {
  rows: T[];
  total: number;
}

const CHUNK = 1000;

async function inChunks<T>(ids: number[], load: (chunk: number[]) => Promise<T[]>): Promise<T[]> {
  const results: T[] = [];
  for (let start = 0; start < ids.length; start += CHUNK) results.push(...(await load(ids.slice(start, start + CHUNK))));
  return results;
}

const groupBy = <T, K>(rows: T[], key: (row: T) => K) => {
  const groups = new Map<K, T[]>();
  for (const row of rows) {
    const group = groups.get(key(row));
    if (group) group.push(row);
    else groups.set(key(row), [row]);
  }
  return groups;
};

/** Case-insensitive "contains" on any of the expressions, with LIKE wildcards in `q` taken literally. */
function contains(q: string, columns: Expression<unknown>[]): Expression<SqlBool> {
  const pattern = `%${q.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
  const tests = columns.map((column) => sql<SqlBool>`lower(${column}) like ${pattern} escape ${sql.raw("'\\'")}`);
  return sql<SqlBool>`(${sql.join(tests, sql` or `)})`;
}

const fullName = (user: { firstname: string; lastname: string }) => `${user.firstname} ${user.lastname}`;

/** Runs the page (or everything) and the total of a filtered query. */
async function pageAndTotal<Row>(
  options: { page?: number; perPage: number },
  rows: (limit?: { limit: number; offset: number }) => Promise<Row[]>,
  count: () => Promise<{ total: number | string | bigint }>,
): Promise<ListResult<Row>> {
  if (options.page === undefined) {
    const all = await rows();
    return { rows: all, total: all.length };
  }
  const [page, counted] = await Promise.all([
    rows({ limit: options.perPage, offset: (options.page - 1) * options.perPage }),
    count(),
  ]);
  return { rows: page, total: Number(counted.total) };
}

// ---------------------------------------------------------------------------------------

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

export interface WorkspaceFilters {
  q?: string;
  teamId?: number;
}

/** The workspaces (joined with their team as t) of the list's filters, unsorted and unpaged. */
export const filteredWorkspaces = (db: Kysely<Database>, filters: WorkspaceFilters) =>
  db
    .selectFrom('workspaces as w')
    .innerJoin('teams as t', 't.id', 'w.team_id')
    .$if(filters.teamId !== undefined, (qb) => qb.where('w.team_id', '=', filters.teamId!))
    .$if(filters.q !== undefined && filters.q !== '', (qb) => qb.where(contains(filters.q!, [sql.ref('w.name'), sql.ref('w.label')])));

/** The columns presentWorkspaces needs from filteredWorkspaces. */
export const WORKSPACE_COLUMNS = ['w.id', 'w.name', 'w.label', 'w.namespace', 'w.created_at', 't.id as team_id', 't.name as team_name'] as const;

export async function listWorkspaces(
  db: Kysely<Database>,
  options: ListOptions<'name' | 'label' | 'namespace' | 'created_at'> & WorkspaceFilters,
) {
  const order = options.order ?? 'asc';
  const filtered = filteredWorkspaces(db, options);
  const { rows, total } = await pageAndTotal(
    options,
    (limit) =>
      filtered
        .select(WORKSPACE_COLUMNS)
        .orderBy(`w.${options.sort}`, order)
        .orderBy('w.id', order)
        .$if(limit !== undefined, (qb) => qb.limit(limit!.limit).offset(limit!.offset))
        .execute(),
    () => filtered.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  );
  return { total, rows: await presentWorkspaces(db, rows) };
}

/** Workspaces as the list answers them, with their team and users (role). */
export async function presentWorkspaces(
  db: Kysely<Database>,
  rows: { id: number; name: string; label: string; namespace: string; created_at: string; team_id: number; team_name: string }[],
) {
  const members = await inChunks(
    rows.map((workspace) => workspace.id),
    (chunk) =>
      db
        .selectFrom('workspace_members as wm')
        .innerJoin('users as u', 'u.id', 'wm.user_id')
        .select(['wm.workspace_id', 'wm.role', 'u.id', 'u.firstname', 'u.lastname'])
        .where('wm.workspace_id', 'in', chunk)
        .orderBy('wm.id')
        .execute(),
  );
  const membersByWorkspace = groupBy(members, (member) => member.workspace_id);
  return rows.map((workspace) => ({
    id: workspace.id,
    name: workspace.name,
    label: workspace.label,
    namespace: workspace.namespace,
    created_at: workspace.created_at,
    team: { id: workspace.team_id, name: workspace.team_name },
    users: (membersByWorkspace.get(workspace.id) ?? []).map((member) => ({ id: member.id, name: fullName(member), role: member.role })),
  }));
}

export interface UserFilters {
  q?: string;
  admin?: boolean;
  enabled?: boolean;
}

/** The users of the list's filters, unsorted and unpaged. */
export const filteredUsers = (db: Kysely<Database>, filters: UserFilters) =>
  db
    .selectFrom('users')
    .$if(filters.admin !== undefined, (qb) => qb.where('admin', '=', filters.admin ? 1 : 0))
    .$if(filters.enabled !== undefined, (qb) => qb.where('enabled', '=', filters.enabled ? 1 : 0))
    .$if(filters.q !== undefined && filters.q !== '', (qb) =>
      qb.where(contains(filters.q!, [sql`${sql.ref('firstname')} || ' ' || ${sql.ref('lastname')}`, sql.ref('email')])),
    );

/** The columns presentUsers needs (never the password hash). */
export const USER_COLUMNS = ['id', 'firstname', 'lastname', 'email', 'admin', 'enabled', 'email_verified_at', 'created_at'] as const;

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
    created_at: user.created_at,
    teams: (teamsByUser.get(user.id) ?? []).map(({ id, name, role }) => ({ id, name, role })),
    workspaces: (workspacesByUser.get(user.id) ?? []).map(({ id, name, role }) => ({ id, name, role })),
  }));
}

export interface ActivityFilters {
  q?: string;
  severity?: string;
  subjectType?: string;
  causerId?: number;
}

/** The audit log entries of the list's filters, unsorted and unpaged. */
export const filteredActivity = (db: Kysely<Database>, filters: ActivityFilters) => {
  const severity =
    dialectOf(db) === 'postgres'
      ? sql`(${sql.ref('properties')}::json ->> 'severity')`
      : sql`json_extract(${sql.ref('properties')}, '$.severity')`;
  return db
    .selectFrom('activity_log')
    .$if(filters.severity !== undefined, (qb) => qb.where(sql<SqlBool>`${severity} = ${filters.severity!}`))
    .$if(filters.subjectType !== undefined, (qb) => qb.where('subject_type', '=', filters.subjectType!))
    .$if(filters.causerId !== undefined, (qb) => qb.where('causer_id', '=', filters.causerId!))
    .$if(filters.q !== undefined && filters.q !== '', (qb) => qb.where(contains(filters.q!, [sql.ref('description')])));
};

export async function listActivity(db: Kysely<Database>, options: ListOptions<'created_at' | 'description'> & ActivityFilters) {
  const order = options.order ?? (options.sort === 'created_at' ? 'desc' : 'asc');
  const filtered = filteredActivity(db, options);
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
  return { total, rows: await presentActivity(db, rows) };
}

/** Audit log entries as the list answers them, with the names of their causer and subject. */
export async function presentActivity(db: Kysely<Database>, rows: ActivityEntry[]) {
  const idsOf = (type: string) => [...new Set(rows.filter((row) => row.subject_type === type && row.subject_id !== null).map((row) => row.subject_id!))];
  const userIds = [...new Set([...rows.map((row) => row.causer_id).filter((id): id is number => id !== null), ...idsOf('user')])];
  const [users, teams, workspaces, requests, nodes] = await Promise.all([
    inChunks(userIds, (chunk) => db.selectFrom('users').select(['id', 'firstname', 'lastname']).where('id', 'in', chunk).execute()),
    inChunks(idsOf('team'), (chunk) => db.selectFrom('teams').select(['id', 'name']).where('id', 'in', chunk).execute()),
    inChunks(idsOf('workspace'), (chunk) => db.selectFrom('workspaces').select(['id', 'namespace as name']).where('id', 'in', chunk).execute()),
    inChunks(idsOf('request'), (chunk) =>
      db.selectFrom('requests').select(['id', 'type', 'object_name']).where('id', 'in', chunk).execute(),
    ),
    inChunks(idsOf('node'), (chunk) => db.selectFrom('nodes').select(['id', 'name', 'hostname']).where('id', 'in', chunk).execute()),
  ]);
  const names = new Map<string, string>([
    ...users.map((user) => [`user:${user.id}`, fullName(user)] as const),
    ...teams.map((team) => [`team:${team.id}`, team.name] as const),
    ...workspaces.map((workspace) => [`workspace:${workspace.id}`, workspace.name] as const),
    ...requests.map((request) => [`request:${request.id}`, `${request.type} ${request.object_name}`] as const),
    // A node has no name until it is installed: its hostname, else its number, stands in.
    ...nodes.map((node) => [`node:${node.id}`, node.name ?? node.hostname ?? `node #${node.id}`] as const),
  ]);
  return rows.map((entry) => ({
    id: entry.id,
    causer: entry.causer_id === null ? null : { id: entry.causer_id, name: names.get(`user:${entry.causer_id}`) ?? `user #${entry.causer_id}` },
    description: entry.description,
    subject:
      entry.subject_id === null || entry.subject_type === null
        ? null
        : {
            id: entry.subject_id,
            name: names.get(`${entry.subject_type}:${entry.subject_id}`) ?? `${entry.subject_type} #${entry.subject_id}`,
          },
    subject_type: entry.subject_type,
    subject_id: entry.subject_id,
    properties: JSON.parse(entry.properties) as Record<string, unknown> & { severity: 'info' | 'warning' | 'error' },
    created_at: entry.created_at,
  }));
}
