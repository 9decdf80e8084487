import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { db, requestsTo } from './mocks/db';
import { makeUser } from './mocks/fixtures';
import { createI18nProvider } from '../src/i18n';
import { renderApp } from './render';

const adminTeams = (count: number) =>
  Array.from({ length: count }, (_, index) => ({
    id: index + 1,
    name: `team${String(index + 1).padStart(2, '0')}`,
    fullname: `Team ${index + 1}`,
    shortname: `T${index + 1}`,
    country: 'FR',
    created_at: '2026-11-20T08:05:00.000Z',
    member_count: 3,
    // As the server answers: the first members (up to five, owners first) with their role;
    // named in the first row only, to keep 25 rows quick to render on a busy machine.
    users:
      index === 0
        ? [
            { id: 1, name: 'Ada Lovelace', role: 'owner' },
            { id: 2, name: 'Grace Hopper', role: 'manager' },
            { id: 3, name: 'Alan Turing', role: 'member' },
          ]
        : [],
    workspace_count: 1,
    workspaces: [{ id: 100 + index, name: `ws${index + 1}` }],
  }));

describe('admin lists', () => {
  it('/admin/teams sends page, per_page, sort and order, shows the members, links rows to the team page, and paginates on the server', async () => {
    db.user = makeUser({ admin: true });
    db.admin.teams = adminTeams(30);
    const { user } = renderApp({ path: '/admin/teams', loggedIn: true });
    const row = (await screen.findByText('team01')).closest('tr')!;
    expect(within(row).getByRole('link', { name: 'Grace Hopper' })).toHaveAttribute('href', '/admin/users/2');
    expect(within(row).getByRole('link', { name: 'team01' })).toHaveAttribute('href', '/admin/teams/1');
    expect(within(row).getByRole('link', { name: 'ws1' })).toHaveAttribute('href', '/workspaces/100');
    const first = requestsTo('GET', '/api/admin/teams')[0]!.url.searchParams;
    expect(Object.fromEntries(first)).toEqual({ page: '1', per_page: '25', sort: 'name', order: 'asc' });

    await user.click(screen.getByRole('button', { name: 'Go to page 2' }));
    expect(await screen.findByText('team26')).toBeInTheDocument();
    expect(requestsTo('GET', '/api/admin/teams').at(-1)!.url.searchParams.get('page')).toBe('2');

    await user.click(screen.getByRole('button', { name: /Sort by full name/i }));
    await waitFor(() =>
      expect(requestsTo('GET', '/api/admin/teams').at(-1)!.url.searchParams.get('sort')).toBe('fullname'),
    );
  });

  it('/admin/teams shows each team’s first members with their role, then "+N more" to the team page', async () => {
    db.user = makeUser({ admin: true });
    const [big, small, empty] = adminTeams(3);
    db.admin.teams = [
      {
        ...big!,
        member_count: 12,
        users: [
          ...big!.users,
          { id: 4, name: 'Edsger Dijkstra', role: 'member' },
          { id: 5, name: 'Barbara Liskov', role: 'member' },
        ],
      },
      { ...small!, member_count: 1, users: [{ id: 6, name: 'Maximiliane Vandersteenhoven-Oppenheimer', role: 'owner' }] },
      { ...empty!, member_count: 0, users: [] },
    ];
    renderApp({ path: '/admin/teams', loggedIn: true });
    const row = (await screen.findByText('team01')).closest('tr')!;
    const members = within(row).getAllByRole('list')[0]!;
    // Three named, each with a role chip; the rest as a count linking to the team's page.
    expect(within(members).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'ALAda LovelaceOwner',
      'GHGrace HopperManager',
      'ATAlan TuringMember',
      '+9 more',
    ]);
    expect(within(members).getByRole('link', { name: '+9 more' })).toHaveAttribute('href', '/admin/teams/1');
    expect(within(row).queryByText('Edsger Dijkstra')).not.toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Members' })).toBeInTheDocument();

    const one = screen.getByText('team02').closest('tr')!;
    expect(within(one).getByRole('link', { name: 'Maximiliane Vandersteenhoven-Oppenheimer' }).parentElement).toHaveStyle({ textOverflow: 'ellipsis' });
    expect(within(one).queryByText(/more/)).not.toBeInTheDocument();
    expect(within(screen.getByText('team03').closest('tr')!).getByText('No members')).toBeInTheDocument();

    const provider = createI18nProvider();
    await provider.changeLocale('fr');
    expect(provider.translate('teamAdmin.members_more', { smart_count: 1, count: '1' })).toBe('+1 autre');
    expect(provider.translate('teamAdmin.members_more', { smart_count: 9, count: '9' })).toBe('+9 autres');
  });

  it('/admin/users sends the search as q and shows admin and enabled badges', async () => {
    db.user = makeUser({ admin: true });
    db.admin.users = [
      { id: 1, name: 'Ada Lovelace', email: 'ada@example.org', admin: true, enabled: true, created_at: '2026-11-20T08:05:00.000Z', teams: [{ id: 3, name: 'edgelab', role: 'owner' }], workspaces: [] },
    ];
    const { user } = renderApp({ path: '/admin/users', loggedIn: true });
    const row = (await screen.findByText('ada@example.org')).closest('tr')!;
    expect(within(row).getByText('Admin')).toBeInTheDocument();
    expect(within(row).getByText('Enabled')).toBeInTheDocument();
    await user.type(screen.getByPlaceholderText('Search'), 'ada');
    await waitFor(() => expect(requestsTo('GET', '/api/admin/users').at(-1)!.url.searchParams.get('q')).toBe('ada'), { timeout: 3000 });
  });

  it('/admin/activity shows the severity and the DD/MM/YYYY HH:mm:ssZ timestamp', async () => {
    db.user = makeUser({ admin: true });
    db.admin.activity = [
      { id: 1, causer: { id: 1, name: 'Ada Lovelace' }, description: 'failed login', subject: { id: 1, name: 'Ada Lovelace' }, subject_type: 'user', properties: { severity: 'warning' }, created_at: '2026-11-20T08:05:09.000Z' },
    ];
    renderApp({ path: '/admin/activity', loggedIn: true });
    const row = (await screen.findByText('failed login')).closest('tr')!;
    expect(within(row).getByText('warning')).toBeInTheDocument();
    expect(within(row).getByText(/^20\/11\/2026 \d\d:05:09[+-]\d\d:\d\d$/)).toBeInTheDocument();
  });

  it("non-admins get 'Unexpected Application Error!' on admin routes and nothing is fetched", async () => {
    renderApp({ path: '/admin/users', loggedIn: true });
    expect(await screen.findByRole('heading', { name: 'Unexpected Application Error!', level: 1 })).toBeInTheDocument();
    expect(requestsTo('GET', '/api/admin/users')).toHaveLength(0);
  });
});
