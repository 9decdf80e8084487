import polyglotI18nProvider from 'ra-i18n-polyglot';
import type { I18nProvider } from 'react-admin';
import englishTranslation from './en';

/** Languages the console speaks; add a locale here together with its messages file. */
export const locales = [{ locale: 'en', name: 'English' }];

const messages: Record<string, typeof englishTranslation> = {
  en: englishTranslation,
};

export const createI18nProvider = (): I18nProvider =>
  polyglotI18nProvider((locale) => messages[locale] ?? englishTranslation, 'en', locales, {
    // Server messages are shown through translate(message, { _: message }).
    allowMissing: true,
  });

export const i18nProvider = createI18nProvider();
