import type { Kysely } from 'kysely';
import { recordActivity } from '../activity/log.js';
import { hashPassword } from './passwords.js';
import { isUniqueViolation, timestamp } from '../db/database.js';
import type { Database, User } from '../db/schema.js';
import { fieldError } from '../http/errors.js';

export const EMAIL_TAKEN = 'The email has already been taken.';

/** Emails are compared and stored trimmed and lowercased. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export interface NewAccount {
  firstname: string;
  lastname: string;
  email: string;
  password: string;
  admin?: boolean;
  /** Marks the email verified and the policy accepted (accounts made by an operator). */
  verified?: boolean;
  /** When it happens (the app's clock); default: now. */
  now?: Date;
}

/** Creates a user; an email already in use is a 422 on `email`. */
export async function createUser(db: Kysely<Database>, account: NewAccount): Promise<User> {
  const email = normalizeEmail(account.email);
  if (await findUserByEmail(db, email)) throw fieldError('email', EMAIL_TAKEN);
  const now = timestamp(account.now);
  try {
    return await db
      .insertInto('users')
      .values({
        firstname: account.firstname,
        lastname: account.lastname,
        email,
        password_hash: await hashPassword(account.password),
        email_verified_at: account.verified ? now : null,
        aup_accepted_at: account.verified ? now : null,
        // An operator's account accepts the policy in force (the last version published, if any).
        aup_version_id: account.verified ? (eb) => eb.selectFrom('policy_versions').select((inner) => inner.fn.max('id').as('id')) : null,
        admin: account.admin ? 1 : 0,
        enabled: 1,
        authority: null,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (error) {
    // Someone registered the same address between the check and the insert.
    if (isUniqueViolation(error)) throw fieldError('email', EMAIL_TAKEN);
    throw error;
  }
}

export function findUserByEmail(db: Kysely<Database>, email: string): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', normalizeEmail(email)).executeTakeFirst();
}

export function findUserById(db: Kysely<Database>, id: number): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

async function updateUser(db: Kysely<Database>, id: number, changes: Partial<Omit<User, 'id'>>): Promise<User> {
  return db
    .updateTable('users')
    .set({ ...changes, updated_at: timestamp() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateProfile(
  db: Kysely<Database>,
  user: User,
  profile: { firstname?: string; lastname?: string; locale?: string },
): Promise<User> {
  const updated = await updateUser(db, user.id, profile);
  await recordActivity(db, {
    causerId: user.id,
    description: 'profile updated',
    subject: { type: 'user', id: user.id },
  });
  return updated;
}

/** Marks the email verified; the first verification time is kept. */
export async function markEmailVerified(db: Kysely<Database>, user: User): Promise<User> {
  if (user.email_verified_at) return user;
  const updated = await updateUser(db, user.id, { email_verified_at: timestamp() });
  await recordActivity(db, { causerId: user.id, description: 'email verified', subject: { type: 'user', id: user.id } });
  return updated;
}

export function setPasswordHash(db: Kysely<Database>, userId: number, passwordHash: string): Promise<User> {
  return updateUser(db, userId, { password_hash: passwordHash });
}

/** Makes a user a platform admin; undefined when no user has that email. */
export async function promoteToAdmin(db: Kysely<Database>, email: string): Promise<User | undefined> {
  const user = await findUserByEmail(db, email);
  if (!user) return undefined;
  return updateUser(db, user.id, { admin: 1 });
}

export async function platformAdminExists(db: Kysely<Database>): Promise<boolean> {
  const admin = await db.selectFrom('users').select('id').where('admin', '=', 1).limit(1).executeTakeFirst();
  return admin !== undefined;
}

/** What a disabled account is told wherever it tries to get in (login, reset links, sign-in). */
export const ACCOUNT_DISABLED = 'This account is disabled.';
