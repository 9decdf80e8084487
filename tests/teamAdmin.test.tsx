import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeTeam } from './fixtures.teams';
import { db, requestsTo } from './mocks/db';
import { makeUser } from './mocks/fixtures';
import { LOCALE_KEY } from '../src/i18n/locale';
import { server } from './mocks/server';
import { makeAdminTeamDetail, resetTeamAdminDb, teamAdminDb, teamAdminHandlers } from './mocks/teamAdmin';
import { field } from './queries';
import { renderApp } from './render';

// Teams: the admin team page (/admin/teams/{id}) and the member management of the
// team page (/teams/{id}), against the msw handlers of tests/mocks/teamAdmin.ts.

beforeEach(() => {
  resetTeamAdminDb();
  server.use(...teamAdminHandlers);
});

const asAdmin = () => {
  db.user = makeUser({ admin: true });
};

describe('/admin/teams/{id}', () => {
  it('shows the summary with counts, then the members, workspaces and activity tabs', async () => {
    asAdmin();
    teamAdminDb.details.set(3, makeAdminTeamDetail());
    const { user } = renderApp({ path: '/admin/teams/3', loggedIn: true });
    expect(await screen.findByRole('heading', { name: 'Edge Computing Lab', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('Active')).toBeInTheDocument();
    expect(document.querySelector('[data-count="workspace_members"]')).toHaveTextContent('3');

    await user.click(screen.getByRole('tab', { name: 'Members' }));
    expect(await screen.findByRole('link', { name: 'Grace Hopper' })).toHaveAttribute('href', '/admin/users/5');
    expect(screen.getByText('grace@example.org')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Change roles or remove members on the team page' })).toHaveAttribute('href', '/teams/3');
    await user.click(screen.getByRole('tab', { name: 'Workspaces' }));
    expect(await screen.findByText('edgelab-radio')).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Activity' }));
    expect(await screen.findByText('team created')).toBeInTheDocument();
  });

  it("names the team's category in the console's language", async () => {
    localStorage.setItem(LOCALE_KEY, 'fr');
    db.user = makeUser({ admin: true, locale: 'fr' });
    teamAdminDb.details.set(3, makeAdminTeamDetail({ joining_category: 'Research' }));
    renderApp({ path: '/admin/teams/3', loggedIn: true });
    // The French messages load after the first render: the label says when they are in.
    expect(await screen.findByText('Catégorie', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByText('Recherche')).toBeInTheDocument();
    expect(screen.queryByText('Research')).not.toBeInTheDocument();
  });

  it('opens from the admin teams list (whose cached row has no members) without breaking', async () => {
    asAdmin();
    teamAdminDb.details.set(3, makeAdminTeamDetail());
    db.admin.teams = [{ id: 3, name: 'edgelab', fullname: 'Edge Computing Lab', shortname: 'Edge Lab', country: 'FR', affiliation: null, created_at: '2026-11-20T08:05:00.000Z', member_count: 2, workspace_count: 2, workspaces: [] }];
    const { user } = renderApp({ path: '/admin/teams', loggedIn: true });
    await user.click(await screen.findByRole('link', { name: 'edgelab' }));
    expect(await screen.findByRole('heading', { name: 'Edge Computing Lab', level: 1 })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Suspend' })).toBeInTheDocument();
    expect(document.querySelector('[data-count="members"]')).toHaveTextContent('2');
  });

  it('edits the team; a server field error shows under its field', async () => {
    asAdmin();
    teamAdminDb.details.set(3, makeAdminTeamDetail());
    const { user } = renderApp({ path: '/admin/teams/3', loggedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog');
    await user.clear(field('Full name'));
    await user.type(field('Full name'), 'Edge Lab Renamed');
    await user.clear(field('Website'));
    await user.type(field('Website'), 'ftp://nope');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Invalid URL')).toBeInTheDocument();
    await user.clear(field('Website'));
    await user.type(field('Website'), 'https://renamed.example.org');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(requestsTo('PATCH', '/api/admin/teams/3').at(-1)!.body).toEqual({
      fullname: 'Edge Lab Renamed',
      url: 'https://renamed.example.org',
      country: 'FR',
      affiliation: 'University of X',
    });
    expect(await screen.findByRole('heading', { name: 'Edge Lab Renamed', level: 1 })).toBeInTheDocument();
  });

  it('suspends after saying what it reaches, then enables again', async () => {
    asAdmin();
    teamAdminDb.details.set(3, makeAdminTeamDetail());
    const { user } = renderApp({ path: '/admin/teams/3', loggedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Suspend' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Suspending Edge Computing Lab takes away the rights of its 2 members in the team and their cluster access to its 2 workspaces');
    await user.click(within(dialog).getByRole('button', { name: 'Suspend' }));
    expect(await screen.findByText(/This team is suspended/)).toBeInTheDocument();
    expect(requestsTo('PATCH', '/api/admin/teams/3')[0]!.body).toEqual({ enabled: false });
    // The confirmation closes first (its backdrop covers the page until then).
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.click(await screen.findByRole('button', { name: 'Enable' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Enable' }));
    await waitFor(() => expect(screen.queryByText(/This team is suspended/)).not.toBeInTheDocument());
    expect(requestsTo('PATCH', '/api/admin/teams/3')[1]!.body).toEqual({ enabled: true });
  });

  it("deletes after showing the dry run's list of workspaces and namespaces", async () => {
    asAdmin();
    teamAdminDb.details.set(3, makeAdminTeamDetail());
    const { user } = renderApp({ path: '/admin/teams/3', loggedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText(/Deleting team Edge Computing Lab deletes 2 workspaces and their namespaces: vision, radio\./)).toBeInTheDocument();
    expect(requestsTo('DELETE', '/api/admin/teams/3')).toHaveLength(1);
    expect(requestsTo('DELETE', '/api/admin/teams/3')[0]!.url.search).toBe('?cascade=1&dry_run=1');
    // It cannot be undone: the team's name is typed back first.
    await user.type(within(dialog).getByLabelText('Type edgelab to confirm'), 'edgelab');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(requestsTo('DELETE', '/api/admin/teams/3')).toHaveLength(2));
    expect(requestsTo('DELETE', '/api/admin/teams/3')[1]!.url.search).toBe('?cascade=1');
    expect(teamAdminDb.details.has(3)).toBe(false);
    expect(await screen.findByText('The team Edge Computing Lab was deleted.')).toBeInTheDocument();
  });
});

describe('member management on /teams/{id}', () => {
  it('an owner changes a role with the select and removes a member after confirming', async () => {
    db.teams = [makeTeam()];
    const { user } = renderApp({ path: '/teams/3', loggedIn: true });
    const table = await screen.findByRole('table', { name: 'Users' });
    // Column heads, so that a screen reader names each cell's column (the select and remove columns' are hidden words).
    expect(within(table).getAllByRole('columnheader').map((head) => head.textContent)).toEqual(['Selection', 'Name', 'Role', 'Status', 'Actions']);
    await user.click(within(table).getByRole('combobox', { name: 'Role of Grace Hopper' }));
    await user.click(await screen.findByRole('option', { name: 'Manager' }));
    await waitFor(() => expect(requestsTo('PATCH', '/api/tenants/3/users/5')).toHaveLength(1));
    expect(requestsTo('PATCH', '/api/tenants/3/users/5')[0]!.body).toEqual({ role: 'manager' });
    expect(await screen.findByText('Grace Hopper is now Manager.')).toBeInTheDocument();

    await user.click(within(table).getByRole('button', { name: 'Remove Grace Hopper' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Grace Hopper leaves the team and its workspaces, and loses their cluster access there.');
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(requestsTo('DELETE', '/api/tenants/3/users/5')).toHaveLength(1));
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Users' })).queryByText('Grace Hopper')).not.toBeInTheDocument());
  });

  it('removes the selected members at once and says what was refused', async () => {
    db.teams = [makeTeam()];
    const { user } = renderApp({ path: '/teams/3', loggedIn: true });
    await screen.findByRole('table', { name: 'Users' });
    await user.click(screen.getByRole('checkbox', { name: 'Select every member' }));
    expect(screen.getByText('2 selected')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Remove selected' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Remove 2 members?');
    expect(dialog).toHaveTextContent('Ada Lovelace, Grace Hopper');
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText(/1 removed, 1 refused\. Ada Lovelace: A team keeps at least one owner/)).toBeInTheDocument();
    expect(requestsTo('POST', '/api/tenants/3/users/bulk')[0]!.body).toEqual({ action: 'remove', user_ids: [1, 5] });
  });

  it('a manager cannot touch owners nor make anyone an owner; plain members see the list only', async () => {
    db.teams = [makeTeam({ role: 'manager' })];
    const { user, unmount } = renderApp({ path: '/teams/3', loggedIn: true });
    const table = await screen.findByRole('table', { name: 'Users' });
    expect(within(table).getByRole('combobox', { name: 'Role of Ada Lovelace' })).toHaveAttribute('aria-disabled', 'true');
    expect(within(table).getByRole('button', { name: 'Remove Ada Lovelace' })).toBeDisabled();
    await user.click(within(table).getByRole('combobox', { name: 'Role of Grace Hopper' }));
    expect(await screen.findByRole('option', { name: 'Owner' })).toHaveAttribute('aria-disabled', 'true');
    unmount();

    db.teams = [makeTeam({ role: 'member' })];
    renderApp({ path: '/teams/3', loggedIn: true });
    expect(await screen.findByRole('list', { name: 'Users' })).toBeInTheDocument();
    expect(screen.queryByRole('combobox')).not.toBeInTheDocument();
  });

  it("the only owner's role is not offered (the server would refuse it), with the reason", async () => {
    db.teams = [makeTeam()];
    const { user } = renderApp({ path: '/teams/3', loggedIn: true });
    const table = await screen.findByRole('table', { name: 'Users' });
    const own = within(table).getByRole('combobox', { name: 'Role of Ada Lovelace' });
    expect(own).toHaveAttribute('aria-disabled', 'true');
    // The reason is on the page (a disabled select takes no focus, so a tooltip would reach no
    // keyboard), and it describes the select.
    expect(own).toHaveAccessibleDescription('The team has no other owner: make another member an owner before changing this role.');
    expect(within(table).getByText('The team has no other owner: make another member an owner before changing this role.')).toBeVisible();
    // Another member's role is still offered.
    expect(within(table).getByRole('combobox', { name: 'Role of Grace Hopper' })).not.toHaveAttribute('aria-disabled');
    await user.click(within(table).getByRole('combobox', { name: 'Role of Grace Hopper' }));
    await user.click(await screen.findByRole('option', { name: 'Owner' }));
    await waitFor(() => expect(requestsTo('PATCH', '/api/tenants/3/users/5')).toHaveLength(1));
  });

  it("members of a suspended team are told so, without 'Join this team'", async () => {
    db.teams = [makeTeam({ role: null, member: false, users: undefined, enabled: false })];
    renderApp({ path: '/teams/3', loggedIn: true });
    expect(await screen.findByText(/This team is suspended by the platform admins/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Join this team' })).not.toBeInTheDocument();
  });

  it('platform admins who are not members see the team whole, with the admin page, and no Join button', async () => {
    asAdmin();
    db.teams = [makeTeam({ role: null, member: false })];
    renderApp({ path: '/teams/3', loggedIn: true });
    expect(await screen.findByText('You see this team as a platform admin: you are not a member of it.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Admin page' })).toHaveAttribute('href', '/admin/teams/3');
    expect(screen.queryByRole('button', { name: 'Join this team' })).not.toBeInTheDocument();
    expect(screen.queryByText(/You are not a member of this team/)).not.toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Users' })).toBeInTheDocument();
  });
});
