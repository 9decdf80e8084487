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
  it('lists every node in columns that fit a 1280 px screen: name with its addresses, machine, status, owner, last seen', async () => {
    asAdmin();
    const heartbeat = (local: Date) => [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: null, lastHeartbeatTime: local.toISOString() }];
    nodesDb.adminNodes = [
      // Only the spec's misspelt key carries the addresses here: the console must read it.
      {
        ...makeAdminNode({}, { conditions: heartbeat(HEARTBEAT_LOCAL) }),
        lastActive: new Date(2026, 10, 22, 8, 10).toISOString(),
        status: {
          ...makeAdminNode({}, { conditions: heartbeat(HEARTBEAT_LOCAL) }).status,
          addresses: undefined,
          addesses: [{ type: 'InternalIP', address: '10.0.0.21' }, { type: 'InternalIP', address: 'fd00::21' }, { type: 'Hostname', address: 'pi-host' }],
        },
      },
      makeAdminNode({ name: 'sandbox-worker', type: null, owner: null, node_id: null }, { state: 'warning', conditions: [] }),
      // Added in the console, not in the cluster yet: nothing the cluster would report.
      makeAdminNode({ name: 'lab-jetson', type: 'jetson', node_id: 57 }, {
        state: 'to install',
        addesses: [],
        capacity: { cpu: null, memory: null, 'ephemeral-storage': null, pods: null },
        nodeInfo: { architecture: '', operatingSystem: '', osImage: '', kubeletVersion: '' },
        conditions: [],
      }),
    ];
    renderApp({ path: '/admin/nodes', loggedIn: true });

    const link = await screen.findByRole('link', { name: 'edge-pi-01' });
    expect(link).toHaveAttribute('href', '/admin/nodes/edge-pi-01');
    const row = link.closest('tr')!;
    const headers = within(row.closest('table')!).getAllByRole('columnheader').map((cell) => cell.textContent);
    // The first column holds the row checkboxes (Export selected).
    expect(headers).toEqual(['', 'Name', 'Machine', 'Status', 'Owner', 'Last seen']);
    const cells = within(row).getAllByRole('cell');

    // The addresses under the name, one a line; the Hostname address repeats the name: left out.
    expect(within(cells[1]!).getByTestId('node-addresses').textContent).toBe('10.0.0.21fd00::21');
    expect(within(row).queryByText('pi-host')).not.toBeInTheDocument();
    // The machine in two lines: CPU and memory as people read it; the OS image and architecture.
    expect(cells[2]).toHaveTextContent('4 CPU · 7.7 GiB memory');
    expect(cells[2]).toHaveTextContent('Debian GNU/Linux 12 (bookworm) · arm64');
    expect(cells[3]).toHaveTextContent('Running');
    expect(cells[4]).toHaveTextContent('Ada Lovelace');
    // The later of the kubelet's heartbeat (08:30) and the agent's last call (08:10).
    expect(cells[5]).toHaveTextContent('22/11/2026 08:30');

    const worker = screen.getByRole('link', { name: 'sandbox-worker' }).closest('tr')!;
    expect(within(worker).getByText('Warning')).toBeInTheDocument();
    expect(within(worker).getAllByRole('cell')[4]).toHaveTextContent('—');
    expect(within(worker).getAllByRole('cell')[5]).toHaveTextContent('Never');

    const pending = screen.getByRole('link', { name: 'lab-jetson' });
    expect(pending).toHaveAttribute('href', '/nodes/57');
    const pendingCells = within(pending.closest('tr')!).getAllByRole('cell');
    expect(pendingCells[2]).toHaveTextContent('NVIDIA JetsonNot in the cluster yet');
    expect(pendingCells[3]).toHaveTextContent('to install');

    const query = requestsTo('GET', '/api/admin/nodes')[0]!.url.searchParams;
    expect(Object.fromEntries(query)).toEqual({ page: '1', per_page: '25', sort: 'name', order: 'asc' });
  });

  it('on a phone, shows the same facts as cards', async () => {
    asAdmin();
    const desktop = window.matchMedia;
    window.matchMedia = ((query: string) => ({ ...desktop(query), matches: /max-width:\s*599\.95px/.test(query) || desktop(query).matches })) as typeof window.matchMedia;
    try {
      nodesDb.adminNodes = [makeAdminNode({ lastActive: new Date(2026, 10, 22, 9, 45).toISOString() }, { conditions: [] })];
      renderApp({ path: '/admin/nodes', loggedIn: true });
      const card = (await screen.findByRole('link', { name: 'edge-pi-01' })).closest<HTMLElement>('.MuiCard-root')!;
      expect(screen.queryByRole('table')).not.toBeInTheDocument();
      expect(card).toHaveTextContent('Running');
      expect(card).toHaveTextContent('Owner:Ada Lovelace');
      expect(card).toHaveTextContent('Last seen:22/11/2026 09:45');
      expect(card).toHaveTextContent('4 CPU · 7.7 GiB memory');
      expect(card).toHaveTextContent('10.0.0.21');
    } finally {
      window.matchMedia = desktop;
    }
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
