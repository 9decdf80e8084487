import { screen, waitFor, within } from '@testing-library/react';
import { http } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeRequestToDecide } from './fixtures.teams';
import { adminBulkHandlers } from './mocks/adminBulk';
import { db, requestsTo } from './mocks/db';
import { makeUser } from './mocks/fixtures';
import { makeAdminNode, nodesDb } from './mocks/nodes';
import { server } from './mocks/server';
import { renderApp } from './render';

// Bulk actions: "Select all N matching" on /requests sends the filter (the server
// decides every match), and row selection with bulk actions on the admin teams (suspend /
// enable), workspaces (delete) and nodes and activity (Export selected) lists. Each action
// asks the server for a dry run first, confirms with its counts, shows progress, then the
// per-item summary.

/** The whole console's first render takes seconds on a busy machine. */
const FIRST_RENDER = { timeout: 10_000 };

const withFilter = (path: string, filter: Record<string, unknown>) => `${path}?filter=${encodeURIComponent(JSON.stringify(filter))}`;

/** A gate for the next non-dry-run call to `path`: the call waits until `release()`, then the registered handlers answer it. */
const holdAction = (path: string) => {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  server.use(
    http.post(path, async ({ request }) => {
      const body = (await request.clone().json()) as { dry_run?: boolean };
      if (!body.dry_run) await released;
      // Nothing answered: msw goes on to the handlers registered before this one.
    }),
  );
  return () => release();
};

beforeEach(() => {
  server.use(...adminBulkHandlers);
  db.user = makeUser({ admin: true });
});

// A page of requests with its filter form is the slowest render of the console.
describe('/requests: select all N matching', { timeout: 60_000 }, () => {
  it('sends the filter, not ids: "Approve all 1,234 matching requests?" from a dry run, progress, then what happened in words', async () => {
    db.toDecide = Array.from({ length: 1234 }, (_, n) =>
      makeRequestToDecide({
        id: 100 + n,
        user: { id: 1000 + n, firstname: 'Person', lastname: String(n), name: `Person ${n}`, email: `person${n}@example.org` },
        created_at: new Date(Date.UTC(2026, 10, 1) + n * 60_000).toISOString(),
        // The newest (on the first page): one the caller may see but not decide.
        ...(n === 1233 ? { can_decide: false } : {}),
      }),
    );
    const { user } = renderApp({ path: '/requests', loggedIn: true });
    await screen.findByText('Person 1232', {}, FIRST_RENDER);
    await user.click(screen.getByRole('checkbox', { name: 'Select all' }));
    await user.click(await screen.findByRole('button', { name: 'Select all 1,234 matching' }));
    expect(screen.getByRole('status')).toHaveTextContent('All 1,234 matching requests are selected');
    expect(screen.queryByRole('button', { name: /All 1,234 matching/ })).not.toBeInTheDocument();

    const release = holdAction('/api/requests/bulk');
    await user.click(screen.getByRole('button', { name: 'Approve selected' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve all 1,234 matching requests?' });
    // The dialog opens at once and says what the dry run found when it answers.
    expect(await within(dialog).findByText(/1 of them will not be decided: 1 not yours to decide\./)).toBeInTheDocument();
    expect(requestsTo('POST', '/api/requests/bulk').map((sent) => sent.body)).toEqual([{ filter: { status: 'Pending' }, action: 'approve', dry_run: true }]);
    expect(db.toDecide.filter((item) => item.status === 'Pending')).toHaveLength(1234);

    await user.type(within(dialog).getByLabelText('Message'), 'Welcome');
    await user.click(within(dialog).getByRole('button', { name: 'Approve all' }));
    expect(await within(dialog).findByText('Deciding 1,233 requests…')).toBeInTheDocument();
    expect(within(dialog).getByRole('progressbar', { name: 'Progress' })).toBeInTheDocument();
    release();

    expect(await within(dialog).findByText('1,233 requests approved. 1 refused: you may not decide it.')).toBeInTheDocument();
    const notDecided = within(dialog).getByRole('list', { name: 'Not done' });
    // The requester's name where the row was loaded.
    expect(notDecided).toHaveTextContent('#1333 (Person 1233)');
    expect(notDecided).toHaveTextContent('You may not decide this request.');
    expect(requestsTo('POST', '/api/requests/bulk')[1]!.body).toEqual({ filter: { status: 'Pending' }, action: 'approve', message: 'Welcome' });
    expect(db.toDecide.filter((item) => item.status === 'Approved')).toHaveLength(1233);

    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // Refreshed: only the one the caller may not decide is still pending.
    await waitFor(() => expect(screen.queryByText('Person 1232')).not.toBeInTheDocument());
    expect(screen.getByText('Person 1233')).toBeInTheDocument();
  });

  it('carries the list filters (type, team, search) into the bulk filter', async () => {
    db.toDecide = Array.from({ length: 30 }, (_, n) =>
      makeRequestToDecide({ id: 100 + n, type: 'JoinWorkspace', user: { id: 1000 + n, firstname: 'Ann', lastname: String(n), name: `Ann ${n}`, email: `ann${n}@example.org` } }),
    );
    const { user } = renderApp({ path: withFilter('/requests', { status: 'Pending', type: 'JoinWorkspace', team_id: 3, q: 'ann' }), loggedIn: true });
    await screen.findByText('Ann 29', {}, FIRST_RENDER);
    await user.click(screen.getByRole('checkbox', { name: 'Select all' }));
    await user.click(await screen.findByRole('button', { name: 'Select all 30 matching' }));
    await user.click(screen.getByRole('button', { name: 'Deny selected' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deny all 30 matching requests?' });
    await user.click(within(dialog).getByRole('button', { name: 'Deny all' }));
    expect(await within(dialog).findByText('30 requests denied.')).toBeInTheDocument();
    expect(requestsTo('POST', '/api/requests/bulk').map((sent) => sent.body)).toEqual([
      { filter: { status: 'Pending', type: 'JoinWorkspace', team_id: 3, q: 'ann' }, action: 'deny', dry_run: true },
      { filter: { status: 'Pending', type: 'JoinWorkspace', team_id: 3, q: 'ann' }, action: 'deny' },
    ]);
  });
});

const team = (id: number, overrides: Record<string, unknown> = {}) => ({
  id,
  name: `team${String(id).padStart(2, '0')}`,
  fullname: `Team ${id}`,
  shortname: `T${id}`,
  created_at: '2026-11-20T08:05:00.000Z',
  member_count: 4,
  workspace_count: 2,
  workspaces: [],
  enabled: true,
  ...overrides,
});

describe('/admin/teams: bulk suspend and enable', () => {
  it('checked rows: the dry run says whom it reaches, then the per-item summary (a team gone meanwhile: not found)', async () => {
    db.admin.teams = [team(1), team(2, { member_count: 7, workspace_count: 3 }), team(3)];
    const { user } = renderApp({ path: '/admin/teams', loggedIn: true });
    const first = (await screen.findByRole('link', { name: 'team01' }, FIRST_RENDER)).closest('tr')!;
    await user.click(within(first).getByRole('checkbox'));
    await user.click(within(screen.getByRole('link', { name: 'team02' }).closest('tr')!).getByRole('checkbox'));
    // Team 1 is deleted by someone else meanwhile.
    db.admin.teams = db.admin.teams.filter((row) => row.id !== 1);

    const release = holdAction('/api/admin/teams/bulk');
    await user.click(screen.getByRole('button', { name: 'Suspend' }));
    const dialog = await screen.findByRole('dialog', { name: 'Suspend 1 team?' });
    expect(dialog).toHaveTextContent(
      'Suspending 1 team takes cluster access from 7 members in 3 workspaces. Nothing is deleted: enabling them gives it back (members download new kubeconfigs). 1 of the selection will be left as it is (already in that state, or gone).',
    );
    expect(requestsTo('POST', '/api/admin/teams/bulk')[0]!.body).toEqual({ ids: [1, 2], action: 'suspend', dry_run: true });
    await user.click(within(dialog).getByRole('button', { name: 'Suspend' }));
    expect(await within(dialog).findByText('Working on 1 team…')).toBeInTheDocument();
    release();
    expect(await within(dialog).findByText('1 team suspended. 1 no longer exists.')).toBeInTheDocument();
    expect(within(dialog).getByRole('list', { name: 'Not done' })).toHaveTextContent('#1Not found (deleted meanwhile?)');
    expect(requestsTo('POST', '/api/admin/teams/bulk')[1]!.body).toEqual({ ids: [1, 2], action: 'suspend' });
    expect(db.admin.teams.find((row) => row.id === 2)!.enabled).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // The selection is cleared.
    expect(within(screen.getByRole('link', { name: 'team02' }).closest('tr')!).getByRole('checkbox')).not.toBeChecked();
  });

  it('"select all N matching" sends the list filter (search, dates, with workspaces) instead of ids', async () => {
    db.admin.teams = Array.from({ length: 30 }, (_, n) => team(n + 1, { enabled: false }));
    const { user } = renderApp({ path: withFilter('/admin/teams', { q: 'team', has_workspaces: 'true', from: '2026-01-01' }), loggedIn: true });
    await screen.findByRole('link', { name: 'team01' }, FIRST_RENDER);
    await user.click(screen.getByRole('checkbox', { name: 'Select all' }));
    await user.click(await screen.findByRole('button', { name: 'Select all 30 matching' }));
    await user.click(screen.getByRole('button', { name: 'Enable' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enable 30 teams?' });
    expect(dialog).toHaveTextContent('Enabling 30 teams gives 120 members their rights and their cluster access in 60 workspaces back.');
    await user.click(within(dialog).getByRole('button', { name: 'Enable' }));
    expect(await within(dialog).findByText('30 teams enabled.')).toBeInTheDocument();
    const filter = { q: 'team', from: '2026-01-01', has_workspaces: true };
    expect(requestsTo('POST', '/api/admin/teams/bulk').map((sent) => sent.body)).toEqual([
      { filter, action: 'enable', dry_run: true },
      { filter, action: 'enable' },
    ]);
  });

  it('nothing to do: the confirmation says so and cannot be confirmed', async () => {
    db.admin.teams = [team(1, { enabled: false })];
    const { user } = renderApp({ path: '/admin/teams', loggedIn: true });
    await user.click(within((await screen.findByRole('link', { name: 'team01' }, FIRST_RENDER)).closest('tr')!).getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Suspend' }));
    const dialog = await screen.findByRole('dialog', { name: 'Suspend 0 teams?' });
    expect(dialog).toHaveTextContent('Nothing to do: every selected team is already in that state, or gone.');
    expect(within(dialog).getByRole('button', { name: 'Suspend' })).toBeDisabled();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(requestsTo('POST', '/api/admin/teams/bulk')).toHaveLength(1);
  });
});

describe('/admin/workspaces: bulk delete', () => {
  it('confirms with the count, the members and the namespaces from a dry run, then deletes and refreshes', async () => {
    db.admin.workspaces = [1, 2, 3].map((id) => ({
      id,
      name: `ws${id}`,
      label: `Workspace ${id}`,
      namespace: `edgelab-ws${id}`,
      created_at: '2026-11-20T08:05:00.000Z',
      team: { id: 3, name: 'edgelab' },
      users: Array.from({ length: id }, (_, n) => ({ id: 10 + n, name: `Member ${n}`, role: 'member' })),
    }));
    const { user } = renderApp({ path: '/admin/workspaces', loggedIn: true });
    for (const name of ['ws2', 'ws3']) {
      await user.click(within((await screen.findByRole('link', { name }, FIRST_RENDER)).closest('tr')!).getByRole('checkbox'));
    }
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete 2 workspaces?' });
    expect(dialog).toHaveTextContent('Deleting 2 workspaces deletes their namespaces and pods, and takes cluster access from 3 members. Each member is told. This cannot be undone.');
    expect(within(dialog).getByRole('list', { name: 'Delete 2 workspaces?' })).toHaveTextContent('edgelab-ws2 (2 members)edgelab-ws3 (3 members)');
    expect(db.admin.workspaces).toHaveLength(3);

    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(dialog).findByText('2 workspaces deleted.')).toBeInTheDocument();
    expect(requestsTo('POST', '/api/admin/workspaces/bulk').map((sent) => sent.body)).toEqual([
      { ids: [2, 3], action: 'delete', dry_run: true },
      { ids: [2, 3], action: 'delete' },
    ]);
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'ws3' })).not.toBeInTheDocument());
    expect(screen.getByRole('link', { name: 'ws1' })).toBeInTheDocument();
  });

  it("shows the server's refusal instead of a confirmation", async () => {
    db.admin.workspaces = [{ id: 1, name: 'ws1', label: 'Workspace 1', namespace: 'edgelab-ws1', created_at: '2026-11-20T08:05:00.000Z', team: { id: 3, name: 'edgelab' }, users: [] }];
    const { user } = renderApp({ path: '/admin/workspaces', loggedIn: true });
    await user.click(within((await screen.findByRole('link', { name: 'ws1' }, FIRST_RENDER)).closest('tr')!).getByRole('checkbox'));
    db.user = { ...db.user, admin: false };
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('This action is unauthorized.');
    expect(within(dialog).queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });
});

describe('Export selected on /admin/nodes and /admin/activity', () => {
  let clicked: string[];

  beforeEach(() => {
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:mock-csv'), revokeObjectURL: vi.fn() });
    clicked = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
  });
  afterEach(() => vi.restoreAllMocks());

  it('downloads the CSV of just the checked rows: filter[ids], nodes by name', async () => {
    db.admin.activity = [7, 8, 9].map((id) => ({
      id,
      causer: null,
      description: `entry ${id}`,
      subject: null,
      subject_type: 'user',
      properties: { severity: 'info' },
      created_at: '2026-11-20T08:05:09.000Z',
    }));
    const activity = renderApp({ path: '/admin/activity', loggedIn: true });
    for (const text of ['entry 7', 'entry 9']) {
      await activity.user.click(within((await screen.findByText(text, {}, FIRST_RENDER)).closest('tr')!).getByRole('checkbox'));
    }
    await activity.user.click(screen.getByRole('button', { name: 'Export selected' }));
    await waitFor(() => expect(clicked).toEqual(['activity-2026-11-22.csv']));
    expect(Object.fromEntries(requestsTo('GET', '/api/admin/activity.csv')[0]!.url.searchParams)).toEqual({ 'filter[ids]': '7,9' });
    activity.unmount();

    nodesDb.adminNodes = [makeAdminNode({ name: 'rpi-1' }), makeAdminNode({ name: 'rpi-2', node_id: 42 })];
    const nodes = renderApp({ path: '/admin/nodes', loggedIn: true });
    await nodes.user.click(within((await screen.findByRole('link', { name: 'rpi-2' }, FIRST_RENDER)).closest('tr')!).getByRole('checkbox'));
    await nodes.user.click(screen.getByRole('button', { name: 'Export selected' }));
    await waitFor(() => expect(clicked).toContain('nodes-2026-11-22.csv'));
    expect(Object.fromEntries(requestsTo('GET', '/api/admin/nodes.csv')[0]!.url.searchParams)).toEqual({ 'filter[ids]': 'rpi-2' });
  });
});
