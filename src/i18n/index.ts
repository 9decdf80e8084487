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

/** react-admin's pagination messages, whose numbers it passes unformatted ('1-25 of 100055'). */
const PAGE_RANGE = new Set(['ra.navigation.page_range_info', 'ra.navigation.partial_page_range_info']);

/** The options with their numbers written as the language writes them ('100,055', '100 055'). */
const withFormattedNumbers = (options: Record<string, unknown>, locale: string) => {
  const format = new Intl.NumberFormat(locale);
  return Object.fromEntries(Object.entries(options).map(([name, value]) => [name, typeof value === 'number' ? format.format(value) : value]));
};

export const createI18nProvider = (): I18nProvider => {
  const provider = polyglotI18nProvider(loadMessages, DEFAULT_LOCALE, locales, {
    // Server messages are shown through translate(message, { _: message }).
    allowMissing: true,
  });
  return {
    ...provider,
    translate: (key: string, options?: Record<string, unknown>) => {
      if (!options) return provider.translate(key);
      // react-admin puts the resource's label ('Users', capitalised as a title) mid-sentence in
      // its empty states ('No %{name} found'): sentence case there, 'No users found'.
      if (MID_SENTENCE_NAME.has(key) && typeof options.name === 'string') return provider.translate(key, { ...options, name: options.name.toLocaleLowerCase() });
      if (PAGE_RANGE.has(key)) return provider.translate(key, withFormattedNumbers(options, provider.getLocale()));
      return provider.translate(key, options);
    },
    // The http client's Accept-Language and <html lang> follow the messages shown.
    changeLocale: async (locale: string, options?: unknown) => {
      await provider.changeLocale(locale, options);
      if (isLocale(locale)) setCurrentLocale(locale);
    },
  };
};

export const i18nProvider = createI18nProvider();
