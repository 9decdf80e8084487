import { Alert, Box, Button } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { Suspense, useEffect } from 'react';
import { Notification, useLogin, useTranslate } from 'react-admin';
import { seedAuthQueries } from './authQueries';
import { useSession, useTestbedAuth } from './hooks';
import { SessionLoading } from './SessionLoading';
import { lazyNamed } from './utils/lazyNamed';
import type { ReactNode } from 'react';

const UNREACHABLE_RETRY_MS = 5000;

// Chunks of their own: most sessions are onboarded and never show the wizard, and a stored
// session shows the login form only when it has ended (a logged-out visit starts with the
// logged-out bundle instead, main.tsx), so the home does not load the forms' code.
const OnboardingWizard = lazyNamed(() => import('./pages/onboarding/OnboardingWizard'), 'OnboardingWizard');
const LoginPage = lazyNamed(() => import('./pages/auth/LoginPage'), 'LoginPage');

/**
 * Decides what a console path shows: no token → the login page at that path (the
 * user lands there after login); a token → the user is loaded (a failure clears the token);
 * not onboarded → the wizard; onboarded → the console (children).
 */
export const SessionGate = ({ children }: { children: ReactNode }) => {
  const auth = useTestbedAuth();
  const session = useSession();
  const translate = useTranslate();
  const login = useLogin();
  const queryClient = useQueryClient();

  useEffect(() => {
    if (session.status === 'loading') void auth.loadUser();
    if (session.status !== 'unreachable') return;
    const retry = setTimeout(() => void auth.loadUser(), UNREACHABLE_RETRY_MS);
    return () => clearTimeout(retry);
  }, [auth, session.status]);

  if (session.status === 'anonymous') {
    return (
      <>
        <Suspense fallback={<SessionLoading />}>
          <LoginPage login={login} />
        </Suspense>
        <Notification />
      </>
    );
  }
  if (session.status === 'unreachable') {
    return (
      <Box sx={{ maxWidth: 560, mx: 'auto', mt: 12, px: 2 }}>
        <Alert
          severity="warning"
          action={
            <Button color="inherit" size="small" onClick={() => void auth.loadUser()}>
              {translate('app.action.retry')}
            </Button>
          }
        >
          {translate('app.error.network')}
        </Alert>
      </Box>
    );
  }
  if (session.status === 'loading') {
    return <SessionLoading />;
  }
  if (session.step < 2) {
    return (
      <Suspense fallback={<SessionLoading />}>
        <OnboardingWizard user={session.user} />
      </Suspense>
    );
  }
  // Before the console renders: react-admin's own auth queries answered from the loaded user.
  seedAuthQueries(queryClient, session.user);
  return <>{children}</>;
};
