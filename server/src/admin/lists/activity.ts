import { type Kysely, type SqlBool, sql } from 'kysely';
import { dialectOf } from '../../db/database.js';
import type { ActivityEntry, Database } from '../../db/schema.js';
import { type ListOptions, contains, fullName, inChunks, pageAndTotal } from './common.js';

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
