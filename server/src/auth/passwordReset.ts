import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { recordActivity } from '../activity/log.js';
import type { AppContext } from '../context.js';
import { timestamp } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import { passwordResetMail } from '../mail/templates.js';
import { revokeSessions } from '../tokens/tokens.js';
import { findUserByEmail, setPasswordHash } from '../users/users.js';
import { hashPassword } from './passwords.js';

// Password reset links: APP_URL/password/reset/{user id}/{token}, where the token is random,
// single-use, valid 60 minutes, and stored only as a SHA-256. A new link replaces the
// user's unused ones. The link is only ever mailed, never returned by the API.

export const PASSWORD_RESET_MINUTES = 60;
export const INVALID_RESET_LINK = 'This password reset link is invalid or has expired.';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/**
 * Mails a reset link when the address belongs to an enabled account, and does nothing
 * otherwise; the caller answers the same either way.
 */
export async function sendPasswordResetLink(context: AppContext, email: string, now = new Date()): Promise<void> {
  const { db, config, mailer } = context;
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
  });

  const mail = passwordResetMail({
    firstname: user.firstname,
    link: `${config.appUrl}/password/reset/${user.id}/${token}`,
    validMinutes: PASSWORD_RESET_MINUTES,
  });
  await mailer.send({ to: user.email, ...mail });
}

/**
 * Sets a new password through a reset link, uses the link up and ends every login session of
 * the user, all in one transaction. An unknown, used or expired link is a 403.
 */
export async function resetPassword(
  db: Kysely<Database>,
  link: { userId: string; token: string },
  password: string,
  now = new Date(),
): Promise<void> {
  const invalid = new HttpError(403, INVALID_RESET_LINK);
  if (!/^\d{1,15}$/.test(link.userId) || !/^[A-Za-z0-9_-]{1,200}$/.test(link.token)) throw invalid;
  const userId = Number(link.userId);
  const usableLink = db
    .selectFrom('password_resets')
    .select('id')
    .where('user_id', '=', userId)
    .where('token_hash', '=', sha256(link.token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', timestamp(now));
  if (!(await usableLink.executeTakeFirst())) throw invalid;

  // Hashing takes a while; do it before the transaction rather than hold the database.
  const passwordHash = await hashPassword(password);
  await db.transaction().execute(async (trx) => {
    // Marking the link used is the claim: of two concurrent uses, only one updates the row.
    const claimed = await trx
      .updateTable('password_resets')
      .set({ used_at: timestamp(now) })
      .where('user_id', '=', userId)
      .where('token_hash', '=', sha256(link.token))
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (claimed.numUpdatedRows !== 1n) throw invalid;

    await setPasswordHash(trx, userId, passwordHash);
    await revokeSessions(trx, userId);
    await recordActivity(trx, { causerId: userId, description: 'password reset', subject: { type: 'user', id: userId } });
  });
}
