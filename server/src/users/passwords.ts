import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

// Argon2id (the library's default algorithm) with its default costs: 19 MiB, 2 passes.

export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    // A malformed stored hash matches nothing.
    return false;
  }
}

let decoyHash: Promise<string> | undefined;

/**
 * Spends the time of a real password check when there is no user to check against, so that
 * a login for an unknown address takes as long as one with a wrong password.
 */
export async function verifyAgainstDecoy(password: string): Promise<false> {
  decoyHash ??= hashPassword(randomBytes(16).toString('hex'));
  await verifyPassword(await decoyHash, password);
  return false;
}
