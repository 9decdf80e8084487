import type { Kysely } from 'kysely';

// Rate limit counters (http/throttle.ts), kept in the database rather than in memory so that
// several server processes on one database share them. One row per throttle key and fixed
// window: `hits` attempts reserved since the window opened, the window ends at `resets_at`.
// Additive only.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('throttles')
    .addColumn('key', 'text', (column) => column.primaryKey())
    .addColumn('hits', 'integer', (column) => column.notNull())
    .addColumn('resets_at', 'text', (column) => column.notNull())
    .execute();
  // The sweep of ended windows deletes by resets_at.
  await db.schema.createIndex('throttles_resets_at_index').on('throttles').column('resets_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('throttles').execute();
}
