import polyglotI18nProvider from 'ra-i18n-polyglot';
import type { I18nProvider, TranslationMessages } from 'react-admin';
import englishTranslation from './en';
import { DEFAULT_LOCALE, LOCALE_NAMES, LOCALES, type Locale, isLocale, setCurrentLocale } from './locale';

export { LOCALES, LOCALE_NAMES, type Locale } from './locale';

/** Languages the console speaks; add a locale here (and in locale.ts) with its messages file. */
export const locales = LOCALES.map((locale) => ({ locale, name: LOCALE_NAMES[locale] }));

// English is in the bundle (the default); other languages are chunks loaded when chosen.
const loaders: Record<Exclude<Locale, 'en'>, () => Promise<TranslationMessages>> = {
  fr: async () => (await import('./fr')).default,
};
const loaded: Partial<Record<Locale, TranslationMessages>> = { en: englishTranslation };

/** The messages of a language, loading its chunk the first time. */
export const loadMessages = (locale: string): TranslationMessages | Promise<TranslationMessages> => {
  if (!isLocale(locale)) return englishTranslation;
  const messages = loaded[locale];
  if (messages) return messages;
  return loaders[locale as Exclude<Locale, 'en'>]().then((result) => {
    loaded[locale] = result;
    return result;
  });
};

/** react-admin messages whose %{name} (a resource's label) sits mid-sentence. */
const MID_SENTENCE_NAME = new Set(['ra.navigation.no_results', 'ra.navigation.no_filtered_results', 'ra.page.empty']);

export const createI18nProvider = (): I18nProvider => {
  const provider = polyglotI18nProvider(loadMessages, DEFAULT_LOCALE, locales, {
    // Server messages are shown through translate(message, { _: message }).
    allowMissing: true,
  });
  return {
    ...provider,
    // react-admin puts the resource's label ('Users', capitalised as a title) mid-sentence in its
    // empty states ('No %{name} found'): sentence case there, 'No users found'.
    translate: (key: string, options?: Record<string, unknown>) =>
      provider.translate(key, options && MID_SENTENCE_NAME.has(key) && typeof options.name === 'string' ? { ...options, name: options.name.toLocaleLowerCase() } : options),
    // The http client's Accept-Language and <html lang> follow the messages shown.
    changeLocale: async (locale: string, options?: unknown) => {
      await provider.changeLocale(locale, options);
      if (isLocale(locale)) setCurrentLocale(locale);
    },
  };
};

export const i18nProvider = createI18nProvider();
