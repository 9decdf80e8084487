import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { adminBulkHandlers } from './mocks/adminBulk';
import { adminFilterHandlers } from './mocks/adminFilters';
import { adminLifecycleHandlers, resetLifecycleDb } from './mocks/adminLifecycle';
import { db, requestsTo } from './mocks/db';
import { makeUser } from './mocks/fixtures';
import { server } from './mocks/server';
import { renderApp } from './render';

// End dates on the admin teams and workspaces lists: the Ends column with its chips, the
// sidebar's "Ends within 7 / 30 days" and "Ended" filters and the sort, and the bulk
// "Extend…": days asked first (90 unless changed), the server's dry run counted, then the
// extension and its per-item result.

/** The whole console's first render takes seconds on a busy machine. */
const FIRST_RENDER = { timeout: 10_000 };

const lastQuery = (path: string) => Object.fromEntries(requestsTo('GET', path).at(-1)!.url.searchParams);
const withFilter = (path: string, filter: Record<string, unknown>) => `${path}?filter=${encodeURIComponent(JSON.stringify(filter))}`;

const team = (id: number, overrides: Record<string, unknown> = {}) => ({
  id,
  name: `team${String(id).padStart(2, '0')}`,
  fullname: `Team ${id}`,
  shortname: `T${id}`,
  created_at: '2026-01-20T08:05:00.000Z',
  member_count: 4,
  workspace_count: 1,
  workspaces: [],
  enabled: true,
  expires_at: '2027-06-01T10:00:00.000Z',
  status: 'active',
  ...overrides,
});

const workspace = (id: number, overrides: Record<string, unknown> = {}) => ({
  id,
  name: `ws${id}`,
  label: `Workspace ${id}`,
  namespace: `edgelab-ws${id}`,
  created_at: '2026-01-20T08:05:00.000Z',
  team: { id: 3, name: 'edgelab' },
  users: [],
  expires_at: '2027-03-01T10:00:00.000Z',
  ends_at: '2027-03-01T10:00:00.000Z',
  status: 'active',
  suspension: null,
  ...overrides,
});

beforeEach(() => {
  resetLifecycleDb();
  // The extension's handlers first: they leave the other actions to the bulk handlers. The
  // filters' handlers answer the team picker's record.
  server.use(...adminLifecycleHandlers, ...adminBulkHandlers, ...adminFilterHandlers);
  db.user = makeUser({ admin: true });
});

describe('/admin/teams: the Ends column and its filters', () => {
  it('shows each review date with a chip when near or past; filters ending within 7 or 30 days, or ended; sorts by it', async () => {
    db.admin.teams = [
      team(1, { expires_at: '2026-11-25T10:00:00.000Z', status: 'expiring' }),
      team(2, { expires_at: '2026-10-01T10:00:00.000Z', status: 'expired' }),
      team(3, { expires_at: null, status: 'active' }),
    ];
    const { user } = renderApp({ path: '/admin/teams', loggedIn: true });
    const row = (name: string) => screen.getByRole('link', { name }).closest('tr')!;
    await screen.findByRole('link', { name: 'team01' }, FIRST_RENDER);
    expect(screen.getByRole('columnheader', { name: /Ends/ })).toBeInTheDocument();
    expect(within(row('team01')).getByText('Expiring')).toBeInTheDocument();
    expect(within(row('team02')).getByText('Expired')).toBeInTheDocument();
    expect(within(row('team03')).getByText('No end date')).toBeInTheDocument();
    expect(within(row('team03')).queryByText(/Expir/)).not.toBeInTheDocument();

    const sidebar = screen.getByTestId('filter-sidebar');
    await user.click(within(sidebar).getByText('Ends within 7 days'));
    await waitFor(() => expect(lastQuery('/api/admin/teams')['filter[expiring_within_days]']).toBe('7'));
    await user.click(within(sidebar).getByText('Ends within 30 days'));
    await waitFor(() => expect(lastQuery('/api/admin/teams')['filter[expiring_within_days]']).toBe('30'));
    // "Ended" replaces the other, and choosing it again clears it.
    await user.click(within(sidebar).getByText('Ended'));
    await waitFor(() => expect(lastQuery('/api/admin/teams')).toMatchObject({ 'filter[expired]': 'true' }));
    expect(lastQuery('/api/admin/teams')['filter[expiring_within_days]']).toBeUndefined();
    await user.click(within(sidebar).getByText('Ended'));
    await waitFor(() => expect(lastQuery('/api/admin/teams')['filter[expired]']).toBeUndefined());

    await user.click(within(screen.getByRole('columnheader', { name: /Ends/ })).getByRole('button'));
    await waitFor(() => expect(lastQuery('/api/admin/teams')).toMatchObject({ sort: 'expires_at' }));
  });
});

describe('/admin/teams: Extend…', () => {
  it('asks the days (90 unless changed), confirms with the dry run’s counts, then lists what was skipped or gone', async () => {
    db.admin.teams = [team(1), team(2, { expires_at: null }), team(3, { expires_at: '2026-10-01T10:00:00.000Z', status: 'expired' })];
    const { user } = renderApp({ path: '/admin/teams', loggedIn: true });
    for (const name of ['team01', 'team02', 'team03']) {
      await user.click(within((await screen.findByRole('link', { name }, FIRST_RENDER)).closest('tr')!).getByRole('checkbox'));
    }
    // Team 3 is deleted by someone else meanwhile.
    db.admin.teams = db.admin.teams.filter((row) => row.id !== 3);
    await user.click(screen.getByRole('button', { name: 'Extend…' }));

    const ask = await screen.findByRole('dialog', { name: 'Extend 3 teams' });
    const days = within(ask).getByRole('spinbutton', { name: 'Days' });
    expect(days).toHaveValue(90);
    // A bad number cannot go on.
    await user.clear(days);
    await user.type(days, '0');
    expect(within(ask).getByText('Give a whole number of days from 1 to 3650.')).toBeInTheDocument();
    expect(within(ask).getByRole('button', { name: 'Continue' })).toBeDisabled();
    await user.clear(days);
    await user.type(days, '30');
    await user.click(within(ask).getByRole('button', { name: 'Continue' }));

    const dialog = await screen.findByRole('dialog', { name: 'Extend 1 team by 30 days?' });
    expect(dialog).toHaveTextContent(
      'The end dates of 1 team move 30 days on (from today for those already past). 1 of the selection has no end date and is left as it is. 1 of the selection no longer exists.',
    );
    expect(requestsTo('POST', '/api/admin/teams/bulk').map((sent) => sent.body)).toEqual([{ ids: [1, 2, 3], action: 'extend', days: 30, dry_run: true }]);
    expect(db.admin.teams.find((row) => row.id === 1)!.expires_at).toBe('2027-06-01T10:00:00.000Z');

    await user.click(within(dialog).getByRole('button', { name: 'Extend' }));
    expect(await within(dialog).findByText('1 end date moved. 1 skipped: it has no end date. 1 no longer exists.')).toBeInTheDocument();
    const notDone = within(dialog).getByRole('list', { name: 'Not done' });
    expect(notDone).toHaveTextContent('#2 (team02)No end date: it does not end, so there is nothing to extend.');
    expect(notDone).toHaveTextContent('#3Not found (deleted meanwhile?)');
    expect(requestsTo('POST', '/api/admin/teams/bulk')[1]!.body).toEqual({ ids: [1, 2, 3], action: 'extend', days: 30 });
    expect(db.admin.teams.find((row) => row.id === 1)!.expires_at).toBe('2027-07-01T10:00:00.000Z');
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(within(screen.getByRole('link', { name: 'team01' }).closest('tr')!).getByRole('checkbox')).not.toBeChecked();
  });

  it('"select all N matching" extends by the list filter, ended teams included', async () => {
    db.admin.teams = Array.from({ length: 30 }, (_, n) => team(n + 1, { expires_at: '2026-10-01T10:00:00.000Z', status: 'expired' }));
    const { user } = renderApp({ path: withFilter('/admin/teams', { q: 'team', expired: true }), loggedIn: true });
    await screen.findByRole('link', { name: 'team01' }, FIRST_RENDER);
    await user.click(screen.getByRole('checkbox', { name: 'Select all' }));
    await user.click(await screen.findByRole('button', { name: 'Select all 30 matching' }));
    await user.click(screen.getByRole('button', { name: 'Extend…' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Extend 30 teams' })).getByRole('button', { name: 'Continue' }));
    const dialog = await screen.findByRole('dialog', { name: 'Extend 30 teams by 90 days?' });
    await user.click(within(dialog).getByRole('button', { name: 'Extend' }));
    expect(await within(dialog).findByText('30 end dates moved.')).toBeInTheDocument();
    expect(requestsTo('POST', '/api/admin/teams/bulk').map((sent) => sent.body)).toEqual([
      { filter: { q: 'team', expired: true }, action: 'extend', days: 90, dry_run: true },
      { filter: { q: 'team', expired: true }, action: 'extend', days: 90 },
    ]);
  });
});

describe('/admin/workspaces: Ends and Extend…', () => {
  it('says when a workspace ends with its team first; an extension says which suspensions lift and which stay', async () => {
    db.admin.workspaces = [
      workspace(1, { expires_at: '2026-11-01T10:00:00.000Z', ends_at: '2026-11-01T10:00:00.000Z', status: 'expired', suspension: 'suspended', suspended: true }),
      workspace(2, { expires_at: '2026-11-02T10:00:00.000Z', ends_at: '2026-10-20T12:00:00.000Z', status: 'expired', suspension: 'suspended', suspended: true, team_ended: true }),
      workspace(3),
    ];
    const { user } = renderApp({ path: '/admin/workspaces', loggedIn: true });
    const second = (await screen.findByRole('link', { name: 'ws2' }, FIRST_RENDER)).closest('tr')!;
    expect(within(second).getByText('Expired')).toBeInTheDocument();
    expect(within(second).getByText(/Ends with its team on 20\/10\/2026/)).toBeInTheDocument();
    for (const name of ['ws1', 'ws2']) await user.click(within(screen.getByRole('link', { name }).closest('tr')!).getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Extend…' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Extend 2 workspaces' })).getByRole('button', { name: 'Continue' }));

    const dialog = await screen.findByRole('dialog', { name: 'Extend 2 workspaces by 90 days?' });
    expect(dialog).toHaveTextContent('1 suspended workspace comes back: its quota and its members’ access are restored.');
    await user.click(within(dialog).getByRole('button', { name: 'Extend' }));
    expect(await within(dialog).findByText('2 end dates moved.')).toBeInTheDocument();
    expect(within(dialog).getByRole('list', { name: 'Not done' })).toHaveTextContent(
      '#2 (ws2)Extended, but still suspended: its team’s review date has passed. Extend or renew the team.',
    );
    expect(requestsTo('POST', '/api/admin/workspaces/bulk').map((sent) => sent.body)).toEqual([
      { ids: [1, 2], action: 'extend', days: 90, dry_run: true },
      { ids: [1, 2], action: 'extend', days: 90 },
    ]);
  });

  it('filters by when it ends; after "select all N matching" Extend… sends the filter and Delete is not offered', async () => {
    db.admin.workspaces = Array.from({ length: 30 }, (_, n) => workspace(n + 1, { status: 'expired' }));
    const { user } = renderApp({ path: withFilter('/admin/workspaces', { team_id: 3 }), loggedIn: true });
    await screen.findByRole('link', { name: 'ws1' }, FIRST_RENDER);
    await user.click(within(screen.getByTestId('filter-sidebar')).getByText('Ended'));
    await waitFor(() => expect(lastQuery('/api/admin/workspaces')).toMatchObject({ 'filter[expired]': 'true', 'filter[team_id]': '3' }));

    await user.click(screen.getByRole('checkbox', { name: 'Select all' }));
    await user.click(await screen.findByRole('button', { name: 'Select all 30 matching' }));
    expect(screen.getByRole('button', { name: 'Delete' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Extend…' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Extend 30 workspaces' })).getByRole('button', { name: 'Continue' }));
    const dialog = await screen.findByRole('dialog', { name: 'Extend 30 workspaces by 90 days?' });
    await user.click(within(dialog).getByRole('button', { name: 'Extend' }));
    expect(await within(dialog).findByText('30 end dates moved.')).toBeInTheDocument();
    expect(requestsTo('POST', '/api/admin/workspaces/bulk').at(-1)!.body).toEqual({ filter: { team_id: 3, expired: true }, action: 'extend', days: 90 });
  });
});
