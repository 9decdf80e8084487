// The console's language, without react-admin or messages: small enough for the entry chunk
// (httpClient.ts reads it for Accept-Language). Which language: the user's choice (saved here
// and, once signed in, on the server: PATCH /user {locale}), else the browser's
// (navigator.languages), else English.

export const LOCALES = ['en', 'fr'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

/** Names of the languages, each in its own language (the language menu). */
export const LOCALE_NAMES: Record<Locale, string> = { en: 'English', fr: 'Français' };

/** Local storage key of the language the user chose on this browser. */
export const LOCALE_KEY = 'testbed-console.locale';

export const isLocale = (value: unknown): value is Locale => LOCALES.includes(value as Locale);

/** 'fr-CA' → 'fr'; undefined for a language the console does not speak. */
export const matchLocale = (tag: string | null | undefined): Locale | undefined => {
  const primary = (tag ?? '').trim().toLowerCase().split(/[-_]/)[0];
  return isLocale(primary) ? primary : undefined;
};

/** The first of the browser's languages that the console speaks. */
export const browserLocale = (): Locale | undefined => {
  if (typeof navigator === 'undefined') return undefined;
  const tags = navigator.languages?.length ? navigator.languages : [navigator.language];
  for (const tag of tags) {
    const locale = matchLocale(tag);
    if (locale) return locale;
  }
  return undefined;
};

/** The language chosen on this browser (the language menu, or the account's at sign-in). */
export const chosenLocale = (): Locale | undefined => {
  try {
    const value = window.localStorage.getItem(LOCALE_KEY);
    return isLocale(value) ? value : undefined;
  } catch {
    return undefined;
  }
};

export const saveLocaleChoice = (locale: Locale): void => {
  try {
    window.localStorage.setItem(LOCALE_KEY, locale);
  } catch {
    // Private mode: the choice lasts as long as the page.
  }
};

/** The language to start in: the choice, else the browser's, else English. */
export const preferredLocale = (): Locale => chosenLocale() ?? browserLocale() ?? DEFAULT_LOCALE;

let current: Locale = DEFAULT_LOCALE;

/** The language the console shows now (set by i18n/index.ts once its messages are loaded). */
export const currentLocale = (): Locale => current;

export const setCurrentLocale = (locale: Locale): void => {
  current = locale;
  if (typeof document !== 'undefined') document.documentElement.lang = locale;
};

/** Accept-Language for the server: the console's language first, English as the fallback. */
export const acceptLanguage = (): string => (current === 'en' ? 'en' : `${current}, en;q=0.5`);
