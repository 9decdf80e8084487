import type { Kysely } from 'kysely';

// The platform admins' dashboard (docs/api-contract.md, "Admin: dashboard"). Additive only.
// "Who was active in the last day, week or month" reads two windows by time, and the users
// list's `filter[active_within_days]` the same: without these indexes each would read every
// access token and the whole activity log.
// - `access_tokens (last_used_at, user_id)`: the tokens used since a time, and by whom, from
//   the index alone.
// - `activity_log (description, created_at, causer_id)`: the sign-ins and sign-outs since a
//   time, and by whom, without touching the rest of the log.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('access_tokens_last_used_index').on('access_tokens').columns(['last_used_at', 'user_id']).execute();
  await db.schema
    .createIndex('activity_log_description_created_index')
    .on('activity_log')
    .columns(['description', 'created_at', 'causer_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('activity_log_description_created_index').execute();
  await db.schema.dropIndex('access_tokens_last_used_index').execute();
}
