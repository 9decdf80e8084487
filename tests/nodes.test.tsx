import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { db, requestsTo } from './mocks/db';
import { SESSION_TOKEN } from './mocks/fixtures';
import { IMAGE_BYTES, makeNode, nodesDb } from './mocks/nodes';
import { server } from './mocks/server';
import { errorUnder, field, findField } from './queries';
import { renderApp } from './render';
import { clearUserChannelHandlers, emitUserChannelEvent } from './mocks/userChannelEvent';

/** The realtime hook, replaced by one the tests can fire (the real one needs a WebSocket server). */
vi.mock('../src/realtime/useUserChannelEvent', () => import('./mocks/userChannelEvent'));
const emit = emitUserChannelEvent;

// Local times built here, so the expected DD/MM/YYYY HH:mm does not depend on the time zone.
const ACTIVE_LOCAL = new Date(2026, 10, 22, 9, 5);
const ACTIVITY_LOCAL = new Date(2026, 10, 21, 17, 42);

const rowOf = (text: string) => screen.getByText(text).closest('tr') as HTMLElement;

afterEach(() => {
  clearUserChannelHandlers();
});

describe('/nodes', () => {
  it('lists the own nodes: Node, Type, Last active and the status badges; a node not yet named shows its hostname, or awaits installation without one', async () => {
    nodesDb.nodes = [
      makeNode({ id: 41, name: 'edge-pi-01', status: 'ok', lastActive: ACTIVE_LOCAL.toISOString() }),
      makeNode({ id: 42, name: null, hostname: null, type: 'jetson', status: 'to install', lastActive: null }),
      makeNode({ id: 49, name: null, hostname: 'lab-bench-3', type: 'raspberry-pi', status: 'to install', lastActive: null }),
      makeNode({ id: 43, name: 'edge-x86', type: 'x86-64', status: 'error' }),
      makeNode({ id: 44, name: 'edge-vm', type: 'virtual-machine', status: 'warning' }),
      makeNode({ id: 45, name: 'edge-arm', type: 'arm64', status: 'installing' }),
      makeNode({ id: 46, name: 'edge-lost', type: 'other', status: 'unknown' }),
      makeNode({ id: 47, name: 'edge-off', status: '' }),
      makeNode({ id: 48, name: 'someone-else', owner: { id: 2, name: 'Grace Hopper' } }),
    ];
    renderApp({ path: '/nodes', loggedIn: true });

    const running = await screen.findByText('edge-pi-01');
    const headers = within(running.closest('table')!).getAllByRole('columnheader').map((cell) => cell.textContent);
    expect(headers).toEqual(['Node', 'Type', 'Last active', 'Status']);

    const first = rowOf('edge-pi-01');
    expect(within(first).getByRole('link', { name: 'edge-pi-01' })).toHaveAttribute('href', '/nodes/41');
    expect(within(first).getByText('Raspberry Pi')).toBeInTheDocument();
    expect(within(first).getByText('22/11/2026 09:05')).toBeInTheDocument();
    expect(within(first).getByText('Running').closest('.MuiChip-root')).toHaveClass('MuiChip-colorSuccess');

    const awaiting = rowOf('awaiting installation');
    expect(within(awaiting).getByRole('link', { name: 'awaiting installation' })).toHaveAttribute('href', '/nodes/42');
    expect(within(awaiting).getByText('NVIDIA Jetson')).toBeInTheDocument();
    expect(within(awaiting).getByText('Never')).toBeInTheDocument();
    expect(within(awaiting).getByText('to install')).toBeInTheDocument();

    // Its owner typed a hostname when adding it: the hostname names it, beside its status.
    const typed = rowOf('lab-bench-3');
    expect(within(typed).getByRole('link', { name: 'lab-bench-3' })).toHaveAttribute('href', '/nodes/49');
    expect(within(typed).getByText('to install')).toBeInTheDocument();
    expect(within(typed).queryByText('awaiting installation')).not.toBeInTheDocument();

    expect(within(rowOf('edge-x86')).getByText('Error').closest('.MuiChip-root')).toHaveClass('MuiChip-colorError');
    expect(within(rowOf('edge-vm')).getByText('Warning').closest('.MuiChip-root')).toHaveClass('MuiChip-colorWarning');
    expect(within(rowOf('edge-arm')).getByText('installing')).toBeInTheDocument();
    expect(within(rowOf('edge-lost')).getByText('unknown')).toBeInTheDocument();
    expect(within(rowOf('edge-off')).getByText('Disabled')).toBeInTheDocument();
    expect(screen.queryByText('someone-else')).not.toBeInTheDocument();

    expect(screen.getByRole('link', { name: 'Add a Node' })).toHaveAttribute('href', '/nodes/create');
  });

  it('on a phone, lists the nodes as rows linking to each node, with the status badge inside the row as phrasing content', async () => {
    // A 360 px screen for MUI's media queries (setup.ts answers as a 1280 px one).
    const desktop = window.matchMedia;
    window.matchMedia = ((query: string) => ({ ...desktop(query), matches: /max-width:\s*599\.95px/.test(query) || desktop(query).matches })) as typeof window.matchMedia;
    try {
      nodesDb.nodes = [makeNode({ id: 41, name: 'edge-pi-01', status: 'ok' }), makeNode({ id: 43, name: 'edge-x86', type: 'x86-64', status: 'error' })];
      renderApp({ path: '/nodes', loggedIn: true });
      const row = (await screen.findByText('edge-pi-01')).closest('a')!;
      expect(row).toHaveAttribute('href', '/nodes/41');
      // Inside the row's text and its link: a span, not the Chip's usual div.
      expect(within(row).getByText('Running').closest('.MuiChip-root')!.tagName).toBe('SPAN');
      expect(screen.queryByRole('table')).not.toBeInTheDocument();
    } finally {
      window.matchMedia = desktop;
    }
  });

  it("shows other status values as no badge at all", async () => {
    nodesDb.nodes = [makeNode({ id: 41, name: 'odd', status: 'exploded' })];
    renderApp({ path: '/nodes', loggedIn: true });
    const row = (await screen.findByText('odd')).closest('tr')!;
    expect(row.querySelector('.MuiChip-root')).toBeNull();
    expect(row).not.toHaveTextContent('exploded');
  });

  it("has an empty state with 'Add a Node'", async () => {
    const { user, path } = renderApp({ path: '/nodes', loggedIn: true });
    expect(await screen.findByText('You have not added any node yet.')).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Add a Node' }));
    expect(await screen.findByRole('heading', { name: 'Add a node', level: 1 })).toBeInTheDocument();
    expect(path()).toBe('/nodes/create');
  });

  it('refreshes the list when a NodeStatusChanged event arrives', async () => {
    nodesDb.nodes = [makeNode({ id: 41, name: null, status: 'installing' })];
    renderApp({ path: '/nodes', loggedIn: true });
    expect(await screen.findByText('installing')).toBeInTheDocument();
    nodesDb.nodes = [makeNode({ id: 41, name: 'edge-pi-01', status: 'ok' })];
    expect(emit('NodeStatusChanged', nodesDb.nodes[0])).toBeGreaterThan(0);
    expect(await screen.findByText('Running')).toBeInTheDocument();
    expect(screen.getByText('edge-pi-01')).toBeInTheDocument();
  });
});

describe('/nodes/create', () => {
  it('has the authentication code (placeholder ABCXYZ), type, DHCP with a static IPv4 field when off, hostname and notes', async () => {
    const { user } = renderApp({ path: '/nodes/create', loggedIn: true });
    expect(await findField('Authentication code')).toHaveAttribute('placeholder', 'ABCXYZ');
    expect(field('Type')).toBeInTheDocument();
    expect(field('Hostname')).toBeInTheDocument();
    expect(field('Notes')).toBeInTheDocument();
    const dhcp = screen.getByRole('switch', { name: 'DHCP' });
    expect(dhcp).toBeChecked();
    expect(screen.queryByLabelText('Static IPv4 address')).not.toBeInTheDocument();
    await user.click(dhcp);
    expect(await findField('Static IPv4 address')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add a new node' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeEnabled();
  });

  it("shows the server's 422 field errors under the fields and its message in the 'Registration error' alert", async () => {
    const { user } = renderApp({ path: '/nodes/create', loggedIn: true });
    await user.click(await screen.findByRole('switch', { name: 'DHCP' }));
    await user.type(await findField('Static IPv4 address'), '300.1.2.3');
    await user.type(field('Hostname'), 'bad_host!');
    await user.click(screen.getByRole('button', { name: 'Add a new node' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Registration error');
    expect(alert).toHaveTextContent('The type field is required.');
    await waitFor(() => expect(errorUnder('Type')).toBe('The type field is required.'));
    expect(errorUnder('Static IPv4 address')).toBe('The ipv4 field must be a valid IPv4 address.');
    expect(errorUnder('Hostname')).toBe('The hostname field format is invalid.');
    expect(requestsTo('POST', '/api/nodes')[0]!.body).toEqual({ type: null, dhcp: false, ipv4: '300.1.2.3', hostname: 'bad_host!' });
  });

  it('shows an unknown authentication code under the code field', async () => {
    const { user } = renderApp({ path: '/nodes/create', loggedIn: true });
    await user.type(await findField('Authentication code'), 'abcxyz');
    await user.click(field('Type'));
    await user.click(await screen.findByRole('option', { name: 'Raspberry Pi' }));
    await user.click(screen.getByRole('button', { name: 'Add a new node' }));
    await waitFor(() => expect(errorUnder('Authentication code')).toBe('The code is unknown or has expired.'));
    expect(screen.getByRole('alert')).toHaveTextContent('The code is unknown or has expired.');
    expect(requestsTo('POST', '/api/nodes')[0]!.body).toEqual({ type: 'raspberry-pi', dhcp: true, code: 'ABCXYZ' });
  });

  it('while submitting shows the overlay and disables the submit; on success goes to /nodes/{id}', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.use(
      http.post('/api/nodes', async ({ request }) => {
        const body = (await request.json()) as Record<string, any>;
        db.requests.push({ method: 'POST', url: new URL(request.url), headers: request.headers, body });
        await gate;
        const node = makeNode({ id: 57, name: null, status: 'to install', type: body.type, hostname: body.hostname, info: {} });
        nodesDb.nodes.push(node);
        return HttpResponse.json(node, { status: 201 });
      }),
    );
    const { user, path } = renderApp({ path: '/nodes/create', loggedIn: true });
    await user.click(await findField('Type'));
    await user.click(await screen.findByRole('option', { name: 'NVIDIA Jetson' }));
    await user.type(field('Hostname'), 'lab-jetson-1');
    await user.type(field('Notes'), 'Rack 2');
    await user.click(screen.getByRole('button', { name: 'Add a new node' }));

    expect(await screen.findByRole('status')).toHaveTextContent('Adding your node…');
    expect(screen.getByRole('button', { name: 'Add a new node' })).toBeDisabled();
    release();

    expect(await screen.findByRole('heading', { name: 'Install your node' })).toBeInTheDocument();
    expect(path()).toBe('/nodes/57');
    expect(requestsTo('POST', '/api/nodes')[0]!.body).toEqual({ type: 'jetson', dhcp: true, hostname: 'lab-jetson-1', notes: 'Rack 2' });
  });

  it('tells how to get a code: the generic install command and USB image, behind a disclosure', async () => {
    const nodeInstall = { scriptUrl: 'http://localhost:8000/agent/install', imageUrl: 'http://localhost:8000/agent/image' };
    const { user } = renderApp({ path: '/nodes/create', loggedIn: true, settings: { nodeInstall } });
    const summary = await screen.findByRole('button', { name: 'No code yet? Prepare the machine first' });
    expect(summary).toHaveAttribute('aria-expanded', 'false');
    await user.click(summary);
    expect(summary).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByTestId('generic-install-command')).toHaveTextContent(
      "curl -fsSL 'http://localhost:8000/agent/install' | sudo sh",
    );
    expect(screen.getByRole('link', { name: 'Download the generic image' })).toHaveAttribute(
      'href',
      'http://localhost:8000/agent/image',
    );
  });

  it("'Cancel' goes back to /nodes", async () => {
    const { user, path } = renderApp({ path: '/nodes/create', loggedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText('You have not added any node yet.')).toBeInTheDocument();
    expect(path()).toBe('/nodes');
  });
});

describe('/nodes/{id}', () => {
  it("with 'to install' shows only the installation panel", async () => {
    nodesDb.nodes = [makeNode({ id: 41, name: null, status: 'to install', lastActive: null, info: {} })];
    renderApp({ path: '/nodes/41', loggedIn: true });
    const panel = (await screen.findByRole('heading', { name: 'Install your node' })).closest('section')!;
    expect(within(panel).getByRole('heading', { name: 'Install from terminal' })).toBeInTheDocument();
    expect(within(panel).getByText("curl -fsSL 'http://localhost/agent/install/tbn_secret41' | sudo sh")).toBeInTheDocument();
    expect(within(panel).getByRole('heading', { name: 'Install from USB stick' })).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Download image' })).toBeInTheDocument();
    expect(panel).toHaveTextContent(/write it to a USB key/);

    expect(screen.queryByText('Review your node configuration and status.')).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Activity' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Node information' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { level: 1 })).not.toBeInTheDocument();
    expect(requestsTo('GET', '/api/nodes/41/activity')).toHaveLength(0);
  });

  it("with 'ok' shows the heading, the review text, the panel, the info as JSON and the activity", async () => {
    nodesDb.nodes = [makeNode({ id: 41, status: 'ok' })];
    nodesDb.activity['41'] = [
      { id: 3, created_at: ACTIVITY_LOCAL.toISOString(), description: 'Node is Running', properties: { severity: 'info' } },
      { id: 2, created_at: ACTIVITY_LOCAL.toISOString(), description: 'Join failed: timeout', properties: { severity: 'error' } },
    ];
    renderApp({ path: '/nodes/41', loggedIn: true });
    expect(await screen.findByRole('heading', { name: 'edge-pi-01', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('Review your node configuration and status.')).toBeInTheDocument();
    expect(screen.getByText('Running')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Install your node' })).toBeInTheDocument();

    const info = screen.getByTestId('node-info');
    expect(info.tagName).toBe('PRE');
    expect(info.textContent).toBe(JSON.stringify(nodesDb.nodes[0]!.info, null, 2));
    expect(info.textContent).toContain('\n  "architecture": "arm64"');

    const activity = (await screen.findByText('Node is Running')).closest('table')!;
    expect(within(activity).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['Date', 'Severity', 'Description']);
    const row = screen.getByText('Join failed: timeout').closest('tr')!;
    expect(within(row).getByText('21/11/2026 17:42')).toBeInTheDocument();
    expect(within(row).getByText('error')).toBeInTheDocument();
    expect(requestsTo('GET', '/api/nodes/41/activity')[0]!.headers.get('Authorization')).toBe(`Bearer ${SESSION_TOKEN}`);
  });

  it('finds the node by name when the URL has a name (/nodes/{name})', async () => {
    nodesDb.nodes = [makeNode({ id: 41, name: 'edge-pi-01' }), makeNode({ id: 43, name: 'edge-x86', status: 'warning' })];
    renderApp({ path: '/nodes/edge-x86', loggedIn: true });
    expect(await screen.findByRole('heading', { name: 'edge-x86', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('Warning')).toBeInTheDocument();
    expect(requestsTo('GET', '/api/nodes/43')).toHaveLength(1);
  });

  it("says when the node does not exist or belongs to someone else", async () => {
    nodesDb.nodes = [makeNode({ id: 48, owner: { id: 2, name: 'Grace Hopper' } })];
    renderApp({ path: '/nodes/48', loggedIn: true });
    expect(await screen.findByText('This node does not exist, or you cannot see it.')).toBeInTheDocument();
  });

  it("copies the install command; 'Copied' shows, then goes back to 'Copy' after 2 seconds", async () => {
    nodesDb.nodes = [makeNode({ id: 41, name: null, status: 'to install' })];
    const { user } = renderApp({ path: '/nodes/41', loggedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Copy' }));
    const started = Date.now();
    expect(await screen.findByRole('button', { name: 'Copied' })).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe("curl -fsSL 'http://localhost/agent/install/tbn_secret41' | sudo sh");
    await screen.findByRole('button', { name: 'Copy' }, { timeout: 4000 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    expect(screen.queryByRole('button', { name: 'Copied' })).not.toBeInTheDocument();
  });

  describe('USB image', () => {
    let createObjectURL: ReturnType<typeof vi.fn>;
    let clicked: { href: string; download: string }[];

    beforeEach(() => {
      createObjectURL = vi.fn(() => 'blob:mock-image');
      Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
      clicked = [];
      vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
        clicked.push({ href: this.href, download: this.download });
      });
    });

    afterEach(() => {
      vi.restoreAllMocks();
    });

    it("'Download image' fetches image_url with the bearer token and saves testbed-node-{id}-cidata.img", async () => {
      nodesDb.nodes = [makeNode({ id: 41, name: null, status: 'to install' })];
      const { user } = renderApp({ path: '/nodes/41', loggedIn: true });
      await user.click(await screen.findByRole('button', { name: 'Download image' }));
      await waitFor(() => expect(clicked).toEqual([{ href: 'blob:mock-image', download: 'testbed-node-41-cidata.img' }]));
      const blob = createObjectURL.mock.calls[0]![0] as Blob;
      expect(new Uint8Array(await blob.arrayBuffer())).toEqual(IMAGE_BYTES);
      expect(requestsTo('GET', '/api/nodes/41/image')[0]!.headers.get('Authorization')).toBe(`Bearer ${SESSION_TOKEN}`);
    });

    it("shows the server's message when the image cannot be downloaded", async () => {
      nodesDb.nodes = [makeNode({ id: 41, name: null, status: 'to install' })];
      server.use(http.get('/api/nodes/:id/image', () => HttpResponse.json({ message: 'The image could not be built.' }, { status: 500 })));
      const { user } = renderApp({ path: '/nodes/41', loggedIn: true });
      await user.click(await screen.findByRole('button', { name: 'Download image' }));
      expect(await screen.findByRole('alert')).toHaveTextContent('The image could not be built.');
      expect(clicked).toEqual([]);
    });
  });

  it('updates live: a NodeStatusChanged event refetches the node and its activity', async () => {
    nodesDb.nodes = [makeNode({ id: 41, name: null, status: 'to install', info: {} })];
    renderApp({ path: '/nodes/41', loggedIn: true });
    await screen.findByRole('heading', { name: 'Install your node' });

    nodesDb.nodes = [makeNode({ id: 41, name: 'edge-pi-01', status: 'installing' })];
    nodesDb.activity['41'] = [{ id: 1, created_at: ACTIVITY_LOCAL.toISOString(), description: 'Machine checked in', properties: { severity: 'info' } }];
    expect(emit('NodeStatusChanged', nodesDb.nodes[0])).toBeGreaterThan(0);
    expect(await screen.findByRole('heading', { name: 'edge-pi-01', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('installing')).toBeInTheDocument();
    expect(await screen.findByText('Machine checked in')).toBeInTheDocument();

    nodesDb.nodes = [makeNode({ id: 41, name: 'edge-pi-01', status: 'ok' })];
    nodesDb.activity['41'] = [
      { id: 2, created_at: ACTIVITY_LOCAL.toISOString(), description: 'Node is Running', properties: { severity: 'info' } },
      ...nodesDb.activity['41'],
    ];
    expect(emit('NodeStatusChanged', nodesDb.nodes[0])).toBeGreaterThan(0);
    expect(await screen.findByText('Running')).toBeInTheDocument();
    expect(await screen.findByText('Node is Running')).toBeInTheDocument();
  });

  it('refetches a node that is installing every 15 seconds as a fallback', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    nodesDb.nodes = [makeNode({ id: 41, name: 'edge-pi-01', status: 'installing' })];
    renderApp({ path: '/nodes/41', loggedIn: true });
    expect(await screen.findByText('installing')).toBeInTheDocument();
    const before = requestsTo('GET', '/api/nodes/41').length;
    nodesDb.nodes = [makeNode({ id: 41, name: 'edge-pi-01', status: 'ok' })];
    await act(async () => {
      await vi.advanceTimersByTimeAsync(15_000);
    });
    expect(await screen.findByText('Running')).toBeInTheDocument();
    expect(requestsTo('GET', '/api/nodes/41').length).toBeGreaterThan(before);
  });
});

describe('home and sidebar', () => {
  it("the 'Your nodes' card lists the nodes with their badges and links to /nodes", async () => {
    nodesDb.nodes = [makeNode({ id: 41, name: 'edge-pi-01', status: 'ok' }), makeNode({ id: 42, name: null, hostname: null, status: 'to install' })];
    renderApp({ path: '/', loggedIn: true });
    const card = (await screen.findByRole('heading', { name: 'Your nodes' })).closest('section') as HTMLElement;
    const running = await within(card).findByRole('link', { name: /edge-pi-01/ });
    expect(running).toHaveAttribute('href', '/nodes/41');
    expect(within(card).getByRole('link', { name: /awaiting installation/ })).toHaveAttribute('href', '/nodes/42');
    expect(within(card).getByText('Running')).toBeInTheDocument();
    expect(within(card).getByText('to install')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'All nodes' })).toHaveAttribute('href', '/nodes');
    expect(within(card).getByRole('link', { name: 'Add a Node' })).toHaveAttribute('href', '/nodes/create');
  });

  it("the card's empty state offers 'Add a Node'", async () => {
    renderApp({ path: '/', loggedIn: true });
    const card = (await screen.findByRole('heading', { name: 'Your nodes' })).closest('section') as HTMLElement;
    expect(await within(card).findByText('You have not contributed any node yet.')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Add a Node' })).toHaveAttribute('href', '/nodes/create');
  });

  it('the sidebar has a Nodes entry to /nodes', async () => {
    renderApp({ path: '/', loggedIn: true });
    await screen.findByRole('heading', { name: 'Your nodes' });
    const menu = document.querySelector('.RaSidebar-fixed, .RaSidebar-paper') as HTMLElement;
    expect(within(menu).getByRole('menuitem', { name: 'Nodes' })).toHaveAttribute('href', '/nodes');
  });
});

describe('the team a node counts for', () => {
  it('lets the owner choose one of their teams', async () => {
    db.user = { ...db.user, teams: [{ id: 3, name: 'edgelab', fullname: 'Edge Computing Lab', role: 'member' }] } as typeof db.user;
    nodesDb.nodes = [makeNode({ id: 41, team_id: null })];
    const { user } = renderApp({ path: '/nodes/41', loggedIn: true });
    const card = await screen.findByRole('region', { name: 'Contributed to' }, { timeout: 10_000 });
    await user.click(within(card).getByRole('combobox', { name: 'Team' }));
    await user.click(await screen.findByRole('option', { name: 'Edge Computing Lab' }));
    await waitFor(() => expect(requestsTo('PATCH', '/api/nodes/41')[0]?.body).toEqual({ team_id: 3 }));
    expect(await screen.findByText('Saved: the node counts for the team you chose.')).toBeInTheDocument();
  });
});
