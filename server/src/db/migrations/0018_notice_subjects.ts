import type { Kysely } from 'kysely';

// The lifecycle pass looks up which warnings it already sent for the workspaces and teams near
// their end (lifecycle/due.ts, `recorded`: by subject type, ids and from a date). The unique
// index of 0017 starts with the kind, so that lookup read all of `lifecycle_notices`, a table
// that only grows (every warning ever sent stays, as the record that it was sent): with ten
// years of notices for 10,000 workspaces the pass spent ten times the CPU it spends with one
// (docs/benchmarks.md). Additive only.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('lifecycle_notices_subject_index').on('lifecycle_notices').columns(['subject_type', 'subject_id', 'due_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('lifecycle_notices_subject_index').execute();
}
