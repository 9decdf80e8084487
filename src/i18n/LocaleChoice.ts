import { createContext, useContext } from 'react';
import type { Locale } from './locale';

/** The language shown and how to change it: the console's (ConsoleLocale) or the logged-out area's (LoggedOutLocale). */
export interface LocaleChoice {
  locale: Locale;
  setLocale(locale: Locale): void;
}

export const LocaleChoiceContext = createContext<LocaleChoice | null>(null);

/** null outside ConsoleLocale and LoggedOutLocale (the language menu then hides itself). */
export const useLocaleChoice = (): LocaleChoice | null => useContext(LocaleChoiceContext);
