import polyglotI18nProvider from 'ra-i18n-polyglot';
import type { I18nProvider, TranslationMessages } from 'react-admin';
import { DEFAULT_LOCALE, LOCALE_NAMES, LOCALES, type Locale, isLocale, setCurrentLocale } from './locale';

// The i18n provider of both bundles. Each brings its own English: the console all of en.ts
// (index.ts), the logged-out bundle only its screens' messages (enLoggedOut.ts, in
// LoggedOutLocale.tsx). Other languages are chunks loaded when chosen, whole, and kept here for
// both: the console, shown after a sign-in, starts in the language the login page was in.

/** Languages the console speaks; add a locale here (and in locale.ts) with its messages file. */
export const locales = LOCALES.map((locale) => ({ locale, name: LOCALE_NAMES[locale] }));

type OtherLocale = Exclude<Locale, 'en'>;
const loaders: Record<OtherLocale, () => Promise<TranslationMessages>> = {
  fr: async () => (await import('./fr')).default,
};
const loaded: Partial<Record<OtherLocale, TranslationMessages>> = {};

/** A language's messages, loading its chunk the first time. */
const otherMessages = (locale: OtherLocale): TranslationMessages | Promise<TranslationMessages> =>
  loaded[locale] ??
  loaders[locale]().then((result) => {
    loaded[locale] = result;
    return result;
  });

/** react-admin messages whose %{name} (a resource's label) sits mid-sentence. */
const MID_SENTENCE_NAME = new Set(['ra.navigation.no_results', 'ra.navigation.no_filtered_results', 'ra.page.empty']);

/** react-admin's pagination messages, whose numbers it passes unformatted ('1-25 of 100055'). */
const PAGE_RANGE = new Set(['ra.navigation.page_range_info', 'ra.navigation.partial_page_range_info']);

/** The options with their numbers written as the language writes them ('100,055', '100 055'). */
const withFormattedNumbers = (options: Record<string, unknown>, locale: string) => {
  const format = new Intl.NumberFormat(locale);
  return Object.fromEntries(Object.entries(options).map(([name, value]) => [name, typeof value === 'number' ? format.format(value) : value]));
};

/**
 * A provider with `english` as its English messages. It starts in `initialLocale` when that
 * language's messages are already loaded (polyglot needs the first ones at once), else in English.
 */
export const buildI18nProvider = (english: TranslationMessages, initialLocale: Locale = DEFAULT_LOCALE): I18nProvider => {
  const messagesOf = (locale: string) => (!isLocale(locale) || locale === 'en' ? english : otherMessages(locale));
  const start = initialLocale !== 'en' && loaded[initialLocale] ? initialLocale : DEFAULT_LOCALE;
  const provider = polyglotI18nProvider(messagesOf, start, locales, {
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
