import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import { dialectOf } from './database.js';
import { PREFIXED, SEARCHED, prefixColumns } from './migrations/0010_search.js';
import type { Database } from './schema.js';

// The admin lists' free-text search, served by the indexes of migration 0010 (docs/api-contract.md,
// "Search"): a query of 3 characters or more finds the rows where any searched column contains
// it, case-insensitively (trigrams: FTS5 on SQLite, pg_trgm on PostgreSQL); trigrams cannot
// serve 1–2 characters, so those find the rows where a searched column starts with them
// (on PostgreSQL, any word of it), through an index as well.

export type SearchedTable = keyof typeof SEARCHED;

/** Queries shorter than this are prefix searches. */
export const TRIGRAM = 3;

const escapeLike = (text: string) => text.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`);
const ESCAPE = sql.raw("'\\'");
/** An FTS5 phrase: q as literal text. */
const phrase = (q: string) => `"${q.replace(/"/g, '""')}"`;

export interface MatchOptions {
  /**
   * SQLite: have the planner walk the list's sort index and test each row against the FTS
   * matches (`+id in (…)`: the unary plus keeps it from driving the query by id), instead of
   * fetching and sorting every match. Cheaper for a page of a query that matches many rows.
   */
  inOrder?: boolean;
}

/**
 * The rows of `table` (seen as `alias`) that match `q`. `q` is trimmed and non-empty (the
 * query schemas trim it; the lists skip empty ones).
 */
export function matches(db: Kysely<Database>, table: SearchedTable, alias: string, q: string, options: MatchOptions = {}): Expression<SqlBool> {
  const length = [...q].length;
  if (dialectOf(db) === 'postgres') {
    const expressions = Object.values(SEARCHED[table]).map((expression) => sql.raw(`(${prefixColumns(expression, alias)})`));
    const patterns = length >= TRIGRAM ? [`%${escapeLike(q)}%`] : [`${escapeLike(q)}%`, `% ${escapeLike(q)}%`];
    const tests = expressions.flatMap((expression) => patterns.map((pattern) => sql<SqlBool>`${expression} ilike ${pattern} escape ${ESCAPE}`));
    return sql<SqlBool>`(${sql.join(tests, sql` or `)})`;
  }
  if (length >= TRIGRAM) {
    // One MATCH over every column of the FTS table; the phrase quotes make q literal text.
    const id = options.inOrder ? sql`+${sql.ref(`${alias}.id`)}` : sql.ref(`${alias}.id`);
    return sql<SqlBool>`${id} in (select rowid from ${sql.table(`${table}_fts`)} where ${sql.table(`${table}_fts`)} match ${phrase(q)})`;
  }
  // A range on the lower(col) indexes is a prefix match the planner serves from the index.
  const low = q.toLowerCase();
  const points = [...low];
  const high = points.slice(0, -1).join('') + String.fromCodePoint(points.at(-1)!.codePointAt(0)! + 1);
  const tests = PREFIXED[table].map((column) => {
    const lowered = sql`lower(${sql.ref(`${alias}.${column}`)})`;
    return sql<SqlBool>`(${lowered} >= ${low} and ${lowered} < ${high})`;
  });
  return sql<SqlBool>`(${sql.join(tests, sql` or `)})`;
}

/**
 * SQLite, q of 3 characters or more: how many rows of `table` match q, counted in its FTS
 * table alone (one row per source row, kept in step by the triggers of migration 0010)
 * rather than by looking up every matching row. Otherwise null: count the list's query.
 */
export async function countMatches(db: Kysely<Database>, table: SearchedTable, q: string): Promise<number | null> {
  if (dialectOf(db) === 'postgres' || [...q].length < TRIGRAM) return null;
  const fts = sql.table(`${table}_fts`);
  const { rows } = await sql<{ total: number }>`select count(*) as total from ${fts} where ${fts} match ${phrase(q)}`.execute(db);
  return Number(rows[0]!.total);
}

/** Activity entries (seen as `alias`) whose description contains q (3 characters or more; indexed). */
export function descriptionMatches(db: Kysely<Database>, alias: string, q: string): Expression<SqlBool> {
  if (dialectOf(db) === 'postgres') return sql<SqlBool>`${sql.ref(`${alias}.description`)} ilike ${`%${escapeLike(q)}%`} escape ${ESCAPE}`;
  return sql<SqlBool>`${sql.ref(`${alias}.id`)} in (select rowid from activity_log_fts where activity_log_fts match ${phrase(q)})`;
}

/**
 * How well `column` answers q, for ordering a picker's matches: 0 when it is q (ignoring
 * case), 1 when it starts with q, 2 otherwise. Someone who types a team's whole name expects
 * that team first, not after every longer name that contains it (and not cut off by the
 * picker's limit). Computed on the rows the search already found, so the indexes still pick
 * the rows and only the matches are ranked. `substr` keeps q literal (no LIKE wildcards) and
 * counts characters on both databases.
 */
export function nameRank(column: string, q: string): Expression<number> {
  const low = q.toLowerCase();
  const lowered = sql`lower(${sql.ref(column)})`;
  return sql<number>`case when ${lowered} = ${low} then 0 when substr(${lowered}, 1, ${[...low].length}) = ${low} then 1 else 2 end`;
}
