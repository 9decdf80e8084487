import { useSyncExternalStore } from 'react';
import { useAuthProvider } from 'react-admin';
import type { SessionState, TestbedAuthProvider } from './authProvider';
import type { User } from './types';

// The session hooks alone (re-exported by hooks.ts): the logged-out screens use these, and a
// module of their own keeps the console's data hooks (react-query…) out of their bundle.

/** The console's authProvider, with its session store and account calls. */
export const useTestbedAuth = (): TestbedAuthProvider => {
  const provider = useAuthProvider();
  if (!provider) throw new Error('useTestbedAuth: no authProvider in the AdminContext');
  return provider as TestbedAuthProvider;
};

/** The session, re-rendering on login, logout, verification and policy acceptance. */
export const useSession = (): SessionState => {
  const auth = useTestbedAuth();
  return useSyncExternalStore(auth.subscribe, auth.getSession, auth.getSession);
};

/** The logged-in user, or null. */
export const useCurrentUser = (): User | null => {
  const session = useSession();
  return session.status === 'authenticated' ? session.user : null;
};
