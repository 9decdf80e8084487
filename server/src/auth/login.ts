import type { Kysely } from 'kysely';
import { recordActivity } from '../activity/log.js';
import type { RateLimit } from '../config/config.js';
import type { AccessToken, Database, User } from '../db/schema.js';
import { fieldError } from '../http/errors.js';
import { reserveEach, type Throttle } from '../http/throttle.js';
import { issueSession, revokeToken } from '../tokens/tokens.js';
import { ACCOUNT_DISABLED, findUserByEmail } from '../users/users.js';
import { verifyAgainstDecoy, verifyPassword } from '../users/passwords.js';

export const INVALID_CREDENTIALS = 'These credentials do not match our records.';

export interface LoginAttempt {
  email: string;
  password: string;
  /** The client address, for throttling and the audit trail. */
  ip: string;
}

/** The login limits (config.rateLimits.login and loginAddress) and where they are counted. */
export interface LoginThrottle {
  throttle: Throttle;
  /** Failed attempts for one account from one address. */
  perAccount: RateLimit;
  /** Failed attempts from one address, whatever the accounts. */
  perAddress: RateLimit;
}

/**
 * The throttle keys of an attempt: email + address, as Laravel Fortify keys its login
 * limiter (one address guessing one account; others on the same address are unaffected),
 * and the address alone (one address trying many accounts).
 */
export const loginThrottleKeys = (attempt: Pick<LoginAttempt, 'email' | 'ip'>) => ({
  account: `login:${attempt.email}|${attempt.ip}`,
  address: `login-address:${attempt.ip}`,
});

/**
 * Checks the credentials and opens a session; returns its `ID|SECRET` token. Failures are
 * a 422 on `email` (the same for an unknown address and a wrong password), are recorded as
 * warnings, and after too many for the same email and address, or from the same address, a
 * 429.
 *
 * The attempt is reserved under both keys before the password is checked (Argon2 takes a
 * while, and concurrent attempts must not all slip in meanwhile); a failure keeps it, a
 * success clears the account's count and gives the address's back, so the address ceiling
 * counts failures only: many people behind one NAT logging in are not slowed down.
 */
export async function logIn(
  db: Kysely<Database>,
  limits: LoginThrottle | null,
  attempt: LoginAttempt,
): Promise<string> {
  const keys = loginThrottleKeys(attempt);
  const reservations = limits
    ? await reserveEach(limits.throttle, [
        [keys.account, limits.perAccount],
        [keys.address, limits.perAddress],
      ])
    : [];

  const user = await findUserByEmail(db, attempt.email);
  const passwordMatches = user
    ? await verifyPassword(user.password_hash, attempt.password)
    : await verifyAgainstDecoy(attempt.password);

  if (!user || !passwordMatches || !user.enabled) {
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

  if (limits) {
    await limits.throttle.clear(keys.account);
    // reserveEach answers the reservations in the order of the keys: account, then address.
    const [, addressReservation] = reservations;
    if (addressReservation) await limits.throttle.release(addressReservation);
  }
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
