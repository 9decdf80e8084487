import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeRequestToDecide } from './fixtures.teams';
import { db, requestsTo } from './mocks/db';
import { renderApp } from './render';

describe('requests page', () => {
  it('a friendly empty state when there is nothing to decide', async () => {
    renderApp({ path: '/requests', loggedIn: true });
    expect(await screen.findByText('No requests are waiting for your decision.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('rows show type, requester, object, message, date and status; Manage only for Pending', async () => {
    db.toDecide = [
      makeRequestToDecide({ id: 12 }),
      makeRequestToDecide({ id: 13, type: 'JoinWorkspace', status: 'Denied', object: { id: 7, name: 'vision', label: 'Vision' } }),
    ];
    renderApp({ path: '/requests', loggedIn: true });
    const pending = await screen.findByRole('table', { name: 'Waiting for your decision' });
    const row = within(pending).getByText('Grace').closest('tr')!;
    expect(row).toHaveTextContent('Join team');
    expect(row).toHaveTextContent('Edge Computing Lab (Edge Lab)');
    expect(row).toHaveTextContent('Please let me in');
    expect(within(row).getByText(/^20\/11\/2026 \d\d:05$/)).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Manage' })).toBeInTheDocument();
    const decided = screen.getByRole('table', { name: 'Decided' });
    const denied = within(decided).getByText('vision').closest('tr')!;
    expect(within(denied).getByText('Denied').closest('[data-status]')).toHaveClass('MuiChip-colorError');
    expect(within(denied).queryByRole('button', { name: 'Manage' })).not.toBeInTheDocument();
  });

  it('approve sends PATCH with the action and message, closes the dialog, notifies and refreshes', async () => {
    db.toDecide = [makeRequestToDecide()];
    const { user } = renderApp({ path: '/requests', loggedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Manage' }));
    const dialog = await screen.findByRole('dialog', { name: 'Manage request' });
    await user.type(within(dialog).getByLabelText('Message'), 'Welcome');
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Request approved')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Manage request' })).not.toBeInTheDocument());
    expect(requestsTo('PATCH', '/api/requests/12')[0]!.body).toEqual({ action: 'approve', message: 'Welcome' });
    expect(await screen.findByText('No requests are waiting for your decision.')).toBeInTheDocument();
  });

  it('a new team request shows what the requester wrote before the admin decides', async () => {
    db.toDecide = [
      makeRequestToDecide({
        type: 'CreateTeam',
        message: null,
        object: { name: 'edgerobo', fullname: 'Edge Robotics Group', shortname: 'edgerobo' },
        data: {
          affiliation: 'University of Somewhere',
          country: 'Norway',
          url: 'https://robo.example.org',
          joining_category: 'Teaching',
          joining_reason: 'A course on edge robotics.',
        },
      }),
    ];
    const { user } = renderApp({ path: '/requests', loggedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Manage' }));
    const dialog = await screen.findByRole('dialog', { name: 'Manage request' });
    const details = within(dialog).getByLabelText('What was asked');
    const pairs = Array.from(details.querySelectorAll('dt')).map((term) => [term.textContent, term.nextElementSibling?.textContent]);
    expect(pairs).toEqual([
      ['Affiliation', 'University of Somewhere'],
      ['Country', 'Norway'],
      ['Website', 'https://robo.example.org'],
      ['Category', 'Teaching'],
      ['Why do you want to join?', 'A course on edge robotics.'],
    ]);
    expect(within(details).getByRole('link', { name: 'https://robo.example.org' })).toHaveAttribute('href', 'https://robo.example.org');
  });

  it('a join request has no form details: only its message shows', async () => {
    db.toDecide = [makeRequestToDecide()];
    const { user } = renderApp({ path: '/requests', loggedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Manage' }));
    const dialog = await screen.findByRole('dialog', { name: 'Manage request' });
    expect(within(dialog).getByText('Please let me in')).toBeInTheDocument();
    expect(within(dialog).queryByLabelText('What was asked')).not.toBeInTheDocument();
  });

  it('deny on a request decided meanwhile: the dialog closes and the server message is notified', async () => {
    db.toDecide = [makeRequestToDecide()];
    const { user } = renderApp({ path: '/requests', loggedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Manage' }));
    db.toDecide[0]!.status = 'Approved';
    const dialog = await screen.findByRole('dialog', { name: 'Manage request' });
    await user.click(within(dialog).getByRole('button', { name: 'Deny' }));
    expect(await screen.findByText('This request has already been decided.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Manage request' })).not.toBeInTheDocument());
    expect(requestsTo('PATCH', '/api/requests/12')[0]!.body).toEqual({ action: 'deny' });
  });

  it('home shows the pending alert with a link to /requests only when there are some', async () => {
    db.toDecide = [makeRequestToDecide()];
    renderApp({ path: '/', loggedIn: true });
    expect(await screen.findByText('One request is waiting for your decision.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Manage requests' })).toHaveAttribute('href', '/requests');
    expect(requestsTo('GET', '/api/requests').some((request) => request.url.searchParams.get('status') === 'Pending')).toBe(true);
  });
});
