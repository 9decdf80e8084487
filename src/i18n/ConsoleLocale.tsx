import { type ReactNode, useCallback, useEffect, useMemo } from 'react';
import { useLocaleState } from 'react-admin';
import { useSession, useTestbedAuth } from '../session';
import { chosenLocale, isLocale, type Locale, preferredLocale, saveLocaleChoice } from './locale';
import { LocaleChoiceContext } from './LocaleChoice';

/**
 * The console's language, through react-admin's locale state (its I18nContextProvider loads
 * the messages and re-renders): at start the preferred language (the choice on this browser,
 * else the browser's); at sign-in the account's saved language (GET /user's locale), or, when
 * the account has none yet, the choice made on this browser is saved to it; a change in the
 * language menu is saved to the account (PATCH /user {locale}) when signed in.
 */
export const ConsoleLocale = ({ children }: { children: ReactNode }) => {
  const [storeLocale, setStoreLocale] = useLocaleState();
  const auth = useTestbedAuth();
  const session = useSession();
  const user = session.status === 'authenticated' ? session.user : null;
  const locale: Locale = isLocale(storeLocale) ? storeLocale : 'en';

  useEffect(() => {
    const wanted = preferredLocale();
    if (wanted !== storeLocale) setStoreLocale(wanted);
    // Once, at start.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const userId = user?.id;
  const userLocale = user?.locale;
  useEffect(() => {
    if (userId === undefined) return;
    if (isLocale(userLocale)) {
      if (chosenLocale() !== userLocale) saveLocaleChoice(userLocale);
      if (userLocale !== storeLocale) setStoreLocale(userLocale);
      return;
    }
    const chosen = chosenLocale();
    if (chosen) void auth.updateProfile({ locale: chosen }).catch(() => undefined);
    // At sign-in and when the account's language changes, not on each language change here.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [userId, userLocale]);

  const setLocale = useCallback(
    (next: Locale) => {
      saveLocaleChoice(next);
      setStoreLocale(next);
      if (userId !== undefined) void auth.updateProfile({ locale: next }).catch(() => undefined);
    },
    [auth, setStoreLocale, userId],
  );
  const choice = useMemo(() => ({ locale, setLocale }), [locale, setLocale]);
  return <LocaleChoiceContext.Provider value={choice}>{children}</LocaleChoiceContext.Provider>;
};
