import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as en from '@zxcvbn-ts/language-en';
// French feedback: the French package's translations only, not its dictionaries, so
// the score stays the server's.
import frenchTranslations from '@zxcvbn-ts/language-fr/dist/translations';

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

/** zxcvbn's English warnings and suggestions → the French package's (same keys). */
const toFrench = new Map<string, string>(
  (['warnings', 'suggestions'] as const).flatMap((kind) =>
    Object.entries(en.translations[kind] as Record<string, string>).flatMap(([key, english]) => {
      const french = (frenchTranslations[kind] as Record<string, string>)[key];
      return french ? [[english, french] as [string, string]] : [];
    }),
  ),
);

export interface StrengthResult {
  /** 0 (guessable at once) … 4 (very unguessable). */
  score: 0 | 1 | 2 | 3 | 4;
  /** zxcvbn's warning and suggestions, in the console's language, '' when it has none. */
  feedback: string;
}

/** `locale`: the language of the feedback (the score does not depend on it). */
export function judgePassword(password: string, userInputs: string[], locale: 'en' | 'fr' = 'en'): StrengthResult {
  // As the server: a long input's judged prefix counts too (only maxLength characters are judged).
  const inputs = userInputs.flatMap((word) => (word.length > ZXCVBN_LIMITS.maxLength ? [word, word.slice(0, ZXCVBN_LIMITS.maxLength)] : [word]));
  const result = factory.check(password, inputs);
  const { warning, suggestions } = result.feedback;
  const inLanguage = (text: string | null) => (text && locale === 'fr' ? (toFrench.get(text) ?? text) : text);
  return { score: result.score, feedback: [inLanguage(warning), ...suggestions.map(inLanguage)].filter(Boolean).join(' ') };
}
