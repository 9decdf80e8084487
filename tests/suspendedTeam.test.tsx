import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeWorkspace } from './fixtures.teams';
import { db, requestsTo } from './mocks/db';
import { makeUser } from './mocks/fixtures';
import { renderApp } from './render';

// A team suspended by platform admins: GET /user lists it in `suspended_teams`
// (not in teams / workspaces); the sidebar keeps it and its workspaces, marked 'Suspended', and
// the workspace page says the team is suspended instead of offering to join what the person is
// already in.

const sidebar = () => document.querySelector('.RaSidebar-fixed, .RaSidebar-paper') as HTMLElement;

const suspendedUser = () =>
  makeUser({
    teams: [{ id: 4, name: 'radio', role: 'member' }],
    workspaces: [{ id: 9, name: 'antenna', label: 'Antenna', team: { id: 4, name: 'radio' }, role: 'member' }],
    suspended_teams: [
      {
        id: 3,
        name: 'edgelab',
        fullname: 'Edge Computing Lab',
        shortname: 'Edge Lab',
        role: 'owner',
        workspaces: [{ id: 7, name: 'vision', label: 'Vision', namespace: 'edgelab-vision' }],
      },
    ],
  });

describe('a suspended team in the sidebar and on its workspace page', () => {
  it('keeps the team and its workspaces in the tree, marked suspended, next to the usable ones', async () => {
    db.user = suspendedUser();
    renderApp({ path: '/', loggedIn: true });
    await screen.findByRole('heading', { name: 'Your workspaces' });
    const menu = sidebar();
    const team = within(menu).getByRole('menuitem', { name: 'edgelab (suspended team)' });
    expect(team).toHaveAttribute('href', '/teams/edgelab');
    expect(within(team).getByText('Suspended')).toBeInTheDocument();
    const workspace = within(menu).getByRole('menuitem', { name: 'Vision (suspended with its team)' });
    expect(workspace).toHaveAttribute('href', '/workspaces/7');
    expect(menu.querySelector('[data-team="edgelab"]')).toHaveAttribute('data-suspended', 'true');
    // The usable team is as before.
    expect(within(menu).getByRole('menuitem', { name: 'radio' })).toBeInTheDocument();
    expect(within(menu).getByRole('menuitem', { name: 'Antenna' })).toBeInTheDocument();
    expect(menu.querySelector('[data-team="radio"]')).not.toHaveAttribute('data-suspended');
    expect(within(menu).getAllByText('Suspended')).toHaveLength(2);
  }, 60_000);

  it("the workspace page says the team is suspended, without 'Join workspace', kubeconfig or pods", async () => {
    db.user = suspendedUser();
    // As the server answers a member of a suspended team: no role.
    db.workspaces = [makeWorkspace({ role: null, member: false, can_manage: false })];
    renderApp({ path: '/workspaces/7', loggedIn: true });
    expect(await screen.findByRole('heading', { name: 'Vision', level: 1 })).toBeInTheDocument();
    expect(
      screen.getByText(
        'The team Edge Computing Lab is suspended by the platform admins: you cannot use its workspaces (no kubeconfig, no pods, no cluster access) until they enable it again. Kubeconfigs downloaded before stay refused: download a new one then.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Join workspace' })).not.toBeInTheDocument();
    expect(screen.queryByText('You are not a member of this workspace. Ask to join it to use it.')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Download kubeconfig' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Pods' })).not.toBeInTheDocument();
    expect(requestsTo('GET', '/api/pods')).toHaveLength(0);
  }, 60_000);

  it('others (not in the team) still get the join notice', async () => {
    db.user = makeUser();
    db.workspaces = [makeWorkspace({ role: null, member: false, can_manage: false })];
    renderApp({ path: '/workspaces/7', loggedIn: true });
    expect(await screen.findByText('You are not a member of this workspace. Ask to join it to use it.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Join workspace' })).toBeInTheDocument();
    expect(screen.queryByText(/is suspended by the platform admins/)).not.toBeInTheDocument();
  }, 60_000);
});
