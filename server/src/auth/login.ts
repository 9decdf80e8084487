import type { Kysely } from 'kysely';
import { recordActivity } from '../activity/log.js';
import type { AccessToken, Database, User } from '../db/schema.js';
import { fieldError, tooManyAttempts } from '../http/errors.js';
import type { FailureCounter } from '../http/rateLimit.js';
import { issueSession, revokeToken } from '../tokens/tokens.js';
import { findUserByEmail } from '../users/users.js';
import { verifyAgainstDecoy, verifyPassword } from './passwords.js';

export const INVALID_CREDENTIALS = 'These credentials do not match our records.';
export const ACCOUNT_DISABLED = 'This account is disabled.';

export interface LoginAttempt {
  email: string;
  password: string;
  /** The client address, for throttling and the audit trail. */
  ip: string;
}

/**
 * Checks the credentials and opens a session; returns its `ID|SECRET` token. Failures are
 * a 422 on `email` (the same for an unknown address and a wrong password), are recorded as
 * warnings, and after too many for the same email and address, a 429.
 */
export async function logIn(
  db: Kysely<Database>,
  failures: FailureCounter | null,
  attempt: LoginAttempt,
): Promise<string> {
  const throttleKey = `${attempt.email}|${attempt.ip}`;
  const retryAfter = failures?.retryAfterSeconds(throttleKey) ?? 0;
  if (retryAfter > 0) throw tooManyAttempts(retryAfter);

  const user = await findUserByEmail(db, attempt.email);
  const passwordMatches = user
    ? await verifyPassword(user.password_hash, attempt.password)
    : await verifyAgainstDecoy(attempt.password);

  if (!user || !passwordMatches || !user.enabled) {
    failures?.recordFailure(throttleKey);
    const reason = !user ? 'unknown email' : !passwordMatches ? 'wrong password' : 'account disabled';
    await recordActivity(db, {
      causerId: user?.id ?? null,
      description: 'failed login',
      subject: user ? { type: 'user', id: user.id } : null,
      severity: 'warning',
      properties: { email: attempt.email, ip: attempt.ip, reason },
    });
    // Only someone who knows the password learns that the account is disabled.
    throw fieldError('email', user && passwordMatches ? ACCOUNT_DISABLED : INVALID_CREDENTIALS);
  }

  failures?.clear(throttleKey);
  const session = await issueSession(db, user.id);
  await recordActivity(db, {
    causerId: user.id,
    description: 'logged in',
    subject: { type: 'user', id: user.id },
    properties: { ip: attempt.ip },
  });
  return session.plainText;
}

/** Revokes the token the request came with. */
export async function logOut(db: Kysely<Database>, user: User, token: AccessToken): Promise<void> {
  await revokeToken(db, token.id);
  await recordActivity(db, { causerId: user.id, description: 'logged out', subject: { type: 'user', id: user.id } });
}
