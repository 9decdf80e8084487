import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { adminWorkspaceHandlers, adminWorkspacesDb, makeAdminWorkspaceDetail, resetAdminWorkspacesDb } from './mocks/adminWorkspaces';
import { db, requestsTo } from './mocks/db';
import { makeUser } from './mocks/fixtures';
import { server } from './mocks/server';
import { errorUnder, field, findField } from './queries';
import { renderApp } from './render';

// /admin/workspaces/{id}: the show page, its quota form and its deletion.

beforeEach(() => {
  resetAdminWorkspacesDb();
  server.use(...adminWorkspaceHandlers);
  db.user = makeUser({ admin: true });
  adminWorkspacesDb.details.set(9, makeAdminWorkspaceDetail());
});

describe('/admin/workspaces/{id}', () => {
  it('is linked from the admin workspaces list and shows summary, members and activity tabs', async () => {
    db.admin.workspaces = [
      { id: 9, name: 'vision', label: 'Vision', namespace: 'edgelab-vision', created_at: '2026-11-20T08:05:00.000Z', team: { id: 3, name: 'edgelab' }, users: [] },
    ];
    const { user } = renderApp({ path: '/admin/workspaces', loggedIn: true });
    // The whole console renders first: slow on a loaded machine.
    const link = await screen.findByRole('link', { name: 'vision' }, { timeout: 10_000 });
    expect(link).toHaveAttribute('href', '/admin/workspaces/9');
    await user.click(link);

    expect(await screen.findByText('4 members, 1 managing; 2 pending join requests', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getAllByText('Vision (edgelab-vision)').length).toBeGreaterThan(0);
    expect(screen.getByText('enforce baseline, warn restricted, audit restricted (v1.34)')).toBeInTheDocument();
    expect(screen.getByText('Ready')).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'Members' }));
    const grace = (await screen.findByRole('link', { name: 'Grace Hopper' })).closest('tr')!;
    expect(within(grace).getByText('grace@example.org')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Grace Hopper' })).toHaveAttribute('href', '/admin/users/5');

    await user.click(screen.getByRole('tab', { name: 'Activity' }));
    expect(await screen.findByText('workspace created')).toBeInTheDocument();
  });

  it('edits the quota: the server refusal shows under the field, then the values are sent (empty = the default)', async () => {
    const { user } = renderApp({ path: '/admin/workspaces/9', loggedIn: true });
    const cpu = await findField('CPU');
    expect(screen.getByText(/Cores requested in total, e\.g\. 4, 0\.5 or 500m; limits are twice that\. Empty: the default \(8\)\./)).toBeInTheDocument();

    await user.type(cpu, 'lots');
    await user.click(screen.getByRole('button', { name: 'Save quota' }));
    await waitFor(() => expect(errorUnder('CPU')).toBe('The quota.cpu field must be a CPU quantity such as 4, 0.5 or 500m.'));
    expect(requestsTo('PATCH', '/api/admin/workspaces/9')).toHaveLength(1);
    expect(adminWorkspacesDb.details.get(9)!.quota.own.cpu).toBeNull();

    await user.clear(field('CPU'));
    await user.type(field('CPU'), '2500m');
    await user.type(field('Memory'), '4Gi');
    await user.type(field('Pods'), '20');
    await user.click(screen.getByRole('button', { name: 'Save quota' }));
    expect(await screen.findByText('Quota saved. The cluster follows within seconds.')).toBeInTheDocument();
    expect(requestsTo('PATCH', '/api/admin/workspaces/9').at(-1)!.body).toEqual({ quota: { cpu: '2500m', memory: '4Gi', pods: 20, storage: null } });
    expect(adminWorkspacesDb.details.get(9)!.quota.own).toEqual({ cpu: '2500m', memory: '4Gi', pods: 20, storage: null });
  });

  it('follows the cluster while a change is pending: the In the cluster table updates without a reload', async () => {
    const detail = makeAdminWorkspaceDetail();
    adminWorkspacesDb.details.set(9, { ...detail, cluster: { ...detail.cluster, state: 'pending' } });
    renderApp({ path: '/admin/workspaces/9', loggedIn: true });
    const inCluster = async () => (await screen.findByRole('cell', { name: 'requests.cpu' }, { timeout: 10_000 })).closest('tr')!;
    expect(within(await inCluster()).getByText('8')).toBeInTheDocument();
    const readsBefore = requestsTo('GET', '/api/admin/workspaces/9').length;
    // The reconciler applies the new quota: the next read says so.
    adminWorkspacesDb.details.set(9, {
      ...detail,
      quota: { ...detail.quota, cluster: { hard: { ...detail.quota.cluster!.hard, 'requests.cpu': '3', 'limits.cpu': '6' }, used: {} } },
    });
    await waitFor(async () => expect(within(await inCluster()).getByText('3')).toBeInTheDocument(), { timeout: 6_000 });
    expect(requestsTo('GET', '/api/admin/workspaces/9').length).toBeGreaterThan(readsBefore);
    // Ready: no more reads.
    const settled = requestsTo('GET', '/api/admin/workspaces/9').length;
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(requestsTo('GET', '/api/admin/workspaces/9').length).toBe(settled);
  }, 20_000);

  it('deletes after a confirmation that names the namespace, its pods and the members who lose access', async () => {
    db.admin.workspaces = [];
    const { user } = renderApp({ path: '/admin/workspaces/9', loggedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Delete workspace' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Delete workspace Vision?')).toBeInTheDocument();
    expect(
      within(dialog).getByText('Deleting workspace Vision deletes namespace edgelab-vision, its pods, and the access of 4 members. This cannot be undone.'),
    ).toBeInTheDocument();

    // Cancel is plain (no warning icon); cancelling sends nothing.
    expect(within(dialog).getByRole('button', { name: 'Cancel' }).querySelector('svg')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(requestsTo('DELETE', '/api/admin/workspaces/9')).toHaveLength(0);

    // The red confirm button waits for the name typed back.
    await user.click(screen.getByRole('button', { name: 'Delete workspace' }));
    const again = await screen.findByRole('dialog');
    const confirm = within(again).getByRole('button', { name: 'Delete workspace' });
    expect(confirm).toBeDisabled();
    expect(confirm).toHaveClass('MuiButton-colorError');
    await user.type(within(again).getByLabelText('Type vision to confirm'), 'visio');
    expect(confirm).toBeDisabled();
    await user.type(within(again).getByLabelText('Type vision to confirm'), 'n');
    expect(confirm).toBeEnabled();
    await user.click(confirm);
    expect(await screen.findByText('Workspace Vision deleted. Its namespace is being removed from the cluster.')).toBeInTheDocument();
    expect(adminWorkspacesDb.deleted).toEqual([9]);
    await waitFor(() => expect(requestsTo('GET', '/api/admin/workspaces').length).toBeGreaterThan(0));
  });
});
