import { createHash, randomBytes } from 'node:crypto';
import { recordActivity } from '../activity/log.js';
import type { AppContext } from '../context.js';
import { timestamp } from '../db/database.js';
import { fieldError, HttpError } from '../http/errors.js';
import { MAX_ID } from '../http/schemas.js';
import { applyAfterCommit } from '../effects/afterCommit.js';
import { enqueueMail } from '../mail/outbox.js';
import { type Locale, mailLocale } from '../i18n/messages.js';
import { passwordChangedMail, passwordResetMail } from '../mail/templates.js';
import { identityLabel, type UnlinkedIdentity, unlinkForPasswordReset, voidPendingFlows } from '../oidc/identityRights.js';
import { revokeAllTokens } from '../tokens/tokens.js';
import { ACCOUNT_DISABLED, findUserByEmail, setPasswordHash } from '../users/users.js';
import { hashPassword } from '../users/passwords.js';
import { personalWords, weakPasswordMessage } from './passwordStrength.js';

// Password reset links: APP_URL/password/reset/{user id}/{token}, where the token is random,
// single-use, valid 60 minutes, and stored only as a SHA-256. A new link replaces the
// user's unused ones. The link is only ever mailed, never returned by the API.

export const PASSWORD_RESET_MINUTES = 60;
export const INVALID_RESET_LINK = 'This password reset link is invalid or has expired.';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/**
 * Mails a reset link when the address belongs to an enabled account, and does nothing
 * otherwise; the caller answers the same either way. The mail is an outbox row written in the
 * transaction that stores the link, sent once it committed.
 */
export async function sendPasswordResetLink(context: AppContext, email: string, now = new Date(), locale: Locale = 'en'): Promise<void> {
  const { db, config } = context;
  const user = await findUserByEmail(db, email);
  if (!user || !user.enabled) return;

  const token = randomBytes(32).toString('base64url');
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('password_resets').where('user_id', '=', user.id).where('used_at', 'is', null).execute();
    await trx
      .insertInto('password_resets')
      .values({
        user_id: user.id,
        token_hash: sha256(token),
        expires_at: timestamp(new Date(now.getTime() + PASSWORD_RESET_MINUTES * 60_000)),
        used_at: null,
        created_at: timestamp(now),
      })
      .execute();
    await recordActivity(trx, {
      causerId: user.id,
      description: 'password reset link requested',
      subject: { type: 'user', id: user.id },
    });
    const mail = passwordResetMail({
      locale: mailLocale(user, locale),
      firstname: user.firstname,
      link: `${config.appUrl}/password/reset/${user.id}/${token}`,
      validMinutes: PASSWORD_RESET_MINUTES,
    });
    await enqueueMail(trx, { to: user.email, ...mail });
  });
  applyAfterCommit(context, { mail: true });
}

/**
 * Sets a new password through a reset link. A reset is the way back in after a compromise, so
 * in the same transaction it uses the link up, revokes every login session and personal
 * access token of the user, unlinks the institutional identities linked with a password, and
 * voids linkings and sign-in codes in progress (whoever knew the old password may have made
 * any of these: oidc/identityRights.ts), and records it all. Once committed, the user's
 * realtime subscriptions are re-checked and a mail tells the owner, naming the identities
 * unlinked; so does the answer. An unknown, used or expired link is a 403, as is a link of a
 * disabled account; a weak password a 422 on `password`.
 */
export async function resetPassword(
  context: AppContext,
  link: { userId: string; token: string },
  password: string,
  now = new Date(),
  /** The mail's language when the user chose none (the request's). */
  locale: Locale = 'en',
): Promise<{ unlinkedIdentities: UnlinkedIdentity[] }> {
  const { db, config } = context;
  const invalid = new HttpError(403, INVALID_RESET_LINK);
  // A user id beyond PostgreSQL's integer range names nobody (and would fail the query there).
  if (!/^\d{1,15}$/.test(link.userId) || Number(link.userId) > MAX_ID || !/^[A-Za-z0-9_-]{1,200}$/.test(link.token)) throw invalid;
  const userId = Number(link.userId);
  const user = await db
    .selectFrom('password_resets')
    .innerJoin('users', 'users.id', 'password_resets.user_id')
    .select(['users.email', 'users.firstname', 'users.lastname', 'users.locale', 'users.enabled'])
    .where('password_resets.user_id', '=', userId)
    .where('password_resets.token_hash', '=', sha256(link.token))
    .where('password_resets.used_at', 'is', null)
    .where('password_resets.expires_at', '>', timestamp(now))
    .executeTakeFirst();
  if (!user) throw invalid;
  // Disabling voids the account's links; this refuses any that escaped it, in plain words.
  if (user.enabled !== 1) throw new HttpError(403, ACCOUNT_DISABLED);

  // Judged here rather than in the body schema: a password made of the person's own email or
  // names must score low, and only the link says whose they are.
  const weak = weakPasswordMessage(password, personalWords(user));
  if (weak) throw fieldError('password', weak);

  // Hashing takes a while; do it before the transaction rather than hold the database.
  const passwordHash = await hashPassword(password);
  const unlinkedIdentities = await db.transaction().execute(async (trx) => {
    // Marking the link used is the claim: of two concurrent uses, only one updates the row
    // (and none once the account was disabled: disabling deletes the row).
    const claimed = await trx
      .updateTable('password_resets')
      .set({ used_at: timestamp(now) })
      .where('user_id', '=', userId)
      .where('token_hash', '=', sha256(link.token))
      .where('used_at', 'is', null)
      .where((eb) => eb.exists(eb.selectFrom('users').select('id').where('id', '=', userId).where('enabled', '=', 1)))
      .executeTakeFirst();
    if (claimed.numUpdatedRows !== 1n) throw invalid;

    await setPasswordHash(trx, userId, passwordHash);
    const tokens = await revokeAllTokens(trx, userId);
    const subject = { type: 'user', id: userId };
    await recordActivity(trx, { causerId: userId, description: 'password reset', subject });
    await recordActivity(trx, {
      causerId: userId,
      description: 'sessions and access tokens revoked',
      subject,
      severity: 'warning',
      properties: { reason: 'password reset', sessions: tokens.sessions, personal_tokens: tokens.personal },
    });
    const unlinked = await unlinkForPasswordReset(trx, userId, config.oidcProviders);
    const voided = await voidPendingFlows(trx, [userId]);
    if (unlinked.length > 0 || voided.linkings > 0 || voided.sign_in_codes > 0) {
      await recordActivity(trx, {
        causerId: userId,
        description: 'identities unlinked',
        subject,
        severity: 'warning',
        properties: {
          reason: 'password reset',
          identities: unlinked.map((identity) => ({ provider: identity.provider, email: identity.email, subject: identity.subject })),
          linkings: voided.linkings,
          sign_in_codes: voided.sign_in_codes,
        },
      });
    }
    // The mail to the owner, an outbox row of this transaction: sent once it committed.
    await enqueueMail(trx, {
      to: user.email,
      ...passwordChangedMail({
        firstname: user.firstname,
        link: config.appUrl,
        revokedTokens: tokens.personal,
        unlinkedIdentities: unlinked.map(identityLabel),
        locale: mailLocale(user, locale),
      }),
    });
    return unlinked;
  });

  // Only after the commit: a subscription re-checked earlier would still find the old tokens.
  applyAfterCommit(context, { rightsChanged: [userId], mail: true });
  return { unlinkedIdentities };
}
