import type { QueryClient } from '@tanstack/react-query';
import { CssBaseline } from '@mui/material';
import { Suspense, useEffect, useMemo } from 'react';
import {
  AdminContext,
  type DataProvider,
  type I18nProvider,
  Notification,
  type Store,
  localStorageStore,
} from 'react-admin';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router-dom';
import { createAuthProvider, type TestbedAuthProvider } from './authProvider';
import { createDataProvider } from './dataProvider';
import { useSession } from './hooks';
import { createHttpClient, type HttpClient } from './httpClient';
import { i18nProvider as defaultI18nProvider } from './i18n';
import { ConsoleLocale } from './i18n/ConsoleLocale';
import { SessionLoading } from './SessionLoading';
import { lazyNamed } from './utils/lazyNamed';
import { SessionGate } from './SessionGate';
import { type Settings, SettingsContext } from './settings';
import { theme } from './theme';
import { consoleRouting } from './pages/auth/consoleRouting';
import { ScreenRoutingContext } from './pages/auth/screenRouting';

// Code splitting keeps the first load small: the login page is in the entry chunk; the other logged-out screens
// and the console (react-admin's UI, resources, realtime) are chunks loaded when shown.
const ConsoleUI = lazyNamed(() => import('./ConsoleUI'), 'ConsoleUI');
/** The console's main chunk, loaded before the first render when a session is stored (main.tsx). */
export const preloadConsole = () => ConsoleUI.preload();
const RegistrationPage = lazyNamed(() => import('./pages/auth/RegistrationPage'), 'RegistrationPage');
const ForgotPasswordPage = lazyNamed(() => import('./pages/auth/ForgotPasswordPage'), 'ForgotPasswordPage');
const ResetPasswordPage = lazyNamed(() => import('./pages/auth/ResetPasswordPage'), 'ResetPasswordPage');
const VerifyEmailPage = lazyNamed(() => import('./pages/auth/VerifyEmailPage'), 'VerifyEmailPage');
const InvitationPage = lazyNamed(() => import('./pages/invitations/InvitationPage'), 'InvitationPage');
const OidcCallbackPage = lazyNamed(() => import('./pages/oidc/OidcCallbackPage'), 'OidcCallbackPage');

export interface Providers {
  http: HttpClient;
  authProvider: TestbedAuthProvider;
  dataProvider: DataProvider;
  i18nProvider: I18nProvider;
}

export const createProviders = (
  settings: Settings,
  session?: { http: HttpClient; authProvider: TestbedAuthProvider },
): Providers => {
  const http = session?.http ?? createHttpClient({ baseUrl: settings.apiUrl });
  return {
    http,
    authProvider: session?.authProvider ?? createAuthProvider(http, { avatarUrl: settings.avatarUrl }),
    dataProvider: createDataProvider(http),
    i18nProvider: defaultI18nProvider,
  };
};

/** A logged-out screen in the console, with react-admin's notifications (the console's own). */
const LoggedOutScreen = ({ children }: { children: React.ReactElement }) => (
  <>
    {children}
    <Notification />
  </>
);

/** Logged-out screens send a logged-in user to the console instead. */
const LoggedOutOnly = ({ children }: { children: React.ReactElement }) => {
  const session = useSession();
  return session.status === 'anonymous' ? <LoggedOutScreen>{children}</LoggedOutScreen> : <Navigate to="/" replace />;
};

/**
 * When a session ends the console shows its login page, whose two links lead to screens of
 * their own chunks. The console's router navigates in a transition, which keeps the previous
 * screen until the next one's code has loaded: the login form would stay on screen at
 * /password, taking what a person types. Loading both chunks with the login page closes that gap.
 */
const LoadLoginLinkScreens = () => {
  const session = useSession();
  useEffect(() => {
    if (session.status !== 'anonymous') return;
    // A chunk that fails here is asked for again when its screen renders.
    void RegistrationPage.preload().catch(() => undefined);
    void ForgotPasswordPage.preload().catch(() => undefined);
  }, [session.status]);
  return null;
};

/**
 * react-admin's store for the console (local storage unless one is given), with a locale. Its
 * I18nContextProvider renders nothing until the stored locale and the i18n provider's agree,
 * then renders everything again from an effect: on a browser's first console, which has no
 * stored locale yet, a whole extra pass before anything showed. The locale the provider starts
 * in is stored then (ConsoleLocale applies the preferred one after, as it did).
 */
export const consoleStore = (i18nProvider: I18nProvider, store?: Store): Store => {
  const finalStore = store ?? localStorageStore(undefined, 'testbed-console');
  if (finalStore.getItem('locale') === undefined) finalStore.setItem('locale', i18nProvider.getLocale());
  return finalStore;
};

export interface ConsoleAppProps {
  settings: Settings;
  providers: Providers;
  store?: Store;
  queryClient?: QueryClient;
}

/** Everything inside a router (BrowserRouter in the app, MemoryRouter in tests). */
export const ConsoleApp = ({ settings, providers, store, queryClient }: ConsoleAppProps) => {
  const finalStore = useMemo(() => consoleStore(providers.i18nProvider, store), [store, providers.i18nProvider]);
  return (
    <SettingsContext.Provider value={settings}>
      <AdminContext
        authProvider={providers.authProvider}
        dataProvider={providers.dataProvider}
        i18nProvider={providers.i18nProvider}
        theme={theme}
        darkTheme={null}
        store={finalStore}
        queryClient={queryClient}
      >
        {/* Base styles (font, background) for the logged-out area and the wizard too. */}
        <CssBaseline enableColorScheme />
        <LoadLoginLinkScreens />
        <ConsoleLocale>
        <ScreenRoutingContext.Provider value={consoleRouting}>
        <Suspense fallback={<SessionLoading />}>
        <Routes>
          <Route path="/registration" element={<LoggedOutOnly><RegistrationPage /></LoggedOutOnly>} />
          <Route path="/password" element={<LoggedOutOnly><ForgotPasswordPage /></LoggedOutOnly>} />
          <Route path="/password/reset/:id/:signature" element={<LoggedOutScreen><ResetPasswordPage /></LoggedOutScreen>} />
          <Route path="/email/verify/:id/:hash" element={<LoggedOutScreen><VerifyEmailPage /></LoggedOutScreen>} />
          <Route path="/invitations/:id/:token" element={<LoggedOutScreen><InvitationPage /></LoggedOutScreen>} />
          <Route path="/oidc/callback" element={<LoggedOutScreen><OidcCallbackPage /></LoggedOutScreen>} />
          <Route
            path="/*"
            element={
              <SessionGate>
                <ConsoleUI title={settings.appName} />
              </SessionGate>
            }
          />
        </Routes>
        </Suspense>
        </ScreenRoutingContext.Provider>
        </ConsoleLocale>
      </AdminContext>
    </SettingsContext.Provider>
  );
};

export interface AppProps {
  settings: Settings;
  /** The session of the logged-out bundle (main.tsx), kept when the console takes over. */
  session?: { http: HttpClient; authProvider: TestbedAuthProvider };
}

/** The console: the spec's paths are real URLs (BrowserRouter). */
export const App = ({ settings, session }: AppProps) => {
  const providers = useMemo(() => createProviders(settings, session), [settings, session]);
  return (
    <BrowserRouter>
      <ConsoleApp settings={settings} providers={providers} />
    </BrowserRouter>
  );
};

export default App;
