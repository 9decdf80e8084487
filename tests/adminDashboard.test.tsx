import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AdminDashboard } from '../src/resources/admin/dashboard/types';
import { bulkFilter } from '../src/resources/admin/users/BulkUserButtons';
import { adminFilterHandlers } from './mocks/adminFilters';
import { db, requestsTo } from './mocks/db';
import { makeUser } from './mocks/fixtures';
import { authorized, record } from './mocks/http';
import { server } from './mocks/server';
import { renderApp } from './render';

// /admin, the platform admins' overview (GET /api/admin/dashboard): each number links to the
// admin list filtered to what it counts, the top teams to their pages; empty states when there
// is nothing to count; skeletons while it loads.

const FIRST_RENDER = { timeout: 10_000 };

const filled: AdminDashboard = {
  generated_at: '2026-11-27T10:30:00.000Z',
  pending_requests: {
    total: 3,
    by_type: [
      { type: 'CreateTeam', count: 1 },
      { type: 'JoinTeam', count: 2 },
      { type: 'RenewTeam', count: 0 },
    ],
  },
  active_people: { day: 4, week: 12, month: 57 },
  top_teams: {
    from: '2026-11-01T00:00:00.000Z',
    to: '2026-12-01T00:00:00.000Z',
    teams: [
      { id: 3, name: 'edgelab', fullname: 'Edge Computing Lab', cpu_core_hours: 1234.5, memory_gib_hours: 2048 },
      { id: 99, name: null, fullname: null, cpu_core_hours: 12, memory_gib_hours: 0.0042 },
    ],
  },
  capacity: { contributed: { nodes: 2, cpu: 16, memory: 64 }, used: { hour_start: '2026-11-27T09:00:00.000Z', cpu: 12, memory: 16 } },
  nodes_by_status: [
    { status: 'error', count: 1 },
    { status: 'ok', count: 2 },
  ],
  expiring_soon: { days: 30, teams: 2, workspaces: 5 },
};

const empty: AdminDashboard = {
  ...filled,
  pending_requests: { total: 0, by_type: [{ type: 'CreateTeam', count: 0 }] },
  top_teams: { ...filled.top_teams, teams: [] },
  capacity: { contributed: { nodes: 0, cpu: 0, memory: 0 }, used: null },
  nodes_by_status: [],
};

let answer: AdminDashboard;
let hold: Promise<void> | null;

beforeEach(() => {
  answer = filled;
  hold = null;
  db.user = makeUser({ admin: true });
  server.use(
    ...adminFilterHandlers,
    http.get('/api/admin/dashboard', async ({ request }) => {
      await record(request);
      if (!authorized(request)) return HttpResponse.json({ message: 'Unauthenticated.' }, { status: 401 });
      if (hold) await hold;
      return HttpResponse.json(answer as unknown as Record<string, unknown>);
    }),
  );
});

const filterOf = (href: string | null) => {
  const url = new URL(href!, 'http://console.test');
  return { path: url.pathname, filter: JSON.parse(url.searchParams.get('filter') ?? 'null') as unknown };
};
const link = (section: HTMLElement, name: RegExp | string) => filterOf(within(section).getByRole('link', { name }).getAttribute('href'));

describe('/admin: the overview', () => {
  it('links every number to its filtered list and the top teams to their pages', async () => {
    renderApp({ path: '/admin', loggedIn: true });
    const pending = await screen.findByRole('region', { name: 'Pending requests' }, FIRST_RENDER);
    await within(pending).findByRole('link', { name: /Join team/ });
    expect(link(pending, /^3\s*All pending requests$/)).toEqual({ path: '/requests', filter: { status: 'Pending' } });
    expect(link(pending, /^2\s*Join team$/)).toEqual({ path: '/requests', filter: { status: 'Pending', type: 'JoinTeam' } });
    expect(link(pending, /^1\s*Create team$/)).toEqual({ path: '/requests', filter: { status: 'Pending', type: 'CreateTeam' } });
    // A type with nothing pending is not listed.
    expect(within(pending).queryByRole('link', { name: /Renew team/ })).not.toBeInTheDocument();

    const active = screen.getByRole('region', { name: 'Active people' });
    expect(link(active, /^4\s*Last 24 hours$/)).toEqual({ path: '/admin/users', filter: { active_within_days: 1 } });
    expect(link(active, /^12\s*Last 7 days$/)).toEqual({ path: '/admin/users', filter: { active_within_days: 7 } });
    expect(link(active, /^57\s*Last 30 days$/)).toEqual({ path: '/admin/users', filter: { active_within_days: 30 } });

    const expiring = screen.getByRole('region', { name: 'Ending within 30 days' });
    expect(link(expiring, /^2\s*Teams$/)).toEqual({ path: '/admin/teams', filter: { expiring_within_days: 30 } });
    expect(link(expiring, /^5\s*Workspaces$/)).toEqual({ path: '/admin/workspaces', filter: { expiring_within_days: 30 } });

    const nodes = screen.getByRole('region', { name: 'Nodes by status' });
    expect(link(nodes, /^2\s*Ready$/)).toEqual({ path: '/admin/nodes', filter: { status: 'ok' } });
    expect(link(nodes, /^1\s*Error$/)).toEqual({ path: '/admin/nodes', filter: { status: 'error' } });

    const capacity = screen.getByRole('region', { name: 'Capacity' });
    expect(link(capacity, '2 Ready nodes')).toEqual({ path: '/admin/nodes', filter: { status: 'ok' } });
    expect(within(capacity).getByText('12 of 16 cores')).toBeInTheDocument();
    expect(within(capacity).getByText('16 of 64 GiB')).toBeInTheDocument();
    expect(within(capacity).getByRole('meter', { name: 'CPU' })).toHaveAttribute('aria-valuenow', '75');
    expect(within(capacity).getByRole('meter', { name: 'Memory' })).toHaveAttribute('aria-valuenow', '25');

    const top = screen.getByRole('region', { name: 'Top teams this month' });
    expect(within(top).getByRole('link', { name: 'Edge Computing Lab' })).toHaveAttribute('href', '/admin/teams/3');
    expect(within(top).getByText('1,234.5')).toBeInTheDocument();
    // A deleted team's usage stays, without a page to link to.
    expect(within(top).getByText('Deleted team #99')).toBeInTheDocument();
    // A small amount shows its first digits, not 0.
    expect(within(top).getByText('0.0042')).toBeInTheDocument();
    expect(within(top).getAllByRole('link')).toHaveLength(1);
  });

  it('opens the users list filtered on the activity window it counts', async () => {
    db.admin.users = [];
    const { user } = renderApp({ path: '/admin', loggedIn: true });
    const active = await screen.findByRole('region', { name: 'Active people' }, FIRST_RENDER);
    await user.click(await within(active).findByRole('link', { name: /Last 7 days/ }));
    await waitFor(() => expect(requestsTo('GET', '/api/admin/users').length).toBeGreaterThan(0));
    expect(requestsTo('GET', '/api/admin/users').at(-1)!.url.searchParams.get('filter[active_within_days]')).toBe('7');
  });

  it('says when there is nothing to count, and shows skeletons while it loads', async () => {
    answer = empty;
    let release!: () => void;
    hold = new Promise((resolve) => {
      release = resolve;
    });
    renderApp({ path: '/admin', loggedIn: true });
    const capacity = await screen.findByRole('region', { name: 'Capacity' }, FIRST_RENDER);
    expect(capacity).toHaveAttribute('aria-busy', 'true');
    expect(within(capacity).getByTestId('dashboard-skeleton')).toBeInTheDocument();
    release();
    expect(await within(capacity).findByText('No usage accounted yet.')).toBeInTheDocument();
    expect(within(capacity).getByText('No Ready node contributes capacity.')).toBeInTheDocument();
    expect(screen.getByText('No usage accounted yet this month.')).toBeInTheDocument();
    expect(screen.getByText('No requests are waiting.')).toBeInTheDocument();
    expect(screen.getByText('No nodes have been contributed yet.')).toBeInTheDocument();
  });

  it('is the first entry of the admin menu', async () => {
    renderApp({ path: '/admin', loggedIn: true });
    const entry = await screen.findByRole('menuitem', { name: 'Overview' }, FIRST_RENDER);
    expect(entry).toHaveAttribute('href', '/admin');
    const group = screen.getByRole('group', { name: 'Admin' });
    expect(within(group).getAllByRole('menuitem')[0]).toBe(entry);
  });
});

describe('/admin/users: the activity filter the overview links to', () => {
  it('filters on the last 24 hours, 7 days or 30 days, and a bulk action by filter takes it', async () => {
    db.admin.users = [];
    const { user } = renderApp({ path: '/admin/users', loggedIn: true });
    await user.click(await screen.findByText('Last 24 hours', {}, FIRST_RENDER));
    await waitFor(() => expect(requestsTo('GET', '/api/admin/users').at(-1)!.url.searchParams.get('filter[active_within_days]')).toBe('1'));
    expect(bulkFilter({ active_within_days: 30, admin: true })).toEqual({ active_within_days: 30, admin: true });
    expect(bulkFilter({ active_within_days: '' })).toEqual({});
  });
});
