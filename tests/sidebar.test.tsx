import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeRequestToDecide } from './fixtures.teams';
import { db, requestsTo } from './mocks/db';
import { makeUser, NOW } from './mocks/fixtures';
import { renderApp } from './render';

const sidebar = () => document.querySelector('.RaSidebar-fixed, .RaSidebar-paper') as HTMLElement;

const withWorkspaces = (overrides = {}) =>
  makeUser({
    teams: [
      { id: 3, name: 'edgelab', role: 'owner' },
      { id: 4, name: 'radio', role: 'member' },
    ],
    workspaces: [
      { id: 7, name: 'vision', label: 'Vision', team: { id: 3, name: 'edgelab' }, role: 'manager' },
      { id: 8, name: 'robots', label: 'Robots', team: { id: 3, name: 'edgelab' }, role: 'member' },
      { id: 9, name: 'antenna', label: 'Antenna', team: { id: 4, name: 'radio' }, role: 'member' },
    ],
    ...overrides,
  });

describe('sidebar', () => {
  it('groups workspaces by team, with links; Expand all / Close all', async () => {
    db.user = withWorkspaces();
    const { user } = renderApp({ path: '/', loggedIn: true });
    await screen.findByRole('heading', { name: 'Your workspaces' });
    const menu = sidebar();
    expect(within(menu).getByRole('menuitem', { name: 'edgelab' })).toHaveAttribute('href', '/teams/edgelab');
    expect(within(menu).getByRole('menuitem', { name: 'Vision' })).toHaveAttribute('href', '/workspaces/7');
    const edgelab = menu.querySelector('[data-team="edgelab"]') as HTMLElement;
    expect(within(edgelab).getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['edgelab', 'Vision', 'Robots']);
    expect(within(menu.querySelector('[data-team="radio"]') as HTMLElement).getByRole('menuitem', { name: 'Antenna' })).toBeInTheDocument();

    await user.click(within(menu).getByRole('menuitem', { name: 'Close all' }));
    await waitFor(() => expect(within(menu).queryByRole('menuitem', { name: 'Vision' })).not.toBeInTheDocument());
    expect(within(menu).queryByRole('menuitem', { name: 'Antenna' })).not.toBeInTheDocument();
    expect(within(menu).getByRole('menuitem', { name: 'edgelab' })).toBeInTheDocument();

    await user.click(within(menu).getByRole('menuitem', { name: 'Expand all' }));
    expect(await within(menu).findByRole('menuitem', { name: 'Vision' })).toBeInTheDocument();
    expect(within(menu).getByRole('menuitem', { name: 'Antenna' })).toBeInTheDocument();

    const fold = within(menu).getByRole('menuitemcheckbox', { name: 'Show the workspaces of edgelab' });
    expect(fold).toBeChecked();
    await user.click(fold);
    expect(fold).not.toBeChecked();
    await waitFor(() => expect(within(menu).queryByRole('menuitem', { name: 'Vision' })).not.toBeInTheDocument());
    expect(within(menu).getByRole('menuitem', { name: 'Antenna' })).toBeInTheDocument();
  });

  it("says 'No workspaces' when there are none, and shows no Admin section to non-admins", async () => {
    renderApp({ path: '/', loggedIn: true });
    await screen.findByRole('heading', { name: 'Your workspaces' });
    expect(within(sidebar()).getByText('No workspaces')).toBeInTheDocument();
    expect(within(sidebar()).queryByText('Admin')).not.toBeInTheDocument();
    expect(within(sidebar()).queryByRole('menuitem', { name: 'Users' })).not.toBeInTheDocument();
  });

  it('shows the Admin section to platform admins', async () => {
    db.user = makeUser({ admin: true });
    renderApp({ path: '/', loggedIn: true });
    await screen.findByRole('heading', { name: 'Your workspaces' });
    const menu = sidebar();
    expect(within(menu).getByText('Admin')).toBeInTheDocument();
    for (const [name, href] of [
      ['Teams', '/admin/teams'],
      ['Workspaces', '/admin/workspaces'],
      ['Users', '/admin/users'],
      ['Activity', '/admin/activity'],
    ]) {
      expect(within(menu).getByRole('menuitem', { name })).toHaveAttribute('href', href);
    }
  });

  it('badges: requests to decide on Requests, own pending requests on the profile entry', async () => {
    db.toDecide = [makeRequestToDecide({ id: 12 }), makeRequestToDecide({ id: 13 })];
    db.user = makeUser({
      requests: [
        { id: 1, type: 'JoinTeam', status: 'Pending', created_at: NOW, object: { id: 9, fullname: 'X', shortname: 'X' } },
        { id: 2, type: 'JoinTeam', status: 'Denied', created_at: NOW, object: { id: 8, fullname: 'Y', shortname: 'Y' } },
      ],
    });
    renderApp({ path: '/', loggedIn: true });
    await screen.findByRole('heading', { name: 'Your workspaces' });
    const menu = sidebar();
    expect(await within(menu).findByRole('menuitem', { name: 'Requests, 2 pending requests' })).toHaveAttribute('href', '/requests');
    expect(within(menu).getByRole('menuitem', { name: 'Ada Lovelace, 1 pending request' })).toHaveAttribute('href', '/profile');
    expect(requestsTo('GET', '/api/requests')[0]!.url.searchParams.get('status')).toBe('Pending');
  });
});
