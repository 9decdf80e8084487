import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeTeam, makeWorkspace } from './fixtures.teams';
import { db, requestsTo } from './mocks/db';
import { NOW } from './mocks/fixtures';
import { server } from './mocks/server';
import { errorUnder, field, findField } from './queries';
import { renderApp } from './render';

const openForm = async (path = '/teams/edgelab') => {
  const view = renderApp({ path, loggedIn: true });
  await view.user.click(await screen.findByRole('button', { name: 'Create workspace' }));
  await findField('Label');
  return view;
};

describe('workspace form', () => {
  it('the name follows the label (accents folded) until the name is edited', async () => {
    db.teams = [makeTeam()];
    const { user } = await openForm();
    await user.type(field('Label'), 'Équipe Vision 2');
    expect(field('Name')).toHaveValue('equipe-vision-2');
    await user.clear(field('Name'));
    await user.type(field('Name'), 'mine');
    await user.type(field('Label'), ' more');
    expect(field('Name')).toHaveValue('mine');
  });

  it("says 'Invalid name' for a name that does not match the rule; nothing is sent", async () => {
    db.teams = [makeTeam()];
    const { user } = await openForm();
    await user.type(field('Label'), 'X');
    await user.clear(field('Name'));
    await user.type(field('Name'), '-bad-');
    const dialog = screen.getByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Create workspace' }));
    await waitFor(() => expect(errorUnder('Name')).toBe('Invalid name'));
    expect(requestsTo('POST', '/api/requests/workspaces')).toHaveLength(0);
  });

  it('creates the workspace with POST /api/requests/workspaces and says it was created', async () => {
    db.teams = [makeTeam()];
    const { user } = await openForm();
    await user.type(field('Label'), 'Radio Lab');
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Create workspace' }));
    expect(await screen.findByText('Workspace "radio-lab" created.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(requestsTo('POST', '/api/requests/workspaces')[0]!.body).toEqual({ label: 'Radio Lab', name: 'radio-lab', team_id: 3 });
  });

  it('shows a server 422 under the name', async () => {
    db.teams = [makeTeam()];
    const { user } = await openForm();
    await user.type(field('Label'), 'Vision');
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Create workspace' }));
    await waitFor(() => expect(errorUnder('Name')).toBe('A workspace with this name already exists in this team.'));
  });

  it("shows 'Error creating workspace' when the server gives no message", async () => {
    db.teams = [makeTeam()];
    server.use(http.post('/api/requests/workspaces', () => new HttpResponse(null, { status: 500 })));
    const { user } = await openForm();
    await user.type(field('Label'), 'Radio');
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Create workspace' }));
    expect(await screen.findByText('Error creating workspace')).toBeInTheDocument();
  });
});

describe('workspace page', () => {
  it("members see the users with roles, the kubeconfig button and the Pods section, no join button", async () => {
    db.workspaces = [makeWorkspace()];
    renderApp({ path: '/workspaces/7', loggedIn: true });
    expect(await screen.findByRole('heading', { name: 'Vision', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('Computer vision experiments.')).toBeInTheDocument();
    // The team link is one of the theme's links (MUI Link), not a bare anchor in the browser's blue.
    const teamLink = screen.getByRole('link', { name: 'Edge Computing Lab' });
    expect(teamLink).toHaveAttribute('href', '/teams/edgelab');
    expect(teamLink).toHaveClass('MuiLink-root');
    const users = screen.getByRole('list', { name: 'Users' });
    expect(within(users).getByText('Manager')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Kubeconfig' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download kubeconfig' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Pods' })).toBeInTheDocument();
    expect(document.querySelector('[data-placeholder]')).toBeNull();
    expect(screen.queryByText('The cluster connection arrives in a later release.')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Join workspace' })).not.toBeInTheDocument();
  });

  it("non-members see a notice and 'Join workspace'; after asking, 'Request pending'", async () => {
    db.workspaces = [makeWorkspace({ member: false, role: null, can_manage: false })];
    const { user } = renderApp({ path: '/workspaces/7', loggedIn: true });
    expect(await screen.findByText(/You are not a member of this workspace/)).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Pods' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Download kubeconfig' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Join workspace' }));
    expect(await screen.findByText('Request pending')).toBeInTheDocument();
    expect(requestsTo('PATCH', '/api/requests/workspaces/')[0]!.body).toEqual({ team_id: 3, name: 'vision' });
  });

  it("shows 'Request pending' from the workspace's requests", async () => {
    db.workspaces = [
      makeWorkspace({
        member: false,
        role: null,
        requests: [{ id: 12, user_id: 1, type: 'JoinWorkspace', status: 'Pending', created_at: NOW }],
      }),
    ];
    renderApp({ path: '/workspaces/7', loggedIn: true });
    expect(await screen.findByText('Request pending')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Join workspace' })).not.toBeInTheDocument();
  });

  it("shows 'Error joining workspace' when the server gives no message", async () => {
    db.workspaces = [makeWorkspace({ member: false, role: null })];
    server.use(http.patch('/api/requests/workspaces/', () => new HttpResponse(null, { status: 500 })));
    const { user } = renderApp({ path: '/workspaces/7', loggedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Join workspace' }));
    expect(await screen.findByText('Error joining workspace')).toBeInTheDocument();
  });

  it('a missing workspace (or one the user cannot see) gets a not-found page with a title, not an empty one', async () => {
    db.workspaces = [];
    db.teams = [];
    renderApp({ path: '/workspaces/404', loggedIn: true });
    expect(await screen.findByRole('heading', { level: 1, name: 'Workspace not found' })).toBeInTheDocument();
    expect(screen.getByText('This workspace does not exist, or you cannot see it.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Console Home' })).toHaveAttribute('href', '/');
    // The app bar's title says it too (react-admin's Title portal), so no empty title after its separator.
    await waitFor(() => expect(document.getElementById('react-admin-title')).toHaveTextContent('Workspace not found'));
  });

  it('a missing team gets the same not-found page', async () => {
    db.teams = [];
    renderApp({ path: '/teams/nobody', loggedIn: true });
    expect(await screen.findByRole('heading', { level: 1, name: 'Team not found' })).toBeInTheDocument();
    expect(screen.getByText('This team does not exist, or you cannot see it.')).toBeInTheDocument();
  });
});
