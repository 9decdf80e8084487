import type { CreateTableBuilder, Kysely } from 'kysely';
import { dialectOf } from '../database.js';

/**
 * `create table <name>` with an auto-incrementing integer primary key `id`, written the way
 * each database wants it: `serial` on PostgreSQL, `integer … autoincrement` on SQLite
 * (autoincrement so ids of deleted rows are never reused).
 */
export function createTableWithId(db: Kysely<any>, table: string): CreateTableBuilder<string, 'id'> {
  const builder = db.schema.createTable(table);
  return dialectOf(db) === 'postgres'
    ? builder.addColumn('id', 'serial', (column) => column.primaryKey())
    : builder.addColumn('id', 'integer', (column) => column.primaryKey().autoIncrement());
}
