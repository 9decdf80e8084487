import { recordActivity } from '../activity/log.js';
import type { AppContext } from '../context.js';
import type { User } from '../db/schema.js';
import { createUser } from '../users/users.js';
import { sendVerificationLink } from './verification.js';

export const REGISTERED =
  'Thanks for registering! We have emailed you a link to verify your email address; it may take a few minutes to arrive.';
export const VERIFICATION_SENT = 'A new verification link has been sent to your email address.';
export const ALREADY_VERIFIED = 'Your email address is already verified.';

/** Creates the account and mails the verification link. Does not log in. */
export async function registerUser(
  context: AppContext,
  input: { firstname: string; lastname: string; email: string; password: string },
): Promise<User> {
  const user = await createUser(context.db, input);
  await recordActivity(context.db, { causerId: user.id, description: 'registered', subject: { type: 'user', id: user.id } });
  context.tasks.run('verification mail', () => sendVerificationLink(context, user));
  return user;
}

/** Mails a fresh verification link; false (and no mail) when the address is already verified. */
export async function resendVerificationLink(context: AppContext, user: User): Promise<boolean> {
  if (user.email_verified_at) return false;
  await recordActivity(context.db, {
    causerId: user.id,
    description: 'verification resent',
    subject: { type: 'user', id: user.id },
  });
  context.tasks.run('verification mail', () => sendVerificationLink(context, user));
  return true;
}
