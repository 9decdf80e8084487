import { type Kysely, sql } from 'kysely';

// How each linked identity came to the account (`identities.linked_with`), because a password
// reset treats them differently (oidc/identityRights.ts):
// - 'sign-up': the identity an institutional sign-in made the account with. A password never
//   could have added it, so a reset keeps it.
// - 'password': linked later from the profile, which asks for the password. Whoever knew the
//   password may have linked one of their own, so a reset unlinks these.
// Existing rows: an identity made with its account has the account's creation time as its
// linked_at (one transaction, one timestamp); every other one was linked with the password.
// Additive only.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('identities')
    .addColumn('linked_with', 'text', (column) => column.notNull().defaultTo('password'))
    .execute();
  await sql`update identities set linked_with = 'sign-up'
    where linked_at = (select users.created_at from users where users.id = identities.user_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('identities').dropColumn('linked_with').execute();
}
