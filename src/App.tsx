import type { QueryClient } from '@tanstack/react-query';
import { CssBaseline } from '@mui/material';
import { useMemo } from 'react';
import {
  AdminContext,
  AdminUI,
  CustomRoutes,
  type DataProvider,
  type I18nProvider,
  Resource,
  type Store,
  localStorageStore,
} from 'react-admin';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router-dom';
import { createAuthProvider, type TestbedAuthProvider } from './authProvider';
import { createDataProvider } from './dataProvider';
import { useCurrentUser, useSession } from './hooks';
import { createHttpClient, type HttpClient } from './httpClient';
import { i18nProvider as defaultI18nProvider } from './i18n';
import { Layout } from './layout/Layout';
import { ForgotPasswordPage } from './pages/auth/ForgotPasswordPage';
import { RegistrationPage } from './pages/auth/RegistrationPage';
import { ResetPasswordPage } from './pages/auth/ResetPasswordPage';
import { VerifyEmailPage } from './pages/auth/VerifyEmailPage';
import { HomePage } from './pages/home/HomePage';
import { NotFound } from './pages/NotFound';
import { ProfilePage } from './pages/profile/ProfilePage';
import { TeamJoinPage } from './pages/teams/TeamJoinPage';
import { TeamRegistrationPage } from './pages/teams/TeamRegistrationPage';
import { adminResources } from './resources/admin';
import nodes from './resources/nodes';
import requests from './resources/requests';
import { TeamShow } from './resources/teams';
import tokens from './resources/tokens';
import { WorkspaceShow } from './resources/workspaces';
import { SessionGate } from './SessionGate';
import { type Settings, SettingsContext } from './settings';
import { theme } from './theme';

export interface Providers {
  http: HttpClient;
  authProvider: TestbedAuthProvider;
  dataProvider: DataProvider;
  i18nProvider: I18nProvider;
}

export const createProviders = (settings: Settings): Providers => {
  const http = createHttpClient({ baseUrl: settings.apiUrl });
  return {
    http,
    authProvider: createAuthProvider(http),
    dataProvider: createDataProvider(http),
    i18nProvider: defaultI18nProvider,
  };
};

/** Logged-out screens send a logged-in user to the console instead. */
const LoggedOutOnly = ({ children }: { children: React.ReactElement }) => {
  const session = useSession();
  return session.status === 'anonymous' ? children : <Navigate to="/" replace />;
};

/** The main console (react-admin's UI), for fully onboarded users. */
const Console = ({ title }: { title: string }) => {
  const user = useCurrentUser();
  return (
  <AdminUI
    layout={Layout}
    dashboard={HomePage}
    catchAll={NotFound}
    loginPage={false}
    authCallbackPage={false}
    title={title}
    disableTelemetry
  >
    <Resource {...tokens} />
    <Resource {...requests} />
    {/* Admin lists exist only for platform admins: others get the catch-all. */}
    {user?.admin && adminResources.map((resource) => <Resource key={resource.name} {...resource} />)}
    <Resource {...nodes} />
    <CustomRoutes>
      <Route path="/profile" element={<ProfilePage />} />
      <Route path="/teams/:id" element={<TeamShow />} />
      <Route path="/workspaces/:id" element={<WorkspaceShow />} />
      <Route path="/team/registration" element={<TeamRegistrationPage />} />
      <Route path="/team/join" element={<TeamJoinPage />} />
    </CustomRoutes>
  </AdminUI>
  );
};

export interface ConsoleAppProps {
  settings: Settings;
  providers: Providers;
  store?: Store;
  queryClient?: QueryClient;
}

/** Everything inside a router (BrowserRouter in the app, MemoryRouter in tests). */
export const ConsoleApp = ({ settings, providers, store, queryClient }: ConsoleAppProps) => {
  const finalStore = useMemo(() => store ?? localStorageStore(undefined, 'testbed-console'), [store]);
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
        <Routes>
          <Route path="/registration" element={<LoggedOutOnly><RegistrationPage /></LoggedOutOnly>} />
          <Route path="/password" element={<LoggedOutOnly><ForgotPasswordPage /></LoggedOutOnly>} />
          <Route path="/password/reset/:id/:signature" element={<ResetPasswordPage />} />
          <Route path="/email/verify/:id/:hash" element={<VerifyEmailPage />} />
          <Route
            path="/*"
            element={
              <SessionGate>
                <Console title={settings.appName} />
              </SessionGate>
            }
          />
        </Routes>
      </AdminContext>
    </SettingsContext.Provider>
  );
};

/** The console: the spec's paths are real URLs (BrowserRouter). */
export const App = ({ settings }: { settings: Settings }) => {
  const providers = useMemo(() => createProviders(settings), [settings]);
  return (
    <BrowserRouter>
      <ConsoleApp settings={settings} providers={providers} />
    </BrowserRouter>
  );
};

export default App;
