import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeRequestToDecide, makeTeam } from './fixtures.teams';
import { db, requestsTo } from './mocks/db';
import { lifecycleHandlers, resetLifecycleDb } from './mocks/lifecycle';
import { server } from './mocks/server';
import { errorUnder, field } from './queries';
import { renderApp } from './render';

// Memberships that end (docs/lifecycle.md): the members list says until when, its owners and
// managers set, change or clear the end in a small dialog (PATCH /api/tenants/{id}/users/{userId}
// {expires_at}), and approving a join may give one.

const FIRST_RENDER = { timeout: 10_000 };

beforeEach(() => {
  resetLifecycleDb();
  server.use(...lifecycleHandlers);
});

/** A date field's value (YYYY-MM-DD) `days` from today, and the ISO end of that day here. */
const dayAhead = (days: number) => {
  const date = new Date(Date.now() + days * 86_400_000);
  const value = `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
  return { value, iso: new Date(date.getFullYear(), date.getMonth(), date.getDate(), 23, 59, 59).toISOString() };
};

const teamWithEnds = () =>
  makeTeam({
    users: [
      { id: 1, name: 'Ada Lovelace', firstname: 'Ada', lastname: 'Lovelace', email: 'ada@example.org', enabled: true, pivot: { role: 'owner', expires_at: null } },
      { id: 5, name: 'Grace Hopper', firstname: 'Grace', lastname: 'Hopper', email: 'grace@example.org', enabled: true, pivot: { role: 'member', expires_at: '2027-06-30T21:59:59.000Z' } },
    ],
  });

describe('the members list', () => {
  it('says until when each membership lasts; an owner sets, changes and clears it', async () => {
    db.teams = [teamWithEnds()];
    const { user } = renderApp({ path: '/teams/3', loggedIn: true });
    const table = await screen.findByRole('table', { name: 'Users' }, FIRST_RENDER);
    const grace = within(table).getByText('Grace Hopper').closest('tr')!;
    expect(grace).toHaveTextContent('until 30 June 2027');
    expect(within(table).getByText('Ada Lovelace').closest('tr')).not.toHaveTextContent('until');

    await user.click(within(grace).getByRole('button', { name: 'Membership end of Grace Hopper' }));
    const dialog = await screen.findByRole('dialog', { name: 'Membership of Grace Hopper' });
    expect(field('Membership ends')).toHaveValue('2027-06-30');

    // An empty date is not an end: say so, send nothing.
    await user.clear(field('Membership ends'));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(errorUnder('Membership ends')).toBe('Choose a date.');
    expect(requestsTo('PATCH', '/api/tenants/3/users/5')).toHaveLength(0);

    const end = dayAhead(200);
    await user.type(field('Membership ends'), end.value);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(requestsTo('PATCH', '/api/tenants/3/users/5')).toHaveLength(1));
    expect(requestsTo('PATCH', '/api/tenants/3/users/5')[0]!.body).toEqual({ expires_at: end.iso });
    expect(await screen.findByText(/^The membership of Grace Hopper now ends on /)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    // Cleared: no end.
    await user.click(within(grace).getByRole('button', { name: 'Membership end of Grace Hopper' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'No end date' }));
    await waitFor(() => expect(requestsTo('PATCH', '/api/tenants/3/users/5')[1]?.body).toEqual({ expires_at: null }));
    expect(await screen.findByText('The membership of Grace Hopper no longer ends.')).toBeInTheDocument();
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Users' })).getByText('Grace Hopper').closest('tr')).not.toHaveTextContent('until'));
  });

  it('shows the server’s refusal of a date under the field', async () => {
    db.teams = [teamWithEnds()];
    const { user } = renderApp({ path: '/teams/3', loggedIn: true });
    const table = await screen.findByRole('table', { name: 'Users' }, FIRST_RENDER);
    await user.click(within(table).getByRole('button', { name: 'Membership end of Ada Lovelace' }));
    const dialog = await screen.findByRole('dialog', { name: 'Membership of Ada Lovelace' });
    // No end yet: nothing to clear.
    expect(within(dialog).queryByRole('button', { name: 'No end date' })).not.toBeInTheDocument();
    await user.type(field('Membership ends'), '2020-01-10');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(errorUnder('Membership ends')).toBe('The end date must be in the future.'));
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('a plain member sees the ends, without the buttons', async () => {
    db.teams = [{ ...teamWithEnds(), role: 'member' }];
    renderApp({ path: '/teams/3', loggedIn: true });
    const list = await screen.findByRole('list', { name: 'Users' }, FIRST_RENDER);
    expect(within(list).getByText('Grace Hopper').closest('li')).toHaveTextContent('until 30 June 2027');
    expect(screen.queryByRole('button', { name: /Membership end of/ })).not.toBeInTheDocument();
  });
});

describe('approving a join', () => {
  it('may give the membership an end date', async () => {
    db.toDecide = [makeRequestToDecide({ id: 12, type: 'JoinTeam' })];
    const { user } = renderApp({ path: '/requests', loggedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Manage' }, FIRST_RENDER));
    const dialog = await screen.findByRole('dialog', { name: 'Manage request' });
    const end = dayAhead(90);
    await user.type(field('Membership ends (optional)'), end.value);
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(requestsTo('PATCH', '/api/requests/12')[0]?.body).toEqual({ action: 'approve', membership_expires_at: end.iso }));
  });

  it('sends no end date when none is chosen, nor with a denial', async () => {
    db.toDecide = [makeRequestToDecide({ id: 12, type: 'JoinTeam' })];
    const { user } = renderApp({ path: '/requests', loggedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Manage' }, FIRST_RENDER));
    const dialog = await screen.findByRole('dialog', { name: 'Manage request' });
    await user.type(field('Membership ends (optional)'), dayAhead(30).value);
    await user.click(within(dialog).getByRole('button', { name: 'Deny' }));
    await waitFor(() => expect(requestsTo('PATCH', '/api/requests/12')[0]?.body).toEqual({ action: 'deny' }));
  });
});
