import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeRequestToDecide, makeTeam } from './fixtures.teams';
import { db, requestsTo } from './mocks/db';
import { createI18nProvider } from '../src/i18n';
import { decisionSummary } from '../src/resources/requests/BulkDecideDialog';
import { renderApp } from './render';

/** A list's first render can take seconds on a busy machine (cold imports, MUI). */
const FIRST_RENDER = { timeout: 10_000 };
// (also for the debounced filters: a busy machine stretches their 500 ms)

describe('requests page', () => {
  it('a friendly empty state when there is nothing to decide', async () => {
    renderApp({ path: '/requests', loggedIn: true });
    // The first render of the file pays for cold imports.
    expect(await screen.findByText('No requests are waiting for your decision.', {}, FIRST_RENDER)).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('rows show type, requester (full name and email), object, message, date and status; Manage only for Pending', async () => {
    db.toDecide = [
      makeRequestToDecide({ id: 12, user: { id: 5, firstname: 'Grace', lastname: 'Hopper', name: 'Grace Hopper', email: 'grace@example.org' } }),
      makeRequestToDecide({ id: 13, type: 'JoinWorkspace', status: 'Denied', object: { id: 7, name: 'vision', label: 'Vision' } }),
    ];
    const { user } = renderApp({ path: '/requests', loggedIn: true });
    const row = (await screen.findByText('Grace Hopper', {}, FIRST_RENDER)).closest('tr')!;
    expect(row).toHaveTextContent('grace@example.org');
    expect(row).toHaveTextContent('Join team');
    expect(row).toHaveTextContent('Edge Computing Lab (Edge Lab)');
    expect(row).toHaveTextContent('Please let me in');
    expect(within(row).getByText(/^20\/11\/2026 \d\d:05$/)).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Manage' })).toBeInTheDocument();
    // Not an admin: the name is not a link to the admin user page.
    expect(within(row).queryByRole('link', { name: 'Grace Hopper' })).not.toBeInTheDocument();
    // Pending by default; the decided one shows with the status filter.
    expect(screen.queryByText('vision')).not.toBeInTheDocument();
    expect(requestsTo('GET', '/api/requests').some((request) => request.url.searchParams.get('filter[status]') === 'Pending')).toBe(true);
    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Denied' }));
    const denied = (await screen.findByText('vision')).closest('tr')!;
    expect(within(denied).getByText('Denied').closest('[data-status]')).toHaveClass('MuiChip-colorError');
    expect(within(denied).queryByRole('button', { name: 'Manage' })).not.toBeInTheDocument();
  });

  it('links the requester to the admin user page for platform admins', async () => {
    db.user = { ...db.user, admin: true };
    db.toDecide = [makeRequestToDecide({ user: { id: 5, firstname: 'Grace', lastname: 'Hopper', name: 'Grace Hopper', email: 'grace@example.org' } })];
    renderApp({ path: '/requests', loggedIn: true });
    expect(await screen.findByRole('link', { name: 'Grace Hopper' })).toHaveAttribute('href', '/admin/users/5');
  });

  it('filters by type, team (autocomplete) and search on the server, paged', async () => {
    db.teams = [makeTeam(), makeTeam({ id: 4, name: 'robolab', fullname: 'Robotics Lab', shortname: 'Robo' })];
    db.toDecide = [
      makeRequestToDecide({ id: 12 }),
      makeRequestToDecide({
        id: 14,
        type: 'CreateWorkspace',
        user: { id: 6, firstname: 'Alan', lastname: 'Turing', name: 'Alan Turing', email: 'alan@example.org' },
        object: { name: 'arms', label: 'Arms' },
        team: { id: 4, name: 'robolab', fullname: 'Robotics Lab' },
        created_at: '2026-11-21T08:05:00.000Z',
      }),
    ];
    const { user } = renderApp({ path: '/requests', loggedIn: true });
    await screen.findByText('Alan Turing', {}, FIRST_RENDER);
    // The list's own calls (the sidebar badge asks for one row).
    const lastQuery = () => requestsTo('GET', '/api/requests').filter((request) => request.url.searchParams.get('per_page') !== '1').at(-1)!.url.searchParams;
    expect(lastQuery().get('page')).toBe('1');
    expect(lastQuery().get('sort')).toBe('created_at');
    expect(lastQuery().get('order')).toBe('desc');

    await user.click(screen.getByRole('combobox', { name: 'Type' }));
    await user.click(await screen.findByRole('option', { name: 'Create workspace' }));
    await waitFor(() => expect(screen.queryByText('Grace Hopper')).not.toBeInTheDocument());
    expect(lastQuery().get('filter[type]')).toBe('CreateWorkspace');
    await user.type(screen.getByPlaceholderText('Search by requester, email or name'), 'alan@');
    await waitFor(() => expect(lastQuery().get('q')).toBe('alan@'), FIRST_RENDER); // the search box waits 500 ms
    expect(lastQuery().get('filter[type]')).toBe('CreateWorkspace');

    await user.type(screen.getByRole('combobox', { name: 'Team' }), 'Robo');
    await user.click(await screen.findByRole('option', { name: 'Robotics Lab' }));
    await waitFor(() => expect(lastQuery().get('filter[team_id]')).toBe('4'), FIRST_RENDER);
    expect(lastQuery().get('q')).toBe('alan@');
    expect(await screen.findByText('Alan Turing')).toBeInTheDocument();
    // The team filter asked the server for matches only, and read the chosen team alone: never every team.
    const teamReads = requestsTo('GET', '/api/tenants');
    expect(teamReads.length).toBeGreaterThan(0);
    expect(teamReads.every((request) => request.url.searchParams.has('q'))).toBe(true);
  });

  it('bulk approve of the checked rows: a dry run, one message for every request, then what happened in words', async () => {
    db.toDecide = [
      makeRequestToDecide({ id: 12 }),
      makeRequestToDecide({ id: 13, user: { id: 6, firstname: 'Alan', lastname: 'Turing', name: 'Alan Turing', email: 'alan@example.org' } }),
      makeRequestToDecide({ id: 15, user: { id: 7, firstname: 'Edsger', lastname: 'Dijkstra', name: 'Edsger Dijkstra', email: 'ed@example.org' } }),
      makeRequestToDecide({ id: 16, can_decide: false, user: { id: 8, firstname: 'Ken', lastname: 'Thompson', name: 'Ken Thompson', email: 'ken@example.org' } }),
    ];
    const { user } = renderApp({ path: '/requests', loggedIn: true });
    await screen.findByText('Alan Turing', {}, FIRST_RENDER);
    await user.click(screen.getByRole('checkbox', { name: 'Select all' }));
    // Decided meanwhile by someone else: the server answers 409 for it.
    db.toDecide[2]!.status = 'Approved';
    await user.click(screen.getByRole('button', { name: 'Approve selected' }));
    // The same dialog as for all matching: the dry run's count and what will not be decided.
    const dialog = await screen.findByRole('dialog', { name: 'Approve 4 requests?' });
    expect(dialog).toHaveTextContent('2 of them will not be decided: 1 not yours to decide, 1 already decided.');
    await user.type(within(dialog).getByLabelText('Message'), 'Welcome');
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    const result = await screen.findByRole('dialog', { name: 'Result' });
    expect(await within(result).findByText('2 requests approved. 1 refused: you may not decide it. 1 was already decided.')).toBeInTheDocument();
    // No HTTP status shown to people.
    expect(result).not.toHaveTextContent(/40[349]/);
    const notDone = within(result).getByRole('list', { name: 'Not done' });
    expect(notDone).toHaveTextContent('#15 (Edsger Dijkstra)This request has already been decided.');
    expect(notDone).toHaveTextContent('#16 (Ken Thompson)You may not decide this request.');
    const sent = requestsTo('POST', '/api/requests/bulk');
    expect(sent.map((request) => request.body)).toEqual([
      { ids: expect.any(Array), action: 'approve', dry_run: true },
      { ids: expect.any(Array), action: 'approve', message: 'Welcome' },
    ]);
    expect((sent[1]!.body as { ids: number[] }).ids.sort()).toEqual([12, 13, 15, 16]);
    await user.click(within(result).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // Refreshed: only the one the caller may not decide is left.
    await waitFor(() => expect(screen.queryByText('Alan Turing')).not.toBeInTheDocument());
    expect(screen.getByText('Ken Thompson')).toBeInTheDocument();
  });

  it('bulk deny without a message sends none', async () => {
    db.toDecide = [makeRequestToDecide({ id: 12 })];
    const { user } = renderApp({ path: '/requests', loggedIn: true });
    const row = (await screen.findByText('Grace Hopper', {}, FIRST_RENDER)).closest('tr')!;
    await user.click(within(row).getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Deny selected' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deny 1 request?' });
    await user.click(within(dialog).getByRole('button', { name: 'Deny' }));
    expect(await screen.findByText('1 request denied.')).toBeInTheDocument();
    expect(requestsTo('POST', '/api/requests/bulk').map((request) => request.body)).toEqual([
      { ids: [12], action: 'deny', dry_run: true },
      { ids: [12], action: 'deny' },
    ]);
  });

  it('approve sends PATCH with the action and message, closes the dialog, notifies and refreshes', async () => {
    db.toDecide = [makeRequestToDecide({ user: { id: 5, firstname: 'Grace', lastname: 'Hopper', name: 'Grace Hopper', email: 'grace@example.org' } })];
    const { user } = renderApp({ path: '/requests', loggedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Manage' }));
    const dialog = await screen.findByRole('dialog', { name: 'Manage request' });
    // The requester by full name and email, not by first name alone.
    expect(within(dialog).getByText('Requester: Grace Hopper <grace@example.org>')).toBeInTheDocument();
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
      ['Why does the testbed need this team?', 'A course on edge robotics.'],
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
    expect(await screen.findByText('1 request is waiting for your decision.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Manage requests' })).toHaveAttribute('href', '/requests');
    expect(requestsTo('GET', '/api/requests').some((request) => request.url.searchParams.get('status') === 'Pending')).toBe(true);
  });
});

describe('the outcome of a bulk decision, in words', () => {
  it('says only what happened, with each language’s plurals and no HTTP status', async () => {
    const provider = createI18nProvider();
    const format = (count: number) => String(count);
    const totals = { requested: 37, decided: 34, forbidden: 2, not_found: 1, conflict: 0 };
    expect(decisionSummary(provider.translate, format, 'approve', totals)).toBe('34 requests approved. 2 refused: you may not decide them. 1 no longer exists.');
    expect(decisionSummary(provider.translate, format, 'deny', { ...totals, decided: 1, forbidden: 0, not_found: 0, conflict: 3 })).toBe(
      '1 request denied. 3 were already decided.',
    );
    await provider.changeLocale('fr');
    expect(decisionSummary(provider.translate, format, 'approve', totals)).toBe(
      '34 demandes approuvées. 2 non traitées : vous ne pouvez pas en décider. 1 n’existe plus.',
    );
    // French takes the singular for 0 and 1.
    expect(decisionSummary(provider.translate, format, 'deny', { requested: 1, decided: 0, forbidden: 0, not_found: 0, conflict: 1 })).toBe(
      '0 demande refusée. 1 était déjà traitée.',
    );
  });
});
