import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import { recordActivity } from '../activity/log.js';
import { isUniqueViolation, timestamp } from '../db/database.js';
import { preparedQuery } from '../db/prepared.js';
import type { AccessToken, Database, TokenKind, User } from '../db/schema.js';
import { fieldError } from '../http/errors.js';
import { MAX_ID } from '../http/schemas.js';

// Access tokens in Sanctum's format `ID|SECRET`: the id finds the row, the secret proves
// possession. Only a SHA-256 of the secret is stored, so a database leak yields no tokens.

export const SESSION_LIFETIME_DAYS = 30;
/** last_used_at is written at most this often per token, to keep reads from writing. */
const LAST_USED_RESOLUTION_MS = 60_000;
const DAY_MS = 24 * 60 * 60 * 1000;

export const DUPLICATE_TOKEN_NAME = 'You already have a token with this name.';

export interface IssuedToken {
  token: AccessToken;
  /** `ID|SECRET`; shown to its owner once and never stored. */
  plainText: string;
}

export interface Authenticated {
  user: User;
  token: AccessToken;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

function daysFromNow(days: number, now = new Date()): Date {
  return new Date(now.getTime() + days * DAY_MS);
}

export async function issueToken(
  db: Kysely<Database>,
  options: { userId: number; kind: TokenKind; name: string; expiresAt: Date | null; abilities?: string[] },
): Promise<IssuedToken> {
  const secret = randomBytes(32).toString('base64url');
  const token = await db
    .insertInto('access_tokens')
    .values({
      user_id: options.userId,
      kind: options.kind,
      name: options.name,
      token_hash: sha256(secret),
      abilities: JSON.stringify(options.abilities ?? ['*']),
      last_used_at: null,
      expires_at: options.expiresAt ? timestamp(options.expiresAt) : null,
      created_at: timestamp(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { token, plainText: `${token.id}|${secret}` };
}

/** A login session: a token of kind `session`, valid 30 days, not listed among personal tokens. */
export function issueSession(db: Kysely<Database>, userId: number): Promise<IssuedToken> {
  return issueToken(db, { userId, kind: 'session', name: 'login', expiresAt: daysFromNow(SESSION_LIFETIME_DAYS) });
}

/** The token and its user in one query: this runs before every authenticated request. */
const tokenWithUser = preparedQuery((db, id: number) =>
  db
    .selectFrom('access_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .selectAll('u')
    .select([
      't.id as token_id',
      't.kind as token_kind',
      't.name as token_name',
      't.token_hash',
      't.abilities as token_abilities',
      't.last_used_at as token_last_used_at',
      't.expires_at as token_expires_at',
      't.created_at as token_created_at',
    ])
    .where('t.id', '=', id),
);

/**
 * The user and token behind `ID|SECRET`, or null when the token is malformed, unknown,
 * revoked, expired, or belongs to a disabled user.
 */
export async function authenticateToken(
  db: Kysely<Database>,
  plainText: string,
  now = new Date(),
): Promise<Authenticated | null> {
  const match = /^(\d{1,15})\|([A-Za-z0-9_-]{1,200})$/.exec(plainText);
  if (!match) return null;
  const [, id, secret] = match;
  // Ids are PostgreSQL integers: a larger one names no token (and would fail the query there).
  if (Number(id) > MAX_ID) return null;

  const row = await tokenWithUser.first(db, Number(id));
  if (!row || !sameHash(row.token_hash, sha256(secret))) return null;
  if (row.token_expires_at !== null && row.token_expires_at <= timestamp(now)) return null;
  if (!row.enabled) return null;
  const { token_id, token_kind, token_name, token_hash, token_abilities, token_last_used_at, token_expires_at, token_created_at, ...user } = row;
  const token: AccessToken = {
    id: token_id,
    user_id: user.id,
    kind: token_kind,
    name: token_name,
    token_hash,
    abilities: token_abilities,
    last_used_at: token_last_used_at,
    expires_at: token_expires_at,
    created_at: token_created_at,
  };

  if (token.last_used_at === null || Date.parse(token.last_used_at) <= now.getTime() - LAST_USED_RESOLUTION_MS) {
    token.last_used_at = timestamp(now);
    await db.updateTable('access_tokens').set({ last_used_at: token.last_used_at }).where('id', '=', token.id).execute();
  }
  return { user, token };
}

function sameHash(storedHex: string, candidateHex: string): boolean {
  const stored = Buffer.from(storedHex, 'hex');
  const candidate = Buffer.from(candidateHex, 'hex');
  return stored.length === candidate.length && timingSafeEqual(stored, candidate);
}

export async function revokeToken(db: Kysely<Database>, tokenId: number): Promise<void> {
  await db.deleteFrom('access_tokens').where('id', '=', tokenId).execute();
}

/**
 * Ends every login session and personal access token of a user (a password reset: whoever
 * knew the old password may have made tokens with it). Answers how many of each kind ended.
 */
export async function revokeAllTokens(db: Kysely<Database>, userId: number): Promise<{ sessions: number; personal: number }> {
  const revoked = await db.deleteFrom('access_tokens').where('user_id', '=', userId).returning('kind').execute();
  return {
    sessions: revoked.filter((token) => token.kind === 'session').length,
    personal: revoked.filter((token) => token.kind === 'personal').length,
  };
}

const personalTokensOf = preparedQuery((db, userId: number) =>
  db.selectFrom('access_tokens').selectAll().where('user_id', '=', userId).where('kind', '=', 'personal').orderBy('id'),
);

/** A user's personal tokens, oldest first (built once: the tokens page asks on every visit). */
export function listPersonalTokens(db: Kysely<Database>, userId: number): Promise<AccessToken[]> {
  return personalTokensOf.all(db, userId);
}

export interface PersonalTokenRequest {
  name: string;
  /** Replace an existing token of the same name instead of refusing. */
  overwrite: boolean;
  /** null = never expires. */
  expiresInDays: number | null;
}

/**
 * Creates a personal access token. A name already in use is refused (422 on `name`) unless
 * `overwrite` is set, in which case the old token is revoked in the same transaction.
 */
export async function createPersonalToken(
  db: Kysely<Database>,
  user: User,
  request: PersonalTokenRequest,
): Promise<IssuedToken> {
  try {
    return await db.transaction().execute(async (trx) => {
      const existing = await trx
        .selectFrom('access_tokens')
        .select('id')
        .where('user_id', '=', user.id)
        .where('kind', '=', 'personal')
        .where('name', '=', request.name)
        .executeTakeFirst();
      if (existing && !request.overwrite) throw fieldError('name', DUPLICATE_TOKEN_NAME);
      if (existing) await revokeToken(trx, existing.id);

      const issued = await issueToken(trx, {
        userId: user.id,
        kind: 'personal',
        name: request.name,
        expiresAt: request.expiresInDays === null ? null : daysFromNow(request.expiresInDays),
      });
      await recordActivity(trx, {
        causerId: user.id,
        description: 'token created',
        subject: { type: 'access_token', id: issued.token.id },
        properties: { name: request.name, expires_at: issued.token.expires_at, replaced: Boolean(existing) },
      });
      return issued;
    });
  } catch (error) {
    // Two requests raced for the same name; the unique index kept one.
    if (isUniqueViolation(error)) throw fieldError('name', DUPLICATE_TOKEN_NAME);
    throw error;
  }
}

/** Deletes the caller's personal token of that name; false when there is none. */
export async function deletePersonalToken(db: Kysely<Database>, user: User, name: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const token = await trx
      .deleteFrom('access_tokens')
      .where('user_id', '=', user.id)
      .where('kind', '=', 'personal')
      .where('name', '=', name)
      .returning(['id'])
      .executeTakeFirst();
    if (!token) return false;
    await recordActivity(trx, {
      causerId: user.id,
      description: 'token deleted',
      subject: { type: 'access_token', id: token.id },
      properties: { name },
    });
    return true;
  });
}

export function presentToken(token: AccessToken) {
  return {
    id: token.id,
    name: token.name,
    abilities: JSON.parse(token.abilities) as string[],
    created_at: token.created_at,
    expires_at: token.expires_at,
    last_used_at: token.last_used_at,
  };
}
