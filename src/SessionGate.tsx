import { useEffect } from 'react';
import { Loading } from 'react-admin';
import { useSession, useTestbedAuth } from './hooks';
import { LoginPage } from './pages/auth/LoginPage';
import { OnboardingWizard } from './pages/onboarding/OnboardingWizard';
import type { ReactNode } from 'react';

/**
 * Decides what a console path shows (spec §4): no token → the login page at that path (the
 * user lands there after login); a token → the user is loaded (a failure clears the token);
 * not onboarded → the wizard; onboarded → the console (children).
 */
export const SessionGate = ({ children }: { children: ReactNode }) => {
  const auth = useTestbedAuth();
  const session = useSession();

  useEffect(() => {
    if (session.status === 'loading') void auth.loadUser();
  }, [auth, session.status]);

  if (session.status === 'anonymous') return <LoginPage />;
  if (session.status === 'loading') {
    return (
      <div style={{ height: '100vh' }}>
        <Loading loadingPrimary="app.loading" loadingSecondary="" />
      </div>
    );
  }
  if (session.step < 2) return <OnboardingWizard user={session.user} />;
  return <>{children}</>;
};
