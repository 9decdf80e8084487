import { createRequire } from 'node:module';
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { z } from 'zod';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../http/schemas.js';

// Password strength as zxcvbn judges it: an estimate of how many guesses an attacker with
// the common password lists, English dictionaries, keyboard patterns and the person's own
// names would need. Length alone (NIST 800-63B's minimum of 8, no composition rules) lets
// `password` and `12345678` through; the estimate does not.

/** zxcvbn's scale is 0..4; 3 means "safely unguessable" (about 10^8 guesses and more). */
export const MIN_PASSWORD_SCORE = 3;
export const WEAK_PASSWORD = 'The password is too easy to guess.';

/**
 * zxcvbn's matching grows steeply with length and with l33t substitutions: with its defaults
 * (256 characters, 100 substitutions) one long password held the event loop for seconds, a
 * denial of service through POST /register. Only the first 32 characters are judged (a longer
 * password is long enough that its tail only adds strength) with few substitution variants:
 * tens of milliseconds at worst. The console uses the same limits, so both judge alike.
 */
export const ZXCVBN_LIMITS = { maxLength: 32, l33tMaxSubstitutions: 8 };

// The dictionaries take some 40 MB once loaded and building the ranked dictionaries a few hundred
// milliseconds, so both happen once per process, on first use: a server nobody has registered with
// or reset a password on since it started does not hold them (the idle memory goal of
// docs/benchmarks.md), nor does the CLI. They are loaded synchronously (their CommonJS builds)
// because zod's refinements, which judge passwords, are synchronous.
const require = createRequire(import.meta.url);
let factory: ZxcvbnFactory | undefined;
function zxcvbn(): ZxcvbnFactory {
  if (factory) return factory;
  const common = require('@zxcvbn-ts/language-common') as typeof import('@zxcvbn-ts/language-common');
  const en = require('@zxcvbn-ts/language-en') as typeof import('@zxcvbn-ts/language-en');
  factory = new ZxcvbnFactory({
    translations: en.translations,
    graphs: common.adjacencyGraphs,
    dictionary: { ...common.dictionary, ...en.dictionary },
    ...ZXCVBN_LIMITS,
  });
  return factory;
}

/**
 * The words of a person's email and names, for zxcvbn's user inputs: it matches whole
 * entries only, so `ada.lovelace@example.org` also gives `ada.lovelace`, `ada` and `lovelace`.
 */
export function personalWords(person: { email?: unknown; firstname?: unknown; lastname?: unknown }): string[] {
  const words = new Set<string>();
  for (const value of [person.email, person.firstname, person.lastname]) {
    if (typeof value !== 'string') continue;
    const text = value.trim().toLowerCase();
    if (!text) continue;
    words.add(text);
    const local = text.split('@')[0];
    words.add(local);
    for (const part of text.split(/[\s@._+-]+/)) if (part.length > 1) words.add(part);
  }
  return [...words];
}

/**
 * Only the password's first ZXCVBN_LIMITS.maxLength characters are judged, so a long email used
 * as the password would no longer match the whole email: the inputs' prefixes of that length
 * are words an attacker would try too.
 */
export function withJudgedPrefixes(userInputs: string[]): string[] {
  const max = ZXCVBN_LIMITS.maxLength;
  return userInputs.flatMap((word) => (word.length > max ? [word, word.slice(0, max)] : [word]));
}

/**
 * null when the password is strong enough; otherwise the field message: why it is weak and
 * how to do better, in zxcvbn's words (its warning and suggestions).
 */
export function weakPasswordMessage(password: string, userInputs: string[] = []): string | null {
  const result = zxcvbn().check(password, withJudgedPrefixes(userInputs));
  if (result.score >= MIN_PASSWORD_SCORE) return null;
  const { warning, suggestions } = result.feedback;
  return [WEAK_PASSWORD, warning, ...suggestions].filter(Boolean).join(' ');
}

/**
 * Strength of a password being chosen, judged by zxcvbn against common passwords and the
 * person's own email and names (a password made of them scores low), for object schemas with
 * `password` and the person's `email`, `firstname`, `lastname`: `.check(strongPassword())`.
 * The message goes on `password`, next to the other messages of the body (so it runs even
 * when another field is wrong); a password already refused for its length is not judged.
 */
export const strongPassword = <T extends { password: string }>() =>
  z.superRefine<T>(
    (body, ctx) => {
      const message = weakPasswordMessage(body.password, personalWords(body as Record<string, unknown>));
      if (message) ctx.addIssue({ code: 'custom', path: ['password'], message, input: body.password });
    },
    {
      when: (payload) => {
        const password = (payload.value as { password?: unknown } | undefined)?.password;
        return typeof password === 'string' && password.length >= MIN_PASSWORD_LENGTH && password.length <= MAX_PASSWORD_LENGTH;
      },
    },
  );
