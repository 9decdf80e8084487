import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { db } from './mocks/db';
import { makeUser } from './mocks/fixtures';
import { LOCALE_KEY } from '../src/i18n/locale';
import { renderApp } from './render';

describe('console shell', () => {
  it('home: the three cards with friendly empty states, and no pending-requests alert', async () => {
    renderApp({ path: '/', loggedIn: true });
    const workspaces = (await screen.findByRole('heading', { name: 'Your workspaces' })).closest('section')!;
    expect(workspaces).toHaveTextContent('You are not a member of any workspace yet.');
    expect(screen.getByRole('heading', { name: 'Your nodes' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Your teams' }).closest('section')).toHaveTextContent(
      'You do not belong to any team yet.',
    );
    expect(screen.queryByText(/waiting for your decision/)).not.toBeInTheDocument();
  });

  it("home: lists the user's workspaces and teams with their roles", async () => {
    db.user = makeUser({
      teams: [{ id: 1, name: 'edgelab', fullname: 'Edge Lab', shortname: 'EL', role: 'owner' }],
      workspaces: [{ id: 4, name: 'vision', label: 'Vision', namespace: 'edgelab-vision', team: { id: 1, name: 'edgelab' }, role: 'member' }],
    });
    renderApp({ path: '/', loggedIn: true });
    const teams = (await screen.findByRole('heading', { name: 'Your teams' })).closest('section') as HTMLElement;
    expect(within(teams).getByText('Edge Lab')).toBeInTheDocument();
    expect(within(teams).getByText('Owner')).toBeInTheDocument();
    const workspaces = screen.getByRole('heading', { name: 'Your workspaces' }).closest('section') as HTMLElement;
    expect(within(workspaces).getByText('Vision')).toBeInTheDocument();
    expect(within(workspaces).getByText('Member')).toBeInTheDocument();
  });

  it('home: a team the person asked to join or to create shows as pending, not as "no team"', async () => {
    db.user = makeUser({
      requests: [
        { id: 31, type: 'JoinTeam', status: 'Pending', created_at: '2026-11-20T10:00:00Z', object: { id: 5, name: 'roboticslab', fullname: 'Robotics Lab', shortname: 'RL' } },
        { id: 32, type: 'CreateTeam', status: 'Pending', created_at: '2026-11-21T10:00:00Z', object: { name: 'astro', fullname: 'Astro Group', shortname: null } },
        // Decided requests and other kinds are not teams on their way.
        { id: 33, type: 'JoinTeam', status: 'Denied', created_at: '2026-11-19T10:00:00Z', object: { id: 6, name: 'old', fullname: 'Old Team' } },
        { id: 34, type: 'JoinWorkspace', status: 'Pending', created_at: '2026-11-19T10:00:00Z', object: { id: 9, name: 'ws', label: 'Some Workspace' } },
      ],
    });
    renderApp({ path: '/', loggedIn: true });
    const teams = (await screen.findByRole('heading', { name: 'Your teams' })).closest('section') as HTMLElement;
    expect(teams).not.toHaveTextContent('You do not belong to any team yet.');
    expect(within(teams).getByText('Robotics Lab (RL)').closest('li')).toHaveTextContent('Request to join — pending approval');
    expect(within(teams).getByText('Astro Group').closest('li')).toHaveTextContent('New team — pending approval');
    expect(within(teams).queryByText('Old Team')).not.toBeInTheDocument();
    expect(within(teams).queryByText('Some Workspace')).not.toBeInTheDocument();
  });

  it('home: the pending team request in French', async () => {
    localStorage.setItem(LOCALE_KEY, 'fr');
    db.user = makeUser({
      locale: 'fr',
      requests: [{ id: 31, type: 'JoinTeam', status: 'Pending', created_at: '2026-11-20T10:00:00Z', object: { id: 5, name: 'roboticslab', fullname: 'Robotics Lab', shortname: 'RL' } }],
    });
    renderApp({ path: '/', loggedIn: true });
    const teams = (await screen.findByRole('heading', { name: 'Vos équipes' }, { timeout: 10_000 })).closest('section') as HTMLElement;
    expect(within(teams).getByText('Robotics Lab (RL)').closest('li')).toHaveTextContent('Demande d’adhésion — en attente d’approbation');
    expect(teams).not.toHaveTextContent('Vous n’appartenez encore à aucune équipe.');
  });

  it('sidebar: Console Home, Requests, the workspaces tree, Nodes, Tokens and the profile entry; no Admin for non-admins', async () => {
    renderApp({ path: '/', loggedIn: true });
    await screen.findByRole('heading', { name: 'Your workspaces' });
    const menu = document.querySelector('.RaSidebar-fixed, .RaSidebar-paper') as HTMLElement;
    const entries = within(menu).getAllByRole('menuitem').map((item) => item.textContent);
    expect(entries).toEqual(['Console Home', 'Requests', 'Nodes', 'Tokens', 'Ada Lovelace']);
    expect(within(menu).getByText('No workspaces')).toBeInTheDocument();
    expect(within(menu).queryByText('Admin')).not.toBeInTheDocument();
    expect(within(menu).getByRole('menuitem', { name: 'Tokens' })).toHaveAttribute('href', '/tokens');
    expect(within(menu).getByRole('menuitem', { name: 'Ada Lovelace' })).toHaveAttribute('href', '/profile');
  });

  it("an unmatched console route shows 'Unexpected Application Error!' with a link home", async () => {
    renderApp({ path: '/no/such/page', loggedIn: true });
    expect(await screen.findByRole('heading', { name: 'Unexpected Application Error!', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Console Home' })).toHaveAttribute('href', '/');
  });

  it("shows the 'Sandbox cluster' chip only in sandbox mode", async () => {
    const { unmount } = renderApp({ path: '/', loggedIn: true, settings: { sandbox: true } });
    expect(await screen.findByText('Sandbox cluster')).toBeInTheDocument();
    unmount();
    renderApp({ path: '/', loggedIn: true, settings: { sandbox: false } });
    await screen.findByRole('heading', { name: 'Your workspaces' });
    expect(screen.queryByText('Sandbox cluster')).not.toBeInTheDocument();
  });

  it('logged-in users visiting /registration go to the console', async () => {
    renderApp({ path: '/registration', loggedIn: true });
    expect(await screen.findByRole('heading', { name: 'Your workspaces' })).toBeInTheDocument();
  });
});
