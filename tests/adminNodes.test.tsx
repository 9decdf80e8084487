import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { db, requestsTo } from './mocks/db';
import { makeUser, NOW } from './mocks/fixtures';
import { makeAdminNode, nodesDb } from './mocks/nodes';
import { renderApp } from './render';
import { formatByteQuantity } from '../src/resources/admin/nodes/parts';

const asAdmin = () => {
  db.user = makeUser({ admin: true });
};

const HEARTBEAT_LOCAL = new Date(2026, 10, 22, 8, 30);

describe('/admin/nodes', () => {
  it('lists every cluster node: name linking by name, addresses from status.addesses, capacity, system info, status and owner', async () => {
    asAdmin();
    nodesDb.adminNodes = [
      // Only the spec's misspelt key carries the addresses here: the console must read it.
      { ...makeAdminNode(), status: { ...makeAdminNode().status, addresses: undefined, addesses: [{ type: 'InternalIP', address: '10.0.0.21' }, { type: 'Hostname', address: 'pi-host' }] } },
      makeAdminNode({ name: 'sandbox-worker', type: null, owner: null, node_id: null }, { state: 'warning' }),
    ];
    renderApp({ path: '/admin/nodes', loggedIn: true });

    const link = await screen.findByRole('link', { name: 'edge-pi-01' });
    expect(link).toHaveAttribute('href', '/admin/nodes/edge-pi-01');
    const row = link.closest('tr')!;
    const headers = within(row.closest('table')!).getAllByRole('columnheader').map((cell) => cell.textContent);
    // The first column holds the row checkboxes (Export selected).
    expect(headers).toEqual(['', 'Name', 'Addresses', 'Capacity', 'System info', 'Status', 'Owner']);

    expect(within(row).getByText('InternalIP')).toBeInTheDocument();
    expect(within(row).getByText('10.0.0.21')).toBeInTheDocument();
    expect(within(row).getByText('pi-host')).toBeInTheDocument();
    for (const [label, value] of [
      ['CPU', '4'],
      ['Memory', '7.7 GiB'],
      ['Ephemeral storage', '28.9 GiB'],
      ['Pods', '110'],
      ['Architecture', 'arm64'],
      ['Operating system', 'linux'],
      ['OS image', 'Debian GNU/Linux 12 (bookworm)'],
      ['Kubelet version', 'v1.31.2'],
    ]) {
      const term = within(row).getByText(label);
      expect(term.nextElementSibling).toHaveTextContent(value!);
    }
    expect(within(row).getByText('Running')).toBeInTheDocument();
    expect(within(row).getByText('Ada Lovelace')).toBeInTheDocument();

    const worker = screen.getByRole('link', { name: 'sandbox-worker' }).closest('tr')!;
    expect(within(worker).getByText('Warning')).toBeInTheDocument();

    const query = requestsTo('GET', '/api/admin/nodes')[0]!.url.searchParams;
    expect(Object.fromEntries(query)).toEqual({ page: '1', per_page: '25', sort: 'name', order: 'asc' });
  });

  it('sends the search as q', async () => {
    asAdmin();
    nodesDb.adminNodes = [makeAdminNode(), makeAdminNode({ name: 'sandbox-worker' })];
    const { user } = renderApp({ path: '/admin/nodes', loggedIn: true });
    await screen.findByRole('link', { name: 'sandbox-worker' });
    await user.type(screen.getByPlaceholderText('Search'), 'edge');
    await waitFor(() => expect(screen.queryByRole('link', { name: 'sandbox-worker' })).not.toBeInTheDocument());
    expect(requestsTo('GET', '/api/admin/nodes').at(-1)!.url.searchParams.get('q')).toBe('edge');
  });

  it('says clearly when the cluster cannot be reached (503), with a retry', async () => {
    asAdmin();
    nodesDb.cluster = 'down';
    nodesDb.adminNodes = [makeAdminNode()];
    const { user } = renderApp({ path: '/admin/nodes', loggedIn: true });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The cluster cannot be reached.');
    expect(alert).toHaveTextContent('The cluster cannot be reached right now. Try again in a minute.');
    nodesDb.cluster = 'up';
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('link', { name: 'edge-pi-01' })).toBeInTheDocument();
  });

  it('is only for platform admins: others get the catch-all, and only admins see Admin → Nodes', async () => {
    renderApp({ path: '/admin/nodes', loggedIn: true });
    expect(await screen.findByRole('heading', { name: 'Unexpected Application Error!', level: 1 })).toBeInTheDocument();
    expect(requestsTo('GET', '/api/admin/nodes')).toHaveLength(0);
  });

  it('the Admin section of the sidebar links to /admin/nodes', async () => {
    asAdmin();
    renderApp({ path: '/', loggedIn: true });
    await screen.findByRole('heading', { name: 'Your nodes' });
    const menu = document.querySelector('.RaSidebar-fixed, .RaSidebar-paper') as HTMLElement;
    const entries = within(menu).getAllByRole('menuitem').map((item) => item.textContent);
    // Admin → Nodes comes after Users and before Activity (the product's sidebar order).
    expect(entries.slice(entries.indexOf('Overview'))).toEqual(['Overview', 'Teams', 'Workspaces', 'Users', 'Nodes', 'Activity', 'Usage', 'Usage policy', 'What ends next', 'Lifecycle settings', 'Ada Lovelace']);
    expect(within(menu).getAllByRole('menuitem', { name: 'Nodes' }).map((item) => item.getAttribute('href'))).toEqual([
      '/nodes',
      '/admin/nodes',
    ]);
  });
});

describe('/admin/nodes/{name}', () => {
  it('shows the node with conditions and its activity', async () => {
    asAdmin();
    nodesDb.adminNodes = [
      makeAdminNode({}, {
        conditions: [
          { type: 'DiskPressure', status: 'False', reason: 'KubeletHasNoDiskPressure', message: 'kubelet has no disk pressure', lastHeartbeatTime: HEARTBEAT_LOCAL.toISOString() },
          { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', lastHeartbeatTime: HEARTBEAT_LOCAL.toISOString() },
        ],
      }),
    ];
    nodesDb.activity['41'] = [{ id: 9, created_at: NOW, description: 'Node is Running', properties: { severity: 'info' } }];
    renderApp({ path: '/admin/nodes/edge-pi-01', loggedIn: true });

    expect(await screen.findByRole('heading', { name: 'edge-pi-01', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('Running')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Addresses' })).toHaveTextContent('10.0.0.21');
    expect(screen.getByRole('region', { name: 'Capacity' })).toHaveTextContent('7.7 GiB');
    expect(screen.getByTitle('8049112Ki')).toHaveTextContent('7.7 GiB');
    expect(screen.getByRole('region', { name: 'System info' })).toHaveTextContent('v1.31.2');
    expect(screen.getByRole('region', { name: 'Details' })).toHaveTextContent('Ada Lovelace');
    expect(screen.getByRole('link', { name: 'Open the console node' })).toHaveAttribute('href', '/nodes/41');

    const conditions = screen.getByRole('region', { name: 'Conditions' });
    const ready = within(conditions).getByText('Ready').closest('tr')!;
    expect(within(ready).getByText('True')).toBeInTheDocument();
    expect(within(ready).getByText('KubeletReady')).toBeInTheDocument();
    expect(within(ready).getByText('22/11/2026 08:30')).toBeInTheDocument();
    expect(within(conditions).getByText('DiskPressure')).toBeInTheDocument();

    const activity = screen.getByRole('region', { name: 'Activity' });
    expect(within(activity).getByText('Node is Running')).toBeInTheDocument();
    expect(within(activity).getByText('info')).toBeInTheDocument();
  });

  it('asks for a confirmation before disabling, then disables; Enable needs none', async () => {
    asAdmin();
    nodesDb.adminNodes = [makeAdminNode()];
    const { user } = renderApp({ path: '/admin/nodes/edge-pi-01', loggedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Disable' }));

    let dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Disable the node edge-pi-01?');
    expect(dialog).toHaveTextContent('no new pods are scheduled on it');
    expect(requestsTo('POST', '/api/admin/nodes/edge-pi-01/disable')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(requestsTo('POST', '/api/admin/nodes/edge-pi-01/disable')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Disable' }));
    dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Disable' }));
    await waitFor(() => expect(requestsTo('POST', '/api/admin/nodes/edge-pi-01/disable')).toHaveLength(1));
    expect(await screen.findByText('Disabled')).toBeInTheDocument();
    expect(screen.getByText('Cordoned')).toBeInTheDocument();

    await user.click(await screen.findByRole('button', { name: 'Enable' }));
    await waitFor(() => expect(requestsTo('POST', '/api/admin/nodes/edge-pi-01/enable')).toHaveLength(1));
    expect(await screen.findByRole('button', { name: 'Disable' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByText('Running')).toBeInTheDocument();
  });

  it('503: the cluster message with a retry instead of a blank page', async () => {
    asAdmin();
    nodesDb.cluster = 'down';
    nodesDb.adminNodes = [makeAdminNode()];
    const { user } = renderApp({ path: '/admin/nodes/edge-pi-01', loggedIn: true });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The cluster cannot be reached right now. Try again in a minute.');
    nodesDb.cluster = 'up';
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'edge-pi-01', level: 1 })).toBeInTheDocument();
  });

  it('an unknown node says so', async () => {
    asAdmin();
    renderApp({ path: '/admin/nodes/nope', loggedIn: true });
    expect(await screen.findByText('This node is not in the cluster.')).toBeInTheDocument();
  });
});

describe('formatByteQuantity', () => {
  it('reads Kubernetes byte quantities as people do, and leaves the unknown alone', () => {
    expect(formatByteQuantity('8049112Ki')).toBe('7.7 GiB');
    expect(formatByteQuantity('100Gi')).toBe('100 GiB');
    expect(formatByteQuantity('512Mi')).toBe('512 MiB');
    expect(formatByteQuantity('1G')).toBe('954 MiB');
    expect(formatByteQuantity('128974848')).toBe('123 MiB');
    expect(formatByteQuantity('2Ti')).toBe('2 TiB');
    expect(formatByteQuantity('900')).toBe('900 B');
    expect(formatByteQuantity('lots')).toBe('lots');
  });
});
