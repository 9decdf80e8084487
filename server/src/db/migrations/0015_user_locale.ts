import type { Kysely } from 'kysely';

// French: the language a user chose for the console and their mails ('en' or 'fr'; PATCH
// /user {locale}). Null: not chosen yet (mails then follow the request that caused them, at
// registration, or English). Additive only.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('locale', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('locale').execute();
}
