import { type Kysely, type MigrationResult, Migrator, sql } from 'kysely';
import { dialectOf } from './database.js';
import { migrations } from './migrations/index.js';

/**
 * Brings the schema up to date. Migrations are imported statically (no directory scan), so
 * they work the same under tsx, in tests and in a bundle. Returns the names just applied.
 */
export async function migrate(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    // On PostgreSQL, Kysely looks for its bookkeeping tables in every schema unless told
    // which one; name the current one, so databases that share a server (one schema per
    // test file, say) each keep their own.
    migrationTableSchema: dialectOf(db) === 'postgres' ? await currentSchema(db) : undefined,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((result: MigrationResult) => result.status === 'Error');
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${errorMessage(error)}`, { cause: error });
  }
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
}

async function currentSchema(db: Kysely<any>): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return rows[0].schema;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
