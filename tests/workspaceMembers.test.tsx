import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeWorkspace } from './fixtures.teams';
import { db, requestsTo } from './mocks/db';
import { renderApp } from './render';

// Removing a workspace member (DELETE /api/subnamespaces/{id}/users/{userId}) and leaving.

const grace = { id: 5, name: 'Grace Hopper', enabled: true, pivot: { role: 'user' } };
const ada = { id: 1, name: 'Ada Lovelace', enabled: true, pivot: { role: 'manager' } };

const usersList = async () => screen.findByRole('list', { name: 'Users' });

describe('workspace members', () => {
  it('a manager removes a member after confirming, and the list no longer shows them', async () => {
    db.workspaces = [makeWorkspace({ users: [ada, grace] })];
    const { user } = renderApp({ path: '/workspaces/7', loggedIn: true });
    const list = await usersList();
    await user.click(within(list).getByRole('button', { name: 'Remove Grace Hopper from this workspace' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove Grace Hopper?' });
    expect(dialog).toHaveTextContent('the kubeconfigs they downloaded for it stop working');
    expect(requestsTo('DELETE', '/api/subnamespaces/7/users/5')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(requestsTo('DELETE', '/api/subnamespaces/7/users/5')).toHaveLength(1));
    expect(await screen.findByText('Grace Hopper was removed from the workspace.')).toBeInTheDocument();
    await waitFor(() => expect(within(list).queryByText('Grace Hopper')).not.toBeInTheDocument());
  });

  it('cancelling the confirmation removes nobody', async () => {
    db.workspaces = [makeWorkspace({ users: [ada, grace] })];
    const { user } = renderApp({ path: '/workspaces/7', loggedIn: true });
    const list = await usersList();
    await user.click(within(list).getByRole('button', { name: 'Remove Grace Hopper from this workspace' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove Grace Hopper?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(requestsTo('DELETE', /\/users\//)).toHaveLength(0);
    expect(within(list).getByText('Grace Hopper')).toBeInTheDocument();
  });

  it('a plain member may only leave: no remove buttons for others; leaving goes home', async () => {
    db.workspaces = [makeWorkspace({ role: 'user', can_manage: false, users: [{ ...ada, pivot: { role: 'user' } }, { ...grace, pivot: { role: 'manager' } }] })];
    const { user, path } = renderApp({ path: '/workspaces/7', loggedIn: true });
    const list = await usersList();
    expect(within(list).queryByRole('button', { name: 'Remove Grace Hopper from this workspace' })).not.toBeInTheDocument();
    await user.click(within(list).getByRole('button', { name: 'Leave this workspace' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave this workspace?' });
    await user.click(within(dialog).getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(requestsTo('DELETE', '/api/subnamespaces/7/users/1')).toHaveLength(1));
    await waitFor(() => expect(path()).toBe('/'));
  });
});
