import type { I18nProvider } from 'react-admin';
import englishTranslation from './en';
import { currentLocale } from './locale';
import { buildI18nProvider } from './provider';

// The console's i18n provider, with every English message (the logged-out bundle has its own,
// with only its screens' messages: LoggedOutLocale.tsx).

export { LOCALES, LOCALE_NAMES, type Locale } from './locale';
export { locales } from './provider';

export const createI18nProvider = (): I18nProvider => buildI18nProvider(englishTranslation);

/** Starts in the language the logged-out screens were showing, when its messages are loaded. */
export const i18nProvider = buildI18nProvider(englishTranslation, currentLocale());
