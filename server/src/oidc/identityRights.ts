import type { Kysely } from 'kysely';
import type { Database, IdentityOrigin } from '../db/schema.js';
import type { OidcProviderConfig } from '../config/oidcProviders.js';

// What a linked identity, and a sign-in, linking or password reset still in progress, are
// worth once the reason behind them is gone:
// - A password reset is the way back in after a compromise. A stolen password can link the
//   thief's own institutional account (POST /api/identities asks for nothing more), and that
//   link would outlive the reset. So a reset unlinks every identity linked with a password,
//   and keeps the one an institutional sign-in made the account with: that one came before
//   any password and no password could have added it. The owner is told which were removed
//   (mail and console) and links their own again.
// - A reset, and disabling an account, also void what was started before them: the account's
//   unused password reset links (disabling), its linkings in progress and its sign-in codes
//   not yet exchanged.

/** The rule: a password reset unlinks an identity unless the account was made with it. */
export const unlinkedByPasswordReset = (identity: { linked_with: IdentityOrigin }): boolean => identity.linked_with !== 'sign-up';

export interface UnlinkedIdentity {
  provider: string;
  provider_name: string;
  email: string | null;
  subject: string;
}

/** How a mail names an identity: "Test University (grace@uni.example)", or its subject when the provider gave no email. */
export const identityLabel = (identity: Pick<UnlinkedIdentity, 'provider_name' | 'email' | 'subject'>): string =>
  `${identity.provider_name} (${identity.email ?? identity.subject})`;

export const providerName = (providers: readonly OidcProviderConfig[], id: string): string => providers.find((provider) => provider.id === id)?.name ?? id;

/** Inside the reset's transaction: removes the identities the rule unlinks, and answers them. */
export async function unlinkForPasswordReset(trx: Kysely<Database>, userId: number, providers: readonly OidcProviderConfig[]): Promise<UnlinkedIdentity[]> {
  const linked = await trx.selectFrom('identities').selectAll().where('user_id', '=', userId).orderBy('linked_at').orderBy('id').execute();
  const removed = linked.filter(unlinkedByPasswordReset);
  if (removed.length === 0) return [];
  await trx
    .deleteFrom('identities')
    .where('user_id', '=', userId)
    .where('id', 'in', removed.map((identity) => identity.id))
    .execute();
  return removed.map((identity) => ({
    provider: identity.provider,
    provider_name: providerName(providers, identity.provider),
    email: identity.email,
    subject: identity.subject,
  }));
}

export interface VoidedFlows {
  password_resets: number;
  linkings: number;
  sign_in_codes: number;
}

/**
 * Inside the caller's transaction: voids the accounts' unused password reset links (unless
 * `keepResetLinks`), their linkings in progress (oidc_states rows name the user only for a
 * linking; a sign-in in progress names nobody until its callback, which refuses a disabled
 * account) and their sign-in codes not yet exchanged.
 */
export async function voidPendingFlows(trx: Kysely<Database>, userIds: number[], options: { keepResetLinks?: boolean } = {}): Promise<VoidedFlows> {
  if (userIds.length === 0) return { password_resets: 0, linkings: 0, sign_in_codes: 0 };
  const resets = options.keepResetLinks
    ? null
    : await trx.deleteFrom('password_resets').where('user_id', 'in', userIds).where('used_at', 'is', null).executeTakeFirst();
  const states = await trx.deleteFrom('oidc_states').where('user_id', 'in', userIds).executeTakeFirst();
  const codes = await trx.deleteFrom('oidc_codes').where('user_id', 'in', userIds).where('used_at', 'is', null).executeTakeFirst();
  return {
    password_resets: Number(resets?.numDeletedRows ?? 0n),
    linkings: Number(states.numDeletedRows),
    sign_in_codes: Number(codes.numDeletedRows),
  };
}

/**
 * At the end of a linking started at `startedAt`: whether the account may still take the
 * identity. Not once it is disabled, nor once its password was reset after the linking began
 * (the reset voids linkings in progress; this closes the race with one already past its state).
 */
export async function linkingStillAllowed(db: Kysely<Database>, userId: number, startedAt: string): Promise<'ok' | 'disabled' | 'reset'> {
  const user = await db.selectFrom('users').select('enabled').where('id', '=', userId).executeTakeFirst();
  if (!user || user.enabled !== 1) return 'disabled';
  const reset = await db
    .selectFrom('password_resets')
    .select('id')
    .where('user_id', '=', userId)
    .where('used_at', 'is not', null)
    .where('used_at', '>=', startedAt)
    .executeTakeFirst();
  return reset ? 'reset' : 'ok';
}
