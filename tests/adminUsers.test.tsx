import { screen, waitFor, within } from '@testing-library/react';
import { http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { adminUsersDb, makeAdminUserDetail, resetAdminUsersDb } from './mocks/adminUsers';
import { db, requestsTo } from './mocks/db';
import { makeUser } from './mocks/fixtures';
import { LOCALE_KEY } from '../src/i18n/locale';
import { renderApp } from './render';
import { server } from './mocks/server';

// /admin/users/{id} and the users list's bulk actions (docs/api-contract.md "Admin: users").

beforeEach(() => {
  resetAdminUsersDb();
  db.user = makeUser({ admin: true });
});

const listRows = (count: number) =>
  Array.from({ length: count }, (_, index) => ({
    id: index + 1,
    name: `Person ${String(index + 1).padStart(2, '0')}`,
    email: `person${index + 1}@example.org`,
    admin: index === 0,
    enabled: index !== 2,
    verified: true,
    policy: true,
    created_at: '2026-11-20T08:05:00.000Z',
    teams: [],
    workspaces: [],
  }));

describe('the admin user page', () => {
  it('shows the tabs and disables with a confirmation that says what will be revoked', async () => {
    adminUsersDb.details.set(5, makeAdminUserDetail());
    const { user } = renderApp({ path: '/admin/users/5', loggedIn: true });
    expect(await screen.findByRole('heading', { name: 'Grace Hopper', level: 1 }, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByText('grace@example.org')).toBeInTheDocument();
    for (const tab of ['Summary', 'Teams & workspaces', 'Tokens', 'Nodes', 'Activity']) expect(screen.getByRole('tab', { name: tab })).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'Teams & workspaces' }));
    expect(await screen.findByRole('link', { name: 'edgelab-vision' })).toHaveAttribute('href', '/workspaces/9');

    await user.click(screen.getByRole('button', { name: 'Disable' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Disable Grace Hopper?')).toBeInTheDocument();
    expect(
      within(dialog).getByText(
        'Disabling Grace Hopper revokes 3 personal tokens and 2 kubeconfigs and ends their sessions (1 session). Their nodes are refused until the account is enabled again; their data stays.',
      ),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Disable' }));
    await waitFor(() => expect(requestsTo('PATCH', '/api/admin/users/5')).toHaveLength(1));
    expect(requestsTo('PATCH', '/api/admin/users/5')[0]!.body).toEqual({ enabled: false });
    expect(await screen.findByText('Grace Hopper is disabled.')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Enable' })).toBeInTheDocument();
  });

  it('makes an admin, and revokes one token or all of them, each after a confirmation', async () => {
    adminUsersDb.details.set(5, makeAdminUserDetail());
    const { user } = renderApp({ path: '/admin/users/5', loggedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Make admin' }, { timeout: 5000 }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Grace Hopper will see and act on every team, workspace, user and node.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Make admin' }));
    await waitFor(() => expect(requestsTo('PATCH', '/api/admin/users/5')[0]?.body).toEqual({ admin: true }));
    expect(await screen.findByRole('button', { name: 'Remove admin' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(screen.getByRole('tab', { name: 'Tokens' }));
    await user.click(await screen.findByRole('button', { name: 'Revoke token laptop' }));
    const one = await screen.findByRole('dialog');
    expect(within(one).getByText('Scripts using laptop stop working at once.')).toBeInTheDocument();
    await user.click(within(one).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(requestsTo('DELETE', '/api/admin/users/5/tokens/21')).toHaveLength(1));
    await waitFor(() => expect(screen.queryByText('laptop')).not.toBeInTheDocument());
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: 'Revoke tokens' }));
    const all = await screen.findByRole('dialog');
    expect(within(all).getByText('This revokes 2 personal tokens. Their login sessions stay open.')).toBeInTheDocument();
    await user.click(within(all).getByRole('button', { name: 'Revoke tokens' }));
    await waitFor(() => expect(requestsTo('DELETE', '/api/admin/users/5/tokens')).toHaveLength(1));
    expect(await screen.findByText('No personal access tokens.')).toBeInTheDocument();
  });

  it('does not offer to disable or demote oneself', async () => {
    adminUsersDb.details.set(1, makeAdminUserDetail({ id: 1, name: 'Ada Lovelace', admin: true }));
    renderApp({ path: '/admin/users/1', loggedIn: true });
    expect(await screen.findByRole('button', { name: 'Disable' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Remove admin' })).toBeDisabled();
  });
});

describe('bulk actions on /admin/users', () => {
  it('rows link to the show page; the sidebar filters by flag', async () => {
    db.admin.users = listRows(3);
    const { user } = renderApp({ path: '/admin/users', loggedIn: true });
    expect(await screen.findByText('person2@example.org')).toBeInTheDocument();
    const aside = screen.getByRole('complementary', { name: 'Filters' });
    await user.click(within(aside).getByText('Not verified'));
    await waitFor(() => expect(requestsTo('GET', '/api/admin/users').at(-1)!.url.searchParams.get('filter[verified]')).toBe('false'));

    adminUsersDb.details.set(2, makeAdminUserDetail({ id: 2, name: 'Person 02' }));
    await user.click(await screen.findByText('person2@example.org'));
    expect(await screen.findByRole('heading', { name: 'Person 02', level: 1 }, { timeout: 5000 })).toBeInTheDocument();
    expect(requestsTo('GET', '/api/admin/users/2')).toHaveLength(1);
  });

  it('in French, each count of the confirmation takes its own number', async () => {
    localStorage.setItem(LOCALE_KEY, 'fr');
    db.user = makeUser({ admin: true, locale: 'fr' });
    db.admin.users = listRows(3);
    const { user } = renderApp({ path: '/admin/users', loggedIn: true });
    // The French messages load after the first render: the column header says they are in.
    expect(await screen.findByRole('columnheader', { name: /Nom/ }, { timeout: 10_000 })).toBeInTheDocument();
    // Person 01 is the caller (refused), Person 02 will be disabled.
    for (const email of ['person1@example.org', 'person2@example.org']) {
      await user.click(within(screen.getByText(email).closest('tr')!).getByRole('checkbox'));
    }
    await user.click(screen.getByRole('button', { name: 'Désactiver' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('Désactiver 1 utilisateur ?')).toBeInTheDocument();
    expect(
      within(dialog).getByText(
        'Cela révoque 1 session, 1 jeton personnel et 0 kubeconfig. 1 utilisateur de la sélection restera inchangé (déjà désactivé, vous-même, ou supprimé).',
      ),
    ).toBeInTheDocument();
  });

  it('"select all N matching" acts through the filter: dry-run count, confirmation, progress, per-item summary', async () => {
    db.admin.users = listRows(30);
    const { user } = renderApp({ path: '/admin/users', loggedIn: true });
    await screen.findByText('person2@example.org');
    await user.click(screen.getAllByRole('checkbox', { name: /select all/i })[0]!);
    await user.click(await screen.findByRole('button', { name: 'Select all 30 matching' }));
    expect(screen.getByRole('status')).toHaveTextContent('All 30 matching users are selected.');
    await user.click(screen.getByRole('button', { name: 'Disable' }));

    const dialog = await screen.findByRole('dialog');
    // Person 01 is the caller (id 1: refused), Person 03 is already disabled.
    expect(await within(dialog).findByText('Disable 28 users?')).toBeInTheDocument();
    expect(within(dialog).getByText(/This revokes 28 sessions, 28 personal tokens and 0 kubeconfigs\. 2 users of the selection/)).toBeInTheDocument();
    const dry = requestsTo('POST', '/api/admin/users/bulk')[0]!;
    expect(dry.body).toEqual({ filter: {}, action: 'disable', dry_run: true });
    expect(db.admin.users.filter((row) => row.enabled)).toHaveLength(29);

    await user.click(within(dialog).getByRole('button', { name: 'Disable' }));
    expect(await within(dialog).findByText('28 users disabled. 1 already in that state. 1 refused.')).toBeInTheDocument();
    expect(within(dialog).getByText('#1 (Person 01)')).toBeInTheDocument();
    expect(within(dialog).getByText('You cannot disable your own account.')).toBeInTheDocument();
    expect(requestsTo('POST', '/api/admin/users/bulk')[1]!.body).toEqual({ filter: {}, action: 'disable' });
    expect(db.admin.users.filter((row) => row.enabled).map((row) => row.id)).toEqual([1]);
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('checked rows act by ids', async () => {
    db.admin.users = listRows(3);
    const { user } = renderApp({ path: '/admin/users', loggedIn: true });
    const row = (await screen.findByText('person3@example.org')).closest('tr')!;
    await user.click(within(row).getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Enable' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('Enable 1 user?')).toBeInTheDocument();
    expect(requestsTo('POST', '/api/admin/users/bulk')[0]!.body).toEqual({ ids: [3], action: 'enable', dry_run: true });
    await user.click(within(dialog).getByRole('button', { name: 'Enable' }));
    expect(await within(dialog).findByText('1 user enabled.')).toBeInTheDocument();
  });

  it('a dry run answered after its dialog was closed does not open the dialog again', async () => {
    db.admin.users = listRows(3);
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    server.use(
      http.post('/api/admin/users/bulk', async () => {
        await answered;
        // Nothing answered: msw goes on to the handlers registered before this one.
      }),
    );
    const { user } = renderApp({ path: '/admin/users', loggedIn: true });
    const row = (await screen.findByText('person3@example.org')).closest('tr')!;
    await user.click(within(row).getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Enable' }));
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    answer();
    await waitFor(() => expect(requestsTo('POST', '/api/admin/users/bulk')).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
