import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeWorkspace } from './fixtures.teams';
import { db, requestsTo } from './mocks/db';
import { makeUser } from './mocks/fixtures';
import { server } from './mocks/server';
import { renderApp } from './render';

// Local times built here, so the expected DD/MM/YYYY HH:mm does not depend on the time zone.
const EXPIRES_LOCAL = new Date(2026, 10, 23, 18, 45);
const STARTED_LOCAL = new Date(2026, 10, 22, 9, 5);

const makePod = (overrides: Record<string, any> = {}, status: Record<string, any> = {}) => ({
  name: 'web-1',
  namespace: 'edgelab-vision',
  status: { phase: 'Running', podIP: '10.244.1.5', hostIP: '10.0.0.11', startTime: STARTED_LOCAL.toISOString(), ...status },
  ...overrides,
});

const openWorkspace = (path = '/workspaces/7') => renderApp({ path, loggedIn: true });

describe('kubeconfig download', () => {
  let createObjectURL: ReturnType<typeof vi.fn>;
  let revokeObjectURL: ReturnType<typeof vi.fn>;
  let clicked: { href: string; download: string; inDocument: boolean }[];

  beforeEach(() => {
    db.workspaces = [makeWorkspace()];
    createObjectURL = vi.fn(() => 'blob:mock-kubeconfig');
    revokeObjectURL = vi.fn();
    // jsdom has neither: the component must go through them.
    Object.assign(URL, { createObjectURL, revokeObjectURL });
    clicked = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download, inDocument: document.body.contains(this) });
    });
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('posts, saves the YAML under the server filename and shows the expiry and how to use it', async () => {
    const { user } = openWorkspace();
    await user.click(await screen.findByRole('button', { name: 'Download kubeconfig' }));

    expect(await screen.findByText(/^Your kubeconfig expires on \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/)).toBeInTheDocument();
    expect(requestsTo('POST', '/api/subnamespaces/7/kubeconfig')).toHaveLength(1);

    expect(createObjectURL).toHaveBeenCalledTimes(1);
    const blob = createObjectURL.mock.calls[0]![0] as Blob;
    expect(blob).toBeInstanceOf(Blob);
    expect(await blob.text()).toContain('current-context: edgelab-vision');
    expect(clicked).toEqual([{ href: 'blob:mock-kubeconfig', download: 'edgelab-vision.kubeconfig', inDocument: true }]);
    await waitFor(() => expect(revokeObjectURL).toHaveBeenCalledWith('blob:mock-kubeconfig'));

    expect(screen.getByText('kubectl --kubeconfig edgelab-vision.kubeconfig get pods')).toBeInTheDocument();
  });

  it('formats expires_at as DD/MM/YYYY HH:mm', async () => {
    server.use(
      http.post('/api/subnamespaces/:id/kubeconfig', () =>
        HttpResponse.json(
          { kubeconfig: 'apiVersion: v1\n', namespace: 'edgelab-vision', expires_at: EXPIRES_LOCAL.toISOString(), filename: 'edgelab-vision.kubeconfig' },
          { status: 201 },
        ),
      ),
    );
    const { user } = openWorkspace();
    await user.click(await screen.findByRole('button', { name: 'Download kubeconfig' }));
    expect(await screen.findByText('Your kubeconfig expires on 23/11/2026 18:45')).toBeInTheDocument();
  });

  it('shows the 409 message in an alert with a retry that posts again', async () => {
    db.workspaces = [makeWorkspace({ provisioned: false })];
    const { user } = openWorkspace();
    await user.click(await screen.findByRole('button', { name: 'Download kubeconfig' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This workspace is still being set up in the cluster. Try again in a minute.');
    expect(createObjectURL).not.toHaveBeenCalled();

    db.workspaces = [makeWorkspace({ provisioned: true })];
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText(/^Your kubeconfig expires on/)).toBeInTheDocument();
    expect(requestsTo('POST', '/api/subnamespaces/7/kubeconfig')).toHaveLength(2);
    expect(screen.queryByText(/still being set up/)).not.toBeInTheDocument();
  });

  it('shows the 503 messages (cluster down, no cluster) without breaking the page', async () => {
    db.cluster = 'down';
    const { user } = openWorkspace();
    await user.click(await screen.findByRole('button', { name: 'Download kubeconfig' }));
    const panel = screen.getByRole('heading', { name: 'Kubeconfig' }).closest('section')!;
    expect(await within(panel).findByRole('alert')).toHaveTextContent('The cluster cannot be reached right now. Try again in a minute.');
    db.cluster = 'none';
    await user.click(within(panel).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(within(panel).getByRole('alert')).toHaveTextContent('No cluster is connected to this console.'));
    expect(screen.getByRole('heading', { name: 'Vision', level: 1 })).toBeInTheDocument();
    expect(createObjectURL).not.toHaveBeenCalled();
  });
});

describe('pods section', () => {
  it('asks for the workspace namespace and lists name, IPs, phase badge and start time', async () => {
    db.workspaces = [makeWorkspace()];
    db.pods = {
      'edgelab-vision': [
        makePod(),
        makePod({ name: 'job-2' }, { phase: 'Pending', podIP: null, hostIP: null, startTime: null }),
        makePod({ name: 'done-3' }, { phase: 'Succeeded', podIP: '10.244.2.9', hostIP: '10.0.0.12' }),
      ],
    };
    openWorkspace();
    const section = (await screen.findByRole('heading', { name: 'Pods' })).closest('section')!;
    const row = (await within(section).findByText('web-1')).closest('tr')!;
    expect(within(row).getByText('10.244.1.5')).toBeInTheDocument();
    expect(within(row).getByText('10.0.0.11')).toBeInTheDocument();
    expect(within(row).getByText('22/11/2026 09:05')).toBeInTheDocument();
    const running = within(row).getByText('Running').closest('.MuiChip-root')!;
    expect(running).toHaveClass('MuiChip-colorSuccess');

    const pending = within(within(section).getByText('job-2').closest('tr')!).getByText('Pending').closest('.MuiChip-root')!;
    expect(pending).toHaveClass('MuiChip-colorDefault');
    expect(pending).not.toHaveClass('MuiChip-colorSuccess');
    const succeeded = within(within(section).getByText('done-3').closest('tr')!).getByText('Succeeded').closest('.MuiChip-root')!;
    expect(succeeded).toHaveClass('MuiChip-colorDefault');

    const calls = requestsTo('GET', '/api/pods');
    expect(calls.length).toBeGreaterThan(0);
    expect(calls[0]!.url.searchParams.get('namespace')).toBe('edgelab-vision');
    expect(within(section).getByRole('table').closest('.MuiTableContainer-root')).toBeInTheDocument();
  });

  it("'Logs' opens the dialog 'Logs for web-1', connecting to the pod's log stream (no fake lines)", async () => {
    db.workspaces = [makeWorkspace()];
    db.pods = { 'edgelab-vision': [makePod(), makePod({ name: 'web-2' })] };
    const { user } = openWorkspace();
    await user.click(await screen.findByRole('button', { name: 'Logs for web-1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Logs for web-1' });
    expect(within(dialog).getByText('Connecting to the log stream…')).toBeInTheDocument();
    expect(within(dialog).getByTestId('pod-log-lines')).toBeEmptyDOMElement();
    expect(within(dialog).getByRole('button', { name: 'Pause' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('shows how to start a pod with the kubeconfig when there are none', async () => {
    db.workspaces = [makeWorkspace()];
    openWorkspace();
    expect(await screen.findByText('No pods are running in this workspace yet.')).toBeInTheDocument();
    expect(
      screen.getByText("kubectl --kubeconfig <file> run hello --image=busybox -- sh -c 'while true; do date; sleep 5; done'"),
    ).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.queryByText(/built-in sandbox cluster/)).not.toBeInTheDocument();
  });

  it('says the pods are simulated when the console runs on the sandbox cluster', async () => {
    db.workspaces = [makeWorkspace()];
    db.pods = { 'edgelab-vision': [makePod()] };
    renderApp({ path: '/workspaces/7', loggedIn: true, settings: { sandbox: true } });
    const section = (await screen.findByRole('heading', { name: 'Pods' })).closest('section')!;
    expect(
      within(section).getByText('This console is connected to the built-in sandbox cluster: workloads are simulated.'),
    ).toBeInTheDocument();
  });

  it("shows the server's 503 message, keeps the page, and recovers on its own", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    db.workspaces = [makeWorkspace()];
    db.cluster = 'down';
    db.pods = { 'edgelab-vision': [makePod()] };
    openWorkspace();
    expect(await screen.findByText('The cluster cannot be reached right now. Try again in a minute.')).toBeInTheDocument();
    expect(screen.getByText('Trying again automatically every 10 seconds.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Vision', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download kubeconfig' })).toBeInTheDocument();
    const before = requestsTo('GET', '/api/pods').length;

    db.cluster = 'up';
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10_000);
    });
    expect(await screen.findByText('web-1')).toBeInTheDocument();
    expect(requestsTo('GET', '/api/pods').length).toBeGreaterThan(before);
    await waitFor(() => expect(screen.queryByText(/cannot be reached/)).not.toBeInTheDocument());
  });
});

describe('cluster panels and access', () => {
  it('non-members see neither the kubeconfig button nor the Pods section, and no pods are asked for', async () => {
    db.workspaces = [makeWorkspace({ member: false, role: null, can_manage: false })];
    openWorkspace();
    expect(await screen.findByText(/You are not a member of this workspace/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Download kubeconfig' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Kubeconfig' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Pods' })).not.toBeInTheDocument();
    expect(requestsTo('GET', '/api/pods')).toHaveLength(0);
  });

  it('platform admins who are not members get neither panel (spec: members only), only the join notice', async () => {
    db.user = makeUser({ admin: true });
    db.workspaces = [makeWorkspace({ member: false, role: null, can_manage: false })];
    db.pods = { 'edgelab-vision': [makePod()] };
    openWorkspace();
    expect(await screen.findByText(/You are not a member of this workspace/)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Users' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Download kubeconfig' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Pods' })).not.toBeInTheDocument();
    expect(requestsTo('GET', '/api/pods')).toHaveLength(0);
  });
});

describe('pod security level', () => {
  it('shows the level the API gives, with what it forbids in a tooltip', async () => {
    db.workspaces = [makeWorkspace()];
    const { user } = openWorkspace();
    const chip = (await screen.findByText('Pod security: baseline')).closest('.MuiChip-root') as HTMLElement;
    expect(requestsTo('GET', '/api/subnamespaces/7')).not.toHaveLength(0);
    await user.hover(chip);
    const tooltip = await screen.findByRole('tooltip');
    expect(tooltip).toHaveTextContent("The cluster refuses pods that use the node's network, process or IPC namespaces, run privileged containers");
    expect(tooltip).toHaveTextContent('mount host paths');
    expect(tooltip).toHaveTextContent('kubectl warns about pods that do not meet the restricted level.');
    expect(tooltip).toHaveTextContent('Kubernetes Pod Security Standards, v1.34.');
    // Keyboard users reach it too.
    expect(chip).toHaveAttribute('tabindex', '0');
  });

  it('follows the API: another level, or none from an older server', async () => {
    db.workspaces = [makeWorkspace({ pod_security: { enforce: 'restricted', warn: 'restricted', audit: 'restricted', version: 'v1.35' } })];
    const first = openWorkspace();
    expect(await screen.findByText('Pod security: restricted')).toBeInTheDocument();
    first.unmount();

    db.workspaces = [makeWorkspace({ pod_security: undefined })];
    openWorkspace();
    expect(await screen.findByRole('heading', { name: 'Vision', level: 1 })).toBeInTheDocument();
    expect(screen.queryByText(/^Pod security:/)).not.toBeInTheDocument();
  });
});
