import type { Validator } from 'react-admin';
import type { StrengthResult } from './zxcvbn';
import { currentLocale } from '../i18n/locale';

// Password strength in the forms where a password is chosen (registration, reset): a meter
// while typing and a validator refusing what the server would refuse (score below 3, docs/
// api-contract.md). zxcvbn and its dictionaries load on first use only.

/** The server refuses scores below this (server/src/auth/passwordStrength.ts). */
export const MIN_PASSWORD_SCORE = 3;
/** The server judges strength only from this length on (shorter is refused for its length). */
export const MIN_PASSWORD_LENGTH = 8;

let zxcvbn: Promise<typeof import('./zxcvbn')> | undefined;
/** The zxcvbn module, imported once, lazily (its own chunk in the build). */
export const loadPasswordStrength = () => (zxcvbn ??= import('./zxcvbn'));

/**
 * The words of a person's email and names, as the server passes them to zxcvbn: whole
 * values, the email's local part, and each part split at spaces, dots, @, + and dashes.
 */
export function personalWords(person: { email?: unknown; firstname?: unknown; lastname?: unknown }): string[] {
  const words = new Set<string>();
  for (const value of [person.email, person.firstname, person.lastname]) {
    if (typeof value !== 'string') continue;
    const text = value.trim().toLowerCase();
    if (!text) continue;
    words.add(text);
    words.add(text.split('@')[0]);
    for (const part of text.split(/[\s@._+-]+/)) if (part.length > 1) words.add(part);
  }
  return [...words];
}

export async function judgePassword(password: string, person: Record<string, unknown> = {}): Promise<StrengthResult> {
  const { judgePassword: judge } = await loadPasswordStrength();
  // zxcvbn's advice in the console's language.
  return judge(password, personalWords(person), currentLocale());
}

/**
 * Refuses a password zxcvbn scores below 3, with its feedback, before the server does; the
 * other values of the form (email, firstname, lastname) count as the person's own words.
 */
export const strongPassword: Validator = async (value, allValues) => {
  if (typeof value !== 'string' || value.length < MIN_PASSWORD_LENGTH) return undefined;
  const { score, feedback } = await judgePassword(value, allValues ?? {});
  if (score >= MIN_PASSWORD_SCORE) return undefined;
  return { message: 'auth.password_strength.too_weak', args: { feedback } };
};
