import { QueryClient } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { CoreAdminContext, usePermissions, WithPermissions, type AuthProvider } from 'react-admin';
import { describe, expect, it, vi } from 'vitest';
import { seedAuthQueries } from '../src/authQueries';
import type { User } from '../src/types';

// The console renders only with its user loaded, so react-admin's own auth queries are answered
// from that user before the first render (src/authQueries.ts): the home shows at once instead
// of after react-admin has asked the authProvider, and the permissions follow the user.

const user = (admin: boolean) => ({ id: 1, admin }) as unknown as User;

const authProvider = () =>
  ({
    login: vi.fn(),
    logout: vi.fn(),
    checkError: vi.fn(),
    checkAuth: vi.fn(async () => undefined),
    getPermissions: vi.fn(async () => ({ admin: false })),
  }) satisfies AuthProvider;

const Home = ({ permissions }: { permissions?: { admin: boolean } }) => <p>home for {permissions?.admin ? 'an admin' : 'a member'}</p>;

const Sidebar = () => {
  const { permissions, isPending } = usePermissions();
  return <p>{isPending ? 'menu pending' : permissions?.admin ? 'admin menu' : 'member menu'}</p>;
};

// As react-admin's routes render the dashboard (CoreAdminRoutes).
const Console = ({ provider, queryClient }: { provider: AuthProvider; queryClient: QueryClient }) => (
  <CoreAdminContext authProvider={provider} queryClient={queryClient}>
    <WithPermissions authParams={{ params: { route: 'dashboard' } }} component={Home} loading={() => <p>loading</p>} />
    <Sidebar />
  </CoreAdminContext>
);

/** The console with a member's auth queries answered (`seeded`) or not. */
const renderConsole = (seeded: boolean) => {
  const provider = authProvider();
  const queryClient = new QueryClient();
  if (seeded) seedAuthQueries(queryClient, user(false));
  render(<Console provider={provider} queryClient={queryClient} />);
  return { provider, queryClient };
};

describe("react-admin's auth queries, answered from the loaded user", () => {
  it('show the home and the menu in the first render, without asking the authProvider', async () => {
    const { provider } = renderConsole(true);
    // Synchronously: the first render already has them.
    expect(screen.getByText('home for a member')).toBeInTheDocument();
    expect(screen.getByText('member menu')).toBeInTheDocument();
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(provider.getPermissions).not.toHaveBeenCalled();
    expect(provider.checkAuth).not.toHaveBeenCalled();
  });

  it('without them, react-admin asks first and shows the home later (what the seeding saves)', async () => {
    const { provider } = renderConsole(false);
    expect(screen.getByText('loading')).toBeInTheDocument();
    expect(await screen.findByText('home for a member')).toBeInTheDocument();
    expect(provider.getPermissions).toHaveBeenCalled();
  });

  it('follow the user: an admin flag that changes changes the permissions shown', async () => {
    const { provider, queryClient } = renderConsole(true);
    expect(screen.getByText('member menu')).toBeInTheDocument();
    act(() => seedAuthQueries(queryClient, user(true)));
    expect(await screen.findByText('admin menu')).toBeInTheDocument();
    expect(await screen.findByText('home for an admin')).toBeInTheDocument();
    expect(provider.getPermissions).not.toHaveBeenCalled();
  });
});
