import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as en from '@zxcvbn-ts/language-en';

// zxcvbn with its dictionaries: about a megabyte of word lists. Only ever loaded through
// loadPasswordStrength() (a dynamic import), so the login page's bundle does not carry it.
// The same options as the server's (server/src/auth/passwordStrength.ts), so both judge alike.

/** As the server's ZXCVBN_LIMITS (server/src/auth/passwordStrength.ts): only the first 32 characters are judged. */
export const ZXCVBN_LIMITS = { maxLength: 32, l33tMaxSubstitutions: 8 };

const factory = new ZxcvbnFactory({
  translations: en.translations,
  graphs: common.adjacencyGraphs,
  dictionary: { ...common.dictionary, ...en.dictionary },
  ...ZXCVBN_LIMITS,
});

export interface StrengthResult {
  /** 0 (guessable at once) … 4 (very unguessable). */
  score: 0 | 1 | 2 | 3 | 4;
  /** zxcvbn's warning and suggestions, in English, '' when it has none. */
  feedback: string;
}

export function judgePassword(password: string, userInputs: string[]): StrengthResult {
  // As the server: a long input's judged prefix counts too (only maxLength characters are judged).
  const inputs = userInputs.flatMap((word) => (word.length > ZXCVBN_LIMITS.maxLength ? [word, word.slice(0, ZXCVBN_LIMITS.maxLength)] : [word]));
  const result = factory.check(password, inputs);
  const { warning, suggestions } = result.feedback;
  return { score: result.score, feedback: [warning, ...suggestions].filter(Boolean).join(' ') };
}
