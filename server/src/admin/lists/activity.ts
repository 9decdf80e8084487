import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import { dialectOf } from '../../db/database.js';
import type { ActivityEntry, Database } from '../../db/schema.js';
import { type ListOptions, fullName, inChunks, pageAndTotal } from './common.js';
import { TRIGRAM, descriptionMatches, matches } from '../../db/search.js';

export interface ActivityFilters {
  q?: string;
  severity?: string;
  subjectType?: string;
  subjectId?: number;
  causerId?: number;
  /** Created at or after (ISO text), and before (exclusive). */
  from?: string;
  to?: string;
}

/**
 * Free text over the audit log: the description, the causer's name or email, or the name of a
 * user, team or workspace subject. The people and things are searched in their own indexed
 * tables (so a rename is found at once) and their entries reached through the causer and
 * subject indexes, one branch of a union each: PostgreSQL cannot combine `or`ed subqueries
 * with indexes and would scan the log. Request and node subjects match by description only.
 */
function activityMatches(db: Kysely<Database>, q: string): Expression<SqlBool> {
  const users = db.selectFrom('users').select('users.id').where(matches(db, 'users', 'users', q));
  const entries = () => db.selectFrom('activity_log as a').select('a.id');
  const subjects = (type: 'user' | 'team' | 'workspace', ids: Expression<unknown>) =>
    entries().where('a.subject_type', '=', type).where(sql<SqlBool>`${sql.ref('a.subject_id')} in (${ids})`);
  const union = entries()
    .where(sql<SqlBool>`${sql.ref('a.causer_id')} in (${users})`)
    .union(subjects('user', users))
    .union(subjects('team', db.selectFrom('teams').select('teams.id').where(matches(db, 'teams', 'teams', q))))
    .union(subjects('workspace', db.selectFrom('workspaces as w').select('w.id').where(matches(db, 'workspaces', 'w', q))))
    // Trigrams need 3 characters; shorter queries match names only (search.ts).
    .$if([...q].length >= TRIGRAM, (qb) => qb.union(entries().where(descriptionMatches(db, 'a', q))));
  return sql<SqlBool>`${sql.ref('activity_log.id')} in (${union})`;
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
    .$if(filters.subjectId !== undefined, (qb) => qb.where('subject_id', '=', filters.subjectId!))
    .$if(filters.causerId !== undefined, (qb) => qb.where('causer_id', '=', filters.causerId!))
    .$if(filters.from !== undefined, (qb) => qb.where('activity_log.created_at', '>=', filters.from!))
    .$if(filters.to !== undefined, (qb) => qb.where('activity_log.created_at', '<', filters.to!))
    .$if(filters.q !== undefined && filters.q !== '', (qb) => qb.where(activityMatches(db, filters.q!)));
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
