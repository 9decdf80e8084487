import { AdminUI, CustomRoutes, Resource } from 'react-admin';
import { Route } from 'react-router-dom';
import { useCurrentUser } from './hooks';
import { Layout } from './layout/Layout';
import { HomePage } from './pages/home/HomePage';
import { NotFound } from './pages/NotFound';
import adminResources from './resources/admin';
import nodes from './resources/nodes';
import requests from './resources/requests';
import teams from './resources/teams';
import tokens from './resources/tokens';
import workspaces from './resources/workspaces';
import { lazyNamed } from './utils/lazyNamed';

// Every page but the home is a chunk of its own, loaded when it is opened.
const ProfilePage = lazyNamed(() => import('./pages/profile/ProfilePage'), 'ProfilePage');
const TeamRegistrationPage = lazyNamed(() => import('./resources/teams/TeamRegistrationPage'), 'TeamRegistrationPage');
const TeamJoinPage = lazyNamed(() => import('./resources/teams/TeamJoinPage'), 'TeamJoinPage');
const AdminPolicyPage = lazyNamed(() => import('./resources/admin/policy/AdminPolicyPage'), 'AdminPolicyPage');
const AdminSettingsPage = lazyNamed(() => import('./resources/admin/lifecycle/AdminSettingsPage'), 'AdminSettingsPage');
const WhatEndsNextPage = lazyNamed(() => import('./resources/admin/lifecycle/WhatEndsNextPage'), 'WhatEndsNextPage');
const AdminUsagePage = lazyNamed(() => import('./resources/admin/usage/AdminUsagePage'), 'AdminUsagePage');
const AdminDashboardPage = lazyNamed(() => import('./resources/admin/dashboard/AdminDashboardPage'), 'AdminDashboardPage');

/**
 * The main console (react-admin's UI), for fully onboarded users. A chunk of its own (App.tsx
 * loads it lazily): the logged-out screens never load it.
 */
export const ConsoleUI = ({ title }: { title: string }) => {
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
      <Resource {...teams} />
      <Resource {...workspaces} />
      <CustomRoutes>
        <Route path="/profile" element={<ProfilePage />} />
        <Route path="/team/registration" element={<TeamRegistrationPage />} />
        <Route path="/team/join" element={<TeamJoinPage />} />
        {/* The platform admins' overview, the first entry of their menu section. */}
        {user?.admin && <Route path="/admin" element={<AdminDashboardPage />} />}
        {/* The policy's versions: platform admins only (others get the catch-all). */}
        {user?.admin && <Route path="/admin/policy" element={<AdminPolicyPage />} />}
        {/* The lifecycle settings and what ends next: platform admins only. */}
        {user?.admin && <Route path="/admin/settings" element={<AdminSettingsPage />} />}
        {user?.admin && <Route path="/admin/lifecycle" element={<WhatEndsNextPage />} />}
        {user?.admin && <Route path="/admin/usage" element={<AdminUsagePage />} />}
      </CustomRoutes>
    </AdminUI>
  );
};

export default ConsoleUI;
