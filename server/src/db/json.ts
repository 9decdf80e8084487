import type { Kysely } from 'kysely';
import { jsonArrayFrom as postgresJsonArrayFrom } from 'kysely/helpers/postgres';
import { jsonArrayFrom as sqliteJsonArrayFrom } from 'kysely/helpers/sqlite';
import { dialectOf } from './database.js';
import type { Database } from './schema.js';

/**
 * Kysely's jsonArrayFrom for the database's dialect (json_group_array on SQLite, json_agg on
 * PostgreSQL): a subquery's rows as one JSON array column, so a page and what it names come
 * in one query. Read the column back with jsonRows.
 */
export function jsonArrayFrom(db: Kysely<Database>): typeof sqliteJsonArrayFrom {
  return dialectOf(db) === 'postgres' ? (postgresJsonArrayFrom as typeof sqliteJsonArrayFrom) : sqliteJsonArrayFrom;
}

/** A jsonArrayFrom column's rows: SQLite answers the array as text, pg parses PostgreSQL's json itself. */
export const jsonRows = <T>(value: unknown): T[] => (typeof value === 'string' ? (JSON.parse(value) as T[]) : ((value as T[] | null) ?? []));
