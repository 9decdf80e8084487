import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { LOCALE_KEY } from '../src/i18n/locale';
import { adminUsersDb, makeAdminUserDetail, resetAdminUsersDb } from './mocks/adminUsers';
import { db, requestsTo } from './mocks/db';
import { makeUser } from './mocks/fixtures';
import { server } from './mocks/server';
import { makeAdminTeamDetail, resetTeamAdminDb, teamAdminDb, teamAdminHandlers } from './mocks/teamAdmin';
import { renderApp } from './render';

// Destructive confirmations look destructive: a red confirm button beside a plain Cancel, and
// for what cannot be undone (a team's deletion) the name typed back before the button works.

beforeEach(() => {
  resetTeamAdminDb();
  resetAdminUsersDb();
  server.use(...teamAdminHandlers);
  db.user = makeUser({ admin: true });
});

describe('destructive confirmations', () => {
  it('disabling a person: red Disable, Cancel without an icon; making an admin is not red', async () => {
    adminUsersDb.details.set(5, makeAdminUserDetail());
    const { user } = renderApp({ path: '/admin/users/5', loggedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Disable' }, { timeout: 8000 }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('button', { name: 'Disable' })).toHaveClass('MuiButton-colorError');
    expect(within(dialog).getByRole('button', { name: 'Cancel' }).querySelector('svg')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: 'Make admin' }));
    const grant = await screen.findByRole('dialog');
    expect(within(grant).getByRole('button', { name: 'Make admin' })).not.toHaveClass('MuiButton-colorError');
  });

  it('deleting a team waits for its name typed back', async () => {
    teamAdminDb.details.set(3, makeAdminTeamDetail());
    const { user } = renderApp({ path: '/admin/teams/3', loggedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Delete' }, { timeout: 8000 }));
    const dialog = await screen.findByRole('dialog');
    const confirm = within(dialog).getByRole('button', { name: 'Delete' });
    expect(confirm).toHaveClass('MuiButton-colorError');
    expect(within(dialog).getByRole('button', { name: 'Cancel' }).querySelector('svg')).toBeNull();
    const typed = within(dialog).getByLabelText('Type edgelab to confirm');
    await user.type(typed, 'edge');
    expect(confirm).toBeDisabled();
    await user.type(typed, 'lab');
    await waitFor(() => expect(confirm).toBeEnabled());
    await user.click(confirm);
    await waitFor(() => expect(requestsTo('DELETE', '/api/admin/teams/3').some((call) => call.url.searchParams.get('dry_run') !== '1')).toBe(true));
  });

  it('says it in French too', async () => {
    localStorage.setItem(LOCALE_KEY, 'fr');
    teamAdminDb.details.set(3, makeAdminTeamDetail());
    const { user } = renderApp({ path: '/admin/teams/3', loggedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Supprimer' }, { timeout: 8000 }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByLabelText('Saisissez edgelab pour confirmer')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Supprimer' })).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Annuler' })).toBeEnabled();
  });
});
