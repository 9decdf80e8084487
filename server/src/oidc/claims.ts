import type { IDToken } from 'openid-client';
import { emailField, isSingleLine, lineText, MAX_TEXT_LENGTH } from '../http/schemas.js';

// What an account takes from a provider's claims, under the rules a registration form's fields
// follow (http/schemas.ts): one line, no control characters, at most 255 characters, the email
// rule. A provider is a third party: its claims are input like any other.
//
// - The email must pass registration's rule (emailField) and, stricter, have a domain with a dot
//   (`a@b` is refused): it is where the account's mails go. A bad one is refused, never repaired.
// - Names are cleaned, not refused: the person cannot correct them at their institution, and the
//   profile form lets them change them afterwards. Line breaks and other whitespace become one
//   space, the other control characters are removed; the result is trimmed and cut to 255.

export type ClaimEmail = { email: string } | { problem: 'no_email' | 'invalid_email' };

const DOMAIN_WITH_DOT = /^[^@\s]+@[^@\s]+\.[^@\s.]+$/;

const text = (claims: IDToken, name: string): string | null => {
  const value = claims[name];
  return typeof value === 'string' ? value : null;
};

/** The claims' email under the registration rule (lowercased), or why there is none. */
export function claimEmail(claims: IDToken): ClaimEmail {
  const raw = text(claims, 'email');
  if (raw === null || raw.trim() === '') return { problem: 'no_email' };
  const parsed = emailField().safeParse(raw);
  if (!parsed.success || !DOMAIN_WITH_DOT.test(parsed.data)) return { problem: 'invalid_email' };
  return { email: parsed.data };
}

/** A name from a claim: one line without control characters, trimmed, at most `max` characters. */
export function cleanName(value: string | null | undefined, max = MAX_TEXT_LENGTH): string {
  if (typeof value !== 'string') return '';
  // Line breaks, tabs and the other spaces (the Unicode line separators too) become one space;
  // the other control characters (\p{Cc}, what isSingleLine refuses: ESC, NUL, DEL…) go.
  const cleaned = value.replace(/\s+/gu, ' ').replace(/\p{Cc}/gu, '').replace(/ {2,}/g, ' ').trim();
  // At most `max` UTF-16 units (the length registration counts), never splitting a surrogate pair.
  let cut = '';
  for (const character of cleaned) {
    if (cut.length + character.length > max) break;
    cut += character;
  }
  cut = cut.trim();
  // What registration would accept for the same field.
  return isSingleLine(cut) && lineText('name', max).safeParse(cut).success ? cut : '';
}

/** firstname and lastname for an account made from the claims (the email's local part if no name). */
export function claimNames(claims: IDToken, email: string): { firstname: string; lastname: string } {
  const firstname = cleanName(text(claims, 'given_name')) || cleanName(text(claims, 'name')) || cleanName(email.split('@')[0]);
  return { firstname, lastname: cleanName(text(claims, 'family_name')) };
}
