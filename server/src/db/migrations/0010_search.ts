import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../database.js';

// Indexed search for the platform admins' lists, so that finding one person among
// 100,000 is an index lookup rather than a `lower(col) like '%q%'` scan of every row.
//
// - PostgreSQL: pg_trgm GIN indexes on each searched expression; `ilike '%q%'` uses them for
//   queries of 3 characters or more, and `ilike 'q%'` (the 1–2 character prefix search) too.
//   Without the extension (not installed on the server, no right to create it) the migration
//   logs a warning and creates no trigram index: search still works, as a scan.
// - SQLite: FTS5 tables with the trigram tokenizer (SQLite ≥ 3.34), each row keyed by the id
//   of its source row and kept in sync by triggers; plus indexes on lower(col) for the 1–2
//   character prefix search, which trigrams cannot serve.
//
// The searched expressions are listed once in db/search.ts (SEARCH) and must match
// these exactly, or the planner cannot use the indexes.

/** Searched expressions per table, as SQL text, shared by both databases. */
export const SEARCHED: Record<'users' | 'teams' | 'workspaces', Record<string, string>> = {
  users: { name: `firstname || ' ' || lastname`, email: 'email' },
  teams: { name: 'name', fullname: 'fullname', shortname: 'shortname', affiliation: `coalesce(affiliation, '')` },
  workspaces: { name: 'name', label: 'label', namespace: 'namespace' },
};

/** Prefix-searched columns on SQLite (indexes on lower(col)): the plain columns people type the start of. */
export const PREFIXED: Record<'users' | 'teams' | 'workspaces', string[]> = {
  users: ['firstname', 'lastname', 'email'],
  teams: ['name', 'fullname', 'shortname'],
  workspaces: ['name', 'label', 'namespace'],
};

export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'postgres') await upPostgres(db);
  else await upSqlite(db);
  // Default sorts and filters of the lists (created_at of teams and activity exist since 0001/0002).
  await db.schema.createIndex('users_name_sort_index').on('users').columns(['firstname', 'lastname', 'id']).execute();
  await db.schema.createIndex('users_created_at_index').on('users').columns(['created_at']).execute();
  await db.schema.createIndex('teams_name_sort_index').on('teams').columns(['fullname']).execute();
  await db.schema.createIndex('workspaces_created_at_index').on('workspaces').columns(['created_at']).execute();
  await db.schema.createIndex('workspaces_team_name_index').on('workspaces').columns(['team_id', 'name']).execute();
  await db.schema.createIndex('nodes_status_index').on('nodes').columns(['status', 'created_at']).execute();
}

/** The schema pg_trgm lives in, creating the extension if it can; null if unavailable. */
async function trigramSchema(db: Kysely<any>): Promise<string | null> {
  // A savepoint, because a failed statement would abort the migration's transaction. The
  // extension goes to `public` where there is one, so that it outlives any one schema (the
  // tests give each file a schema and drop it, cascading to what was created in it).
  for (const statement of [sql`create extension if not exists pg_trgm schema public`, sql`create extension if not exists pg_trgm`]) {
    await sql`savepoint pg_trgm`.execute(db);
    try {
      await statement.execute(db);
      await sql`release savepoint pg_trgm`.execute(db);
      break;
    } catch {
      await sql`rollback to savepoint pg_trgm`.execute(db);
      // Another session creating it at the same time (replicas migrating together, test files
      // run in parallel) makes ours fail once it commits: use theirs rather than creating a
      // second copy in this schema, which would go when the schema goes.
      if ((await installedTrigramSchema(db)) !== null) break;
    }
  }
  return installedTrigramSchema(db);
}

async function installedTrigramSchema(db: Kysely<any>): Promise<string | null> {
  const { rows } = await sql<{ schema: string }>`
    select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'
  `.execute(db);
  return rows[0]?.schema ?? null;
}

async function upPostgres(db: Kysely<any>): Promise<void> {
  const schema = await trigramSchema(db);
  if (schema === null) {
    console.warn('Migration 0010_search: the pg_trgm extension is unavailable; admin searches will scan their tables.');
  } else {
    const ops = sql.raw(`${quoteIdent(schema)}.gin_trgm_ops`);
    for (const [table, expressions] of Object.entries(SEARCHED)) {
      for (const [key, expression] of Object.entries(expressions)) {
        await sql`create index ${sql.id(`${table}_${key}_trgm`)} on ${sql.id(table)} using gin ((${sql.raw(expression)}) ${ops})`.execute(db);
      }
    }
    await sql`create index activity_log_description_trgm on activity_log using gin (description ${ops})`.execute(db);
  }
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

async function upSqlite(db: Kysely<any>): Promise<void> {
  const tables = { ...SEARCHED, activity_log: { description: 'description' } };
  for (const [table, expressions] of Object.entries(tables)) {
    const fts = `${table}_fts`;
    const columns = Object.keys(expressions);
    const values = (row: 'new' | 'old') => Object.values(expressions).map((expression) => prefixColumns(expression, row)).join(', ');
    // A table of its own content (not external content): it stores the computed expressions,
    // such as a user's full name, which are no column of the source table.
    await sql.raw(`create virtual table ${fts} using fts5(${columns.join(', ')}, tokenize = 'trigram')`).execute(db);
    await sql.raw(`insert into ${fts} (rowid, ${columns.join(', ')}) select id, ${Object.values(expressions).join(', ')} from ${table}`).execute(db);
    await sql.raw(`create trigger ${fts}_insert after insert on ${table} begin
      insert into ${fts} (rowid, ${columns.join(', ')}) values (new.id, ${values('new')});
    end`).execute(db);
    // Only when a searched column changes: users are updated at every login, say.
    const sources = [...new Set(Object.values(expressions).flatMap((expression) => prefixColumns(expression, 'new').match(/new\.\w+/g) ?? []))];
    await sql.raw(`create trigger ${fts}_update after update of ${sources.map((source) => source.slice(4)).join(', ')} on ${table} begin
      delete from ${fts} where rowid = old.id;
      insert into ${fts} (rowid, ${columns.join(', ')}) values (new.id, ${values('new')});
    end`).execute(db);
    await sql.raw(`create trigger ${fts}_delete after delete on ${table} begin
      delete from ${fts} where rowid = old.id;
    end`).execute(db);
  }
  for (const [table, columns] of Object.entries(PREFIXED)) {
    for (const column of columns) {
      await sql.raw(`create index ${table}_${column}_lower_index on ${table} (lower(${column}))`).execute(db);
    }
  }
}

/** `firstname || ' ' || lastname` → `new.firstname || ' ' || new.lastname` (columns qualified, literals and functions kept). */
export function prefixColumns(expression: string, row: string): string {
  return expression.replace(/'[^']*'|\b([a-z_]+)\b(?!\s*\()/g, (match, word: string | undefined) => (word === undefined ? match : `${row}.${word}`));
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of ['users_name_sort_index', 'users_created_at_index', 'teams_name_sort_index', 'workspaces_created_at_index', 'workspaces_team_name_index', 'nodes_status_index']) {
    await db.schema.dropIndex(index).ifExists().execute();
  }
  if (dialectOf(db) === 'postgres') {
    for (const [table, expressions] of Object.entries(SEARCHED)) {
      for (const key of Object.keys(expressions)) await db.schema.dropIndex(`${table}_${key}_trgm`).ifExists().execute();
    }
    await db.schema.dropIndex('activity_log_description_trgm').ifExists().execute();
    return;
  }
  for (const table of [...Object.keys(SEARCHED), 'activity_log']) {
    for (const event of ['insert', 'update', 'delete']) await sql.raw(`drop trigger if exists ${table}_fts_${event}`).execute(db);
    await sql.raw(`drop table if exists ${table}_fts`).execute(db);
  }
  for (const [table, columns] of Object.entries(PREFIXED)) {
    for (const column of columns) await db.schema.dropIndex(`${table}_${column}_lower_index`).ifExists().execute();
  }
}
