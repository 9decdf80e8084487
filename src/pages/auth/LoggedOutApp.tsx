import { Box, CircularProgress, CssBaseline } from '@mui/material';
import { createTheme, ThemeProvider } from '@mui/material/styles';
import { AuthContext, useTranslate } from 'react-admin';
import { Suspense } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import type { TestbedAuthProvider } from '../../authProvider';
import { useSession } from '../../session';
import { LoggedOutLocale } from '../../i18n/LoggedOutLocale';
import { type Settings, SettingsContext } from '../../settings';
import { theme } from '../../theme';
import { lazyNamed } from '../../utils/lazyNamed';
import { LoginPage } from './LoginPage';
import { loggedOutRouting } from './loggedOutRouting';
import { ScreenRoutingContext } from './screenRouting';

// The logged-out bundle (kept small for the first load): what a visitor without a token loads. The same screens as
// in the console (App.tsx) on plain MUI and wouter (screenRouting.tsx: react-router alone was
// 47 kB gzip of /login), with react-admin's translate and auth contexts (two small contexts, not
// its Admin): no list machinery, no realtime. main.tsx switches to the console once a token is
// stored (login).

const RegistrationPage = lazyNamed(() => import('./RegistrationPage'), 'RegistrationPage');
const ForgotPasswordPage = lazyNamed(() => import('./ForgotPasswordPage'), 'ForgotPasswordPage');
const ResetPasswordPage = lazyNamed(() => import('./ResetPasswordPage'), 'ResetPasswordPage');
const VerifyEmailPage = lazyNamed(() => import('./VerifyEmailPage'), 'VerifyEmailPage');
const InvitationPage = lazyNamed(() => import('../invitations/InvitationPage'), 'InvitationPage');
const OidcCallbackPage = lazyNamed(() => import('../oidc/OidcCallbackPage'), 'OidcCallbackPage');

const muiTheme = createTheme(theme);

/**
 * What shows while a screen's chunk arrives. wouter does not navigate in a transition (it reads
 * the address with useSyncExternalStore): in one, React would keep the previous screen until the
 * next one's code has loaded, so "Forgot password?" would leave the login form on screen at
 * /password, and what a person typed meanwhile would go into it.
 */
const ScreenLoading = () => {
  const translate = useTranslate();
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', alignItems: 'center', minHeight: '100vh', bgcolor: 'background.paper' }}>
      {/* Shown only when the wait is noticeable: a chunk that arrives at once makes no flash. */}
      <Box sx={{ '@keyframes appear': { from: { opacity: 0 }, to: { opacity: 1 } }, animation: 'appear 0s linear 300ms both' }}>
        <CircularProgress aria-label={translate('app.loading')} />
      </Box>
    </Box>
  );
};

/** Logged-out screens send a logged-in user to the console instead (as App.tsx does). */
const LoggedOutOnly = ({ children }: { children: React.ReactElement }) => {
  const session = useSession();
  return session.status === 'anonymous' ? children : <Redirect to="/" replace />;
};

export interface LoggedOutAppProps {
  settings: Settings;
  authProvider: TestbedAuthProvider;
}

export const LoggedOutApp = ({ settings, authProvider }: LoggedOutAppProps) => (
  <SettingsContext.Provider value={settings}>
    <AuthContext.Provider value={authProvider}>
      <LoggedOutLocale>
        <ThemeProvider theme={muiTheme}>
          <CssBaseline enableColorScheme />
          <ScreenRoutingContext.Provider value={loggedOutRouting}>
            <Suspense fallback={<ScreenLoading />}>
              <Switch>
                <Route path="/registration"><LoggedOutOnly><RegistrationPage /></LoggedOutOnly></Route>
                <Route path="/password"><LoggedOutOnly><ForgotPasswordPage /></LoggedOutOnly></Route>
                <Route path="/password/reset/:id/:signature"><ResetPasswordPage /></Route>
                <Route path="/email/verify/:id/:hash"><VerifyEmailPage /></Route>
                <Route path="/invitations/:id/:token"><InvitationPage /></Route>
                <Route path="/oidc/callback"><OidcCallbackPage /></Route>
                <Route><LoginPage /></Route>
              </Switch>
            </Suspense>
          </ScreenRoutingContext.Provider>
        </ThemeProvider>
      </LoggedOutLocale>
    </AuthContext.Provider>
  </SettingsContext.Provider>
);

export default LoggedOutApp;
