import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { adminFilterHandlers } from './mocks/adminFilters';
import { db, requestsTo } from './mocks/db';
import { makeUser } from './mocks/fixtures';
import { server } from './mocks/server';
import { renderApp } from './render';
import { FILTER_PANEL_KEY } from '../src/resources/admin/FilterSidebar';

// The admin lists' filter sidebars (react-admin FilterList) and autocompletes: what each
// choice sends to the server.

const lastQuery = (path: string) => Object.fromEntries(requestsTo('GET', path).at(-1)!.url.searchParams);

beforeEach(() => {
  server.use(...adminFilterHandlers);
  db.user = makeUser({ admin: true });
  db.admin.users = [
    { id: 1, name: 'Ada Lovelace', email: 'ada@example.org', admin: true, enabled: true, created_at: '2026-11-20T08:05:00.000Z', teams: [], workspaces: [] },
    { id: 2, name: 'Grace Hopper', email: 'grace@example.org', admin: false, enabled: true, created_at: '2026-11-20T08:05:00.000Z', teams: [], workspaces: [] },
  ];
  db.admin.teams = [
    { id: 3, name: 'edgelab', fullname: 'Edge Computing Lab', shortname: 'Edge Lab', country: 'FR', created_at: '2026-11-20T08:05:00.000Z', member_count: 4, workspace_count: 0, workspaces: [] },
    { id: 4, name: 'radio', fullname: 'Radio Lab', shortname: 'RL', country: 'FR', created_at: '2026-11-20T08:05:00.000Z', member_count: 2, workspace_count: 1, workspaces: [] },
  ];
  db.admin.activity = [];
  // Lists with rows: an empty list shows react-admin's empty page, without filters.
  db.admin.workspaces = [
    { id: 7, name: 'vision', label: 'Vision', namespace: 'edgelab-vision', created_at: '2026-11-20T08:05:00.000Z', team: { id: 3, name: 'edgelab' }, users: [] },
  ];
});

describe('admin filter sidebars', () => {
  it('/admin/activity filters by severity, subject type, date and user (autocomplete searching the server)', async () => {
    const { user } = renderApp({ path: '/admin/activity', loggedIn: true });
    const sidebar = await screen.findByTestId('filter-sidebar');
    await user.click(within(sidebar).getByText('warning'));
    await waitFor(() => expect(lastQuery('/api/admin/activity')['filter[severity]']).toBe('warning'));
    await user.click(within(sidebar).getByText('Team'));
    await waitFor(() => expect(lastQuery('/api/admin/activity')).toMatchObject({ 'filter[severity]': 'warning', 'filter[subject_type]': 'team' }));
    await user.click(within(sidebar).getByText('Last 7 days'));
    const weekAgo = new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10);
    await waitFor(() => expect(lastQuery('/api/admin/activity')['filter[from]']).toBe(weekAgo));
    // Choosing again clears it.
    await user.click(within(sidebar).getByText('warning'));
    await waitFor(() => expect(lastQuery('/api/admin/activity')['filter[severity]']).toBeUndefined());

    await user.type(screen.getByRole('combobox', { name: 'User' }), 'grace');
    // The autocomplete asks the server (q), after a pause in the typing.
    await waitFor(() => expect(requestsTo('GET', '/api/admin/users').some((request) => request.url.searchParams.get('q') === 'grace')).toBe(true));
    await waitFor(() => expect(screen.queryByRole('option', { name: 'Ada Lovelace <ada@example.org>' })).toBeNull());
    await user.click(await screen.findByRole('option', { name: 'Grace Hopper <grace@example.org>' }));
    await waitFor(() => expect(lastQuery('/api/admin/activity')['filter[causer_id]']).toBe('2'));
  });

  it('/admin/teams filters by creation date and workspaces, and counts the members not named in the row', async () => {
    const { user } = renderApp({ path: '/admin/teams', loggedIn: true });
    const row = (await screen.findByText('edgelab')).closest('tr')!;
    // The fixture names none of its 4 members (the server names the first five).
    expect(within(row).getByRole('link', { name: '+4 more' })).toHaveAttribute('href', '/admin/teams/3');
    const sidebar = screen.getByTestId('filter-sidebar');
    await user.click(within(sidebar).getByText('Without workspaces'));
    await waitFor(() => expect(lastQuery('/api/admin/teams')['filter[has_workspaces]']).toBe('false'));
    await user.click(within(sidebar).getByText('Before this year'));
    await waitFor(() => expect(lastQuery('/api/admin/teams')['filter[to]']).toBe(`${new Date().getUTCFullYear() - 1}-12-31`));
  });

  it('/admin/teams has one workspaces column (their names) beside the members', async () => {
    renderApp({ path: '/admin/teams', loggedIn: true });
    await screen.findByText('edgelab');
    const heads = screen.getAllByRole('columnheader').map((head) => head.textContent);
    expect(heads.filter((head) => head === 'Workspaces')).toHaveLength(1);
    expect(heads).toContain('Members');
    expect(heads).not.toContain('Workspace count');
  });

  it('the filter panel folds to a button, and the choice is remembered', async () => {
    const { user, unmount } = renderApp({ path: '/admin/teams', loggedIn: true });
    await screen.findByText('edgelab');
    await user.click(within(screen.getByTestId('filter-sidebar')).getByRole('button', { name: 'Hide filters' }));
    expect(within(screen.getByTestId('filter-sidebar')).queryByText('Without workspaces')).not.toBeInTheDocument();
    expect(localStorage.getItem(FILTER_PANEL_KEY)).toBe('closed');
    unmount();

    const again = renderApp({ path: '/admin/teams', loggedIn: true });
    await screen.findByText('edgelab');
    const sidebar = screen.getByTestId('filter-sidebar');
    expect(within(sidebar).queryByText('Without workspaces')).not.toBeInTheDocument();
    await again.user.click(within(sidebar).getByRole('button', { name: 'Show filters' }));
    expect(await within(screen.getByTestId('filter-sidebar')).findByText('Without workspaces')).toBeInTheDocument();
    expect(localStorage.getItem(FILTER_PANEL_KEY)).toBe('open');
  });

  it('starts folded on a 1280 px screen, where menu, panel and table do not fit side by side', async () => {
    const wide = window.matchMedia;
    // A 1280 px window: min-width and max-width queries both answered for that width.
    window.matchMedia = ((query: string) => {
      const min = /min-width:\s*([\d.]+)px/.exec(query);
      const max = /max-width:\s*([\d.]+)px/.exec(query);
      const matches = (!min || Number(min[1]) <= 1280) && (!max || Number(max[1]) >= 1280);
      return { ...wide(query), matches, media: query };
    }) as typeof window.matchMedia;
    try {
      renderApp({ path: '/admin/teams', loggedIn: true });
      await screen.findByText('edgelab');
      expect(within(screen.getByTestId('filter-sidebar')).getByRole('button', { name: 'Show filters' })).toBeInTheDocument();
      expect(screen.queryByText('Without workspaces')).not.toBeInTheDocument();
    } finally {
      window.matchMedia = wide;
    }
  });

  it('/admin/workspaces picks the team with an autocomplete that searches the server', async () => {
    const { user } = renderApp({ path: '/admin/workspaces', loggedIn: true });
    await screen.findByText('vision');
    const box = screen.getByRole('combobox', { name: 'Team' });
    await user.type(box, 'radi');
    await waitFor(() => expect(requestsTo('GET', '/api/admin/teams').some((request) => request.url.searchParams.get('q') === 'radi')).toBe(true));
    await waitFor(() => expect(screen.queryByRole('option', { name: 'edgelab' })).toBeNull());
    await user.click(await screen.findByRole('option', { name: 'radio' }));
    await waitFor(() => expect(lastQuery('/api/admin/workspaces')['filter[team_id]']).toBe('4'));
  });

  it('/admin/nodes filters by status (nodes not installed yet included) and type', async () => {
    const { user } = renderApp({ path: '/admin/nodes', loggedIn: true });
    const sidebar = await screen.findByTestId('filter-sidebar');
    await user.click(within(sidebar).getByText('To install'));
    await waitFor(() => expect(lastQuery('/api/admin/nodes')['filter[status]']).toBe('to install'));
    await user.click(within(sidebar).getByText('jetson'));
    await waitFor(() => expect(lastQuery('/api/admin/nodes')).toMatchObject({ 'filter[status]': 'to install', 'filter[type]': 'jetson' }));
  });
});
