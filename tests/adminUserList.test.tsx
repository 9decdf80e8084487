import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { adminFilterHandlers } from './mocks/adminFilters';
import { db, requestsTo } from './mocks/db';
import { makeUser } from './mocks/fixtures';
import { server } from './mocks/server';
import { renderApp } from './render';

// /admin/users: verified and policy flags as labelled icons, teams and workspaces as
// the first one with '+N', and the team filter (an autocomplete searching the server) that the
// export and the bulk action by filter take too.

const lastQuery = (path: string) => Object.fromEntries(requestsTo('GET', path).at(-1)!.url.searchParams);

const row = (id: number, overrides: Record<string, unknown> = {}) => ({
  id,
  name: `Person ${String(id).padStart(2, '0')}`,
  email: `person${id}@example.org`,
  admin: false,
  enabled: true,
  email_verified_at: '2026-11-20T08:05:00.000Z',
  aup_accepted_at: '2026-11-21T09:30:00.000Z',
  created_at: '2026-11-20T08:05:00.000Z',
  teams: [],
  workspaces: [],
  ...overrides,
});

beforeEach(() => {
  server.use(...adminFilterHandlers);
  db.user = makeUser({ admin: true });
  db.admin.teams = [
    { id: 3, name: 'edgelab', fullname: 'Edge Computing Lab', shortname: 'Edge Lab', country: 'FR', created_at: '2026-11-20T08:05:00.000Z', member_count: 4, workspace_count: 0, workspaces: [] },
    { id: 4, name: 'radio', fullname: 'Radio Lab', shortname: 'RL', country: 'FR', created_at: '2026-11-20T08:05:00.000Z', member_count: 2, workspace_count: 1, workspaces: [] },
  ];
});

describe('the admin users list', () => {
  it('shows verified and policy as icons with labels and dates, the admin and enabled badges', async () => {
    db.admin.users = [
      row(1, { admin: true }),
      row(2, { email_verified_at: null, aup_accepted_at: null, enabled: false }),
    ];
    renderApp({ path: '/admin/users', loggedIn: true });
    const first = (await screen.findByText('person1@example.org')).closest('tr')!;
    expect(within(first).getByRole('img', { name: /^Email verified on 20\/11\/2026 \d\d:05$/ })).toBeInTheDocument();
    expect(within(first).getByRole('img', { name: /^Policy accepted on 21\/11\/2026 \d\d:30$/ })).toBeInTheDocument();
    expect(within(first).getByText('Admin')).toBeInTheDocument();
    expect(within(first).getByText('Enabled')).toBeInTheDocument();
    const second = screen.getByText('person2@example.org').closest('tr')!;
    expect(within(second).getByRole('img', { name: 'Email not verified' })).toBeInTheDocument();
    expect(within(second).getByRole('img', { name: 'Policy not accepted' })).toBeInTheDocument();
    expect(within(second).getByText('Disabled')).toBeInTheDocument();
    expect(within(second).queryByText('Admin')).not.toBeInTheDocument();
  });

  it('shows the first team and workspace with its role and +N naming the others', async () => {
    db.admin.users = [
      row(1, {
        teams: [
          { id: 3, name: 'edgelab', role: 'owner' },
          { id: 4, name: 'radio', role: 'member' },
          { id: 5, name: 'vision-lab', role: 'manager' },
        ],
        workspaces: [{ id: 7, name: 'vision', role: 'manager' }],
      }),
    ];
    renderApp({ path: '/admin/users', loggedIn: true });
    const first = (await screen.findByText('person1@example.org')).closest('tr')!;
    expect(within(first).getByRole('link', { name: 'edgelab' })).toHaveAttribute('href', '/teams/edgelab');
    expect(within(first).getByText('Owner')).toBeInTheDocument();
    expect(within(first).queryByRole('link', { name: 'radio' })).not.toBeInTheDocument();
    expect(within(first).getByLabelText('2 more teams: radio (Member), vision-lab (Manager)')).toHaveTextContent('+2');
    expect(within(first).getByRole('link', { name: 'vision' })).toHaveAttribute('href', '/workspaces/7');
    expect(within(first).getByText('Manager')).toBeInTheDocument();
  });

  it('filters by team with an autocomplete that searches the server; the filtered team shows first; export and bulk take the filter', async () => {
    db.admin.users = Array.from({ length: 30 }, (_, index) =>
      row(index + 1, { teams: [{ id: 3, name: 'edgelab', role: 'member' }, { id: 4, name: 'radio', role: 'owner' }] }),
    );
    const { user } = renderApp({ path: '/admin/users', loggedIn: true });
    await screen.findByText('person2@example.org');
    await user.type(screen.getByRole('combobox', { name: 'Team' }), 'radi');
    await waitFor(() => expect(requestsTo('GET', '/api/admin/teams').some((request) => request.url.searchParams.get('q') === 'radi')).toBe(true));
    await waitFor(() => expect(screen.queryByRole('option', { name: 'edgelab' })).toBeNull());
    await user.click(await screen.findByRole('option', { name: 'radio' }));
    await waitFor(() => expect(lastQuery('/api/admin/users')['filter[team_id]']).toBe('4'));
    // Never a menu of every team: each request for teams is one page of a search.
    expect(requestsTo('GET', '/api/admin/teams').every((request) => Number(request.url.searchParams.get('per_page') ?? 25) <= 25)).toBe(true);

    const first = screen.getByText('person1@example.org').closest('tr')!;
    // The row's first link is the person's name (to their page); the first team comes next.
    await waitFor(() => expect(within(first).getAllByRole('link')[1]).toHaveTextContent('radio'));
    expect(within(first).getByLabelText('1 more team: edgelab (Member)')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(requestsTo('GET', '/api/admin/users.csv')).toHaveLength(1));
    expect(requestsTo('GET', '/api/admin/users.csv')[0]!.url.searchParams.get('filter[team_id]')).toBe('4');

    await user.click(screen.getAllByRole('checkbox', { name: /select all/i })[0]!);
    await user.click(await screen.findByRole('button', { name: 'Select all 30 matching' }));
    await user.click(screen.getByRole('button', { name: 'Disable' }));
    await waitFor(() => expect(requestsTo('POST', '/api/admin/users/bulk')).toHaveLength(1));
    expect(requestsTo('POST', '/api/admin/users/bulk')[0]!.body).toEqual({ filter: { team_id: 4 }, action: 'disable', dry_run: true });
  });
});
