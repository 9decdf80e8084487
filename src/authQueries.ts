import type { QueryClient } from '@tanstack/react-query';
import type { User } from './types';

/**
 * react-admin asks the authProvider whether the session holds and what it may do through
 * queries of its own, and shows the home only once they have answered: on a phone that was a
 * render of the whole console with an empty page (the first paint), then one with the home,
 * then two more when the permissions arrived (react-admin registers the resources again).
 * The console renders only with its user loaded (SessionGate), so both answers are known: they
 * go into those queries before the console's first render, and again whenever the user changes.
 *
 * The keys are react-admin's (ra-core 5's usePermissions, useAuthState and the dashboard's
 * WithPermissions); tests/authQueries.test.tsx fails if they no longer match.
 */
const DASHBOARD = { route: 'dashboard' };
const PERMISSIONS_KEYS = [
  ['auth', 'getPermissions', {}],
  ['auth', 'getPermissions', { params: DASHBOARD }],
] as const;
const DASHBOARD_AUTH_KEY = ['auth', 'checkAuth', DASHBOARD] as const;

/** What the authProvider's getPermissions answers for this user. */
export const permissionsOf = (user: User) => ({ admin: Boolean(user.admin) });

/**
 * Puts `user`'s permissions and a valid session into react-admin's auth queries. Idempotent:
 * nothing changes (and nobody re-renders) while the permissions stay the same.
 */
export const seedAuthQueries = (queryClient: QueryClient, user: User): void => {
  const permissions = permissionsOf(user);
  for (const key of PERMISSIONS_KEYS) {
    // Answered from here for as long as the user is the same; a changed user sets them again.
    queryClient.setQueryDefaults(key, { staleTime: Infinity });
    const current = queryClient.getQueryData<{ admin?: boolean }>(key);
    if (current?.admin !== permissions.admin) queryClient.setQueryData(key, permissions);
  }
  // The session ends through the token (SessionGate then shows the login page), not this query.
  queryClient.setQueryDefaults(DASHBOARD_AUTH_KEY, { staleTime: Infinity });
  if (queryClient.getQueryData(DASHBOARD_AUTH_KEY) !== true) queryClient.setQueryData(DASHBOARD_AUTH_KEY, true);
};
