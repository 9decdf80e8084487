import { type ReactNode, useCallback, useEffect, useMemo, useState } from 'react';
import { I18nContext } from 'react-admin';
import { loggedOutEnglish } from './enLoggedOut';
import { type Locale, isLocale, preferredLocale, saveLocaleChoice } from './locale';
import { LocaleChoiceContext } from './LocaleChoice';
import { buildI18nProvider } from './provider';

/** The logged-out screens' English only (enLoggedOut.ts); the console's provider has all of it. */
const i18nProvider = buildI18nProvider(loggedOutEnglish);

/**
 * The logged-out area's language (it has no react-admin store): starts in the preferred
 * language (waiting for its messages, so nothing shows in English first), and re-renders
 * everything when the language menu changes it (as react-admin's I18nContextProvider does).
 */
export const LoggedOutLocale = ({ children }: { children: ReactNode }) => {
  const [state, setState] = useState(() => {
    const current = i18nProvider.getLocale();
    return { locale: (isLocale(current) ? current : 'en') as Locale, key: 0, ready: current === preferredLocale() };
  });

  const apply = useCallback(async (locale: Locale) => {
    try {
      await i18nProvider.changeLocale(locale);
      setState((previous) => ({ locale, key: previous.key + 1, ready: true }));
    } catch {
      // The language's chunk did not load: stay in the current language.
      setState((previous) => ({ ...previous, ready: true }));
    }
  }, []);

  useEffect(() => {
    if (!state.ready) void apply(preferredLocale());
    // Once, at start.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const setLocale = useCallback(
    (locale: Locale) => {
      saveLocaleChoice(locale);
      void apply(locale);
    },
    [apply],
  );
  const choice = useMemo(() => ({ locale: state.locale, setLocale }), [state.locale, setLocale]);

  if (!state.ready) return null;
  return (
    <I18nContext.Provider value={i18nProvider} key={state.key}>
      <LocaleChoiceContext.Provider value={choice}>{children}</LocaleChoiceContext.Provider>
    </I18nContext.Provider>
  );
};
