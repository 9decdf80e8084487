import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Config } from '../config/config.js';
import type { Database, User } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import { enqueueMail } from '../mail/outbox.js';
import { type Locale, mailLocale } from '../i18n/messages.js';
import { verificationMail } from '../mail/templates.js';
import { findUserById, markEmailVerified } from '../users/users.js';

// Signed email verification links, as Laravel makes them (docs/api-contract.md):
//   APP_URL/email/verify/{id}/{hash}?expires={unix seconds}&signature={hex}
// hash = SHA-1 of the lowercased email; signature = HMAC-SHA256 with APP_KEY of
// "{id}/{hash}?expires={expires}". Nothing is stored: the signature is the proof.

export const VERIFICATION_LINK_MINUTES = 60;
export const INVALID_VERIFICATION_LINK = 'This verification link is invalid or has expired.';

export const emailHash = (email: string) => createHash('sha1').update(email.toLowerCase()).digest('hex');

const sign = (appKey: string, id: string, hash: string, expires: string) =>
  createHmac('sha256', appKey).update(`${id}/${hash}?expires=${expires}`).digest('hex');

export function verificationLink(
  config: Pick<Config, 'appUrl' | 'appKey'>,
  user: Pick<User, 'id' | 'email'>,
  expiresAt: Date,
): string {
  const id = String(user.id);
  const hash = emailHash(user.email);
  const expires = String(Math.floor(expiresAt.getTime() / 1000));
  const signature = sign(config.appKey, id, hash, expires);
  return `${config.appUrl}/email/verify/${id}/${hash}?expires=${expires}&signature=${signature}`;
}

/**
 * Writes the verification mail to the outbox (mail/outbox.ts): `db` is the caller's
 * transaction (registration.ts), and the caller kicks the outbox once it committed.
 */
export async function queueVerificationMail(
  db: Kysely<Database>,
  config: Pick<Config, 'appUrl' | 'appKey'>,
  user: User,
  now = new Date(),
  /** The mail's language when the user chose none (the request's, at registration). */
  fallbackLocale: Locale = 'en',
): Promise<void> {
  const expiresAt = new Date(now.getTime() + VERIFICATION_LINK_MINUTES * 60_000);
  const mail = verificationMail({
    locale: mailLocale(user, fallbackLocale),
    firstname: user.firstname,
    link: verificationLink(config, user, expiresAt),
    validMinutes: VERIFICATION_LINK_MINUTES,
  });
  await enqueueMail(db, { to: user.email, ...mail });
}

/** The parts of a verification link as they arrive; any of them may have been tampered with. */
export interface VerificationLinkParts {
  id: string;
  hash: string;
  expires?: string;
  signature?: string;
}

/**
 * Verifies the email of the user a link was signed for. A tampered, expired or unknown link
 * is a 403. A link for an already verified address succeeds again.
 */
export async function verifyEmailLink(
  db: Kysely<Database>,
  appKey: string,
  link: VerificationLinkParts,
  now = new Date(),
): Promise<User> {
  const invalid = new HttpError(403, INVALID_VERIFICATION_LINK);
  const { id, hash, expires = '', signature = '' } = link;
  if (!/^\d{1,15}$/.test(id) || !/^[0-9a-f]{40}$/.test(hash) || !/^\d{1,12}$/.test(expires)) throw invalid;
  if (!/^[0-9a-f]{64}$/.test(signature)) throw invalid;

  const expected = Buffer.from(sign(appKey, id, hash, expires), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) throw invalid;
  if (Number(expires) * 1000 <= now.getTime()) throw invalid;

  const user = await findUserById(db, Number(id));
  // The hash ties the link to the address it was sent to.
  if (!user || emailHash(user.email) !== hash) throw invalid;
  return markEmailVerified(db, user);
}
