import type { Kysely } from 'kysely';

// GET /api/requests at scale (100,000 users): the list is ordered by created_at then id, with or
// without a status filter, and paged with limit/offset. These indexes let both databases
// walk the rows in that order instead of sorting every match. Additive only.

export async function up(db: Kysely<any>): Promise<void> {
  // The platform admins' view: every request, newest (or oldest) first.
  await db.schema.createIndex('requests_created_index').on('requests').columns(['created_at', 'id']).execute();
  // The default view: Pending (or another status) first by date. 0002's (status, type,
  // created_at) only serves a type filter together with the status.
  await db.schema.createIndex('requests_status_created_index').on('requests').columns(['status', 'created_at', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('requests_status_created_index').execute();
  await db.schema.dropIndex('requests_created_index').execute();
}
