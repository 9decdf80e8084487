import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeTeam } from './fixtures.teams';
import { db, requestsTo } from './mocks/db';
import { makeUser } from './mocks/fixtures';
import { lifecycleDb, lifecycleHandlers, resetLifecycleDb } from './mocks/lifecycle';
import { resetInvitationDb } from './mocks/invitations';
import { server } from './mocks/server';
import { errorUnder, field } from './queries';
import { renderApp } from './render';

// Inviting a class in one go: the invitation form takes many addresses (split on commas, spaces
// and new lines, each once), says how many, sends them as `emails` with the memberships' end,
// and shows what happened to each address (POST /api/tenants/{id}/invitations {emails}).

const FIRST_RENDER = { timeout: 10_000 };

beforeEach(() => {
  resetLifecycleDb();
  resetInvitationDb();
  server.use(...lifecycleHandlers);
  db.teams = [makeTeam()];
  db.user = makeUser({ teams: [{ id: 3, name: 'edgelab', fullname: 'Edge Computing Lab', shortname: 'Edge Lab', role: 'owner' }] as any });
});

const openDialog = async () => {
  const view = renderApp({ path: '/teams/3', loggedIn: true });
  await view.user.click(await screen.findByRole('button', { name: 'Invite' }, FIRST_RENDER));
  const dialog = await screen.findByRole('dialog', { name: 'Invite someone to Edge Computing Lab' });
  return { ...view, dialog };
};

describe('inviting many addresses', () => {
  it('splits, dedupes and counts them, sends them with the end of the memberships, and shows each outcome', async () => {
    lifecycleDb.members.add('grace@example.org');
    lifecycleDb.invited.add('bob@uni.example');
    lifecycleDb.budgetLeft = 2;
    const { user, dialog } = await openDialog();
    const addresses = field('Email addresses');
    await user.click(addresses);
    await user.paste('ann@uni.example, ben@uni.example\ngrace@example.org  bob@uni.example;ANN@uni.example\nnot-an-address\ncid@uni.example');
    expect(within(dialog).getByText('6 addresses (at most 200)')).toBeInTheDocument();
    await user.type(field('Membership ends'), '2027-06-30');
    await user.click(within(dialog).getByRole('button', { name: 'Send 6 invitations' }));

    await waitFor(() => expect(requestsTo('POST', '/api/tenants/3/invitations')).toHaveLength(1));
    expect(requestsTo('POST', '/api/tenants/3/invitations')[0]!.body).toEqual({
      emails: ['ann@uni.example', 'ben@uni.example', 'grace@example.org', 'bob@uni.example', 'not-an-address', 'cid@uni.example'],
      role: 'member',
      workspace_ids: [],
      membership_expires_at: new Date(2027, 5, 30, 23, 59, 59).toISOString(),
    });
    const results = await within(dialog).findByRole('list', { name: 'What happened to each address' });
    expect(within(dialog).getByText('2 invited, 4 not invited. The invitation limit is reached: try the others again in 30 minutes.')).toBeInTheDocument();
    const outcome = (email: string) => within(results).getByText(email).closest('li')!;
    expect(outcome('ann@uni.example')).toHaveTextContent('Invited');
    expect(outcome('grace@example.org')).toHaveTextContent('This person is already a member of this team.Already a member');
    expect(outcome('bob@uni.example')).toHaveTextContent('Already invited');
    expect(outcome('not-an-address')).toHaveTextContent('Invalid emailNot an address');
    expect(outcome('cid@uni.example')).toHaveTextContent(/You may send 20 invitations per 1 h.*Limit reached/);
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('keeps one address as before: the one-address call, its errors under the field', async () => {
    const { user, dialog } = await openDialog();
    await user.type(field('Email addresses'), '  new@uni.example  ');
    expect(within(dialog).getByRole('button', { name: 'Send the invitation' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Send the invitation' }));
    await waitFor(() => expect(requestsTo('POST', '/api/tenants/3/invitations')[0]?.body).toEqual({ email: 'new@uni.example', role: 'member', workspace_ids: [] }));
    expect(await screen.findByText('Invitation sent to new@uni.example')).toBeInTheDocument();
  });

  it('refuses more than 200 addresses before sending anything', async () => {
    const { user, dialog } = await openDialog();
    await user.click(field('Email addresses'));
    await user.paste(Array.from({ length: 201 }, (_, index) => `s${index}@class.example`).join('\n'));
    await user.click(within(dialog).getByRole('button', { name: 'Send 201 invitations' }));
    expect(errorUnder('Email addresses')).toBe('At most 200 addresses at once.');
    expect(requestsTo('POST', '/api/tenants/3/invitations')).toHaveLength(0);
  });
});
