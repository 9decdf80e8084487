import { recordActivity } from '../activity/log.js';
import type { AppContext } from '../context.js';
import type { User } from '../db/schema.js';
import { applyAfterCommit } from '../effects/afterCommit.js';
import type { Locale } from '../i18n/messages.js';
import { createUser } from '../users/users.js';
import { queueVerificationMail } from './verification.js';

export const REGISTERED =
  'Thanks for registering! We have emailed you a link to verify your email address; it may take a few minutes to arrive.';
export const VERIFICATION_SENT = 'A new verification link has been sent to your email address.';
export const ALREADY_VERIFIED = 'Your email address is already verified.';

/** Creates the account and mails the verification link. Does not log in. */
export async function registerUser(
  context: AppContext,
  input: { firstname: string; lastname: string; email: string; password: string },
  /** The request's language: the verification mail's (a new account has chosen none). */
  locale: Locale = 'en',
): Promise<User> {
  // createUser hashes the password before its insert, so it does not run inside a transaction
  // (on SQLite one would hold the only connection meanwhile). The activity entry and the
  // verification mail (an outbox row) are written right after it, with the same database, in a
  // transaction of their own: the mail is a row before the answer goes out.
  const user = await createUser(context.db, input);
  await context.db.transaction().execute(async (trx) => {
    await recordActivity(trx, { causerId: user.id, description: 'registered', subject: { type: 'user', id: user.id } });
    await queueVerificationMail(trx, context.config, user, new Date(), locale);
  });
  applyAfterCommit(context, { mail: true });
  return user;
}

/** Mails a fresh verification link; false (and no mail) when the address is already verified. */
export async function resendVerificationLink(context: AppContext, user: User, locale: Locale = 'en'): Promise<boolean> {
  if (user.email_verified_at) return false;
  // The activity entry and the mail (an outbox row) in one transaction; sent once committed.
  await context.db.transaction().execute(async (trx) => {
    await recordActivity(trx, {
      causerId: user.id,
      description: 'verification resent',
      subject: { type: 'user', id: user.id },
    });
    await queueVerificationMail(trx, context.config, user, new Date(), locale);
  });
  applyAfterCommit(context, { mail: true });
  return true;
}
