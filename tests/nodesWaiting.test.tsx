import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { db } from './mocks/db';
import { makeUser } from './mocks/fixtures';
import { makeNode, nodesDb } from './mocks/nodes';
import { renderApp } from './render';
import { clearUserChannelHandlers, emitUserChannelEvent } from './mocks/userChannelEvent';

// The node page while the machine has not joined yet (src/resources/nodes/NodeWaiting.tsx): it
// says what it waits for and what to do, leads to the command, and changes by itself when the
// machine checks in and joins (a NodeStatusChanged event on the owner's channel).

/** The realtime hook, replaced by one the tests can fire (the real one needs a WebSocket server). */
vi.mock('../src/realtime/useUserChannelEvent', () => import('./mocks/userChannelEvent'));
const emit = emitUserChannelEvent;

afterEach(() => {
  clearUserChannelHandlers();
});

const WAITING = 'Waiting for the machine to run the install command…';
const JOINING = 'The machine checked in: waiting for it to join the cluster…';

describe('the node page while the machine has not joined', () => {
  it("'to install': says it waits for the machine and what to do, above the installation panel", async () => {
    nodesDb.nodes = [makeNode({ id: 41, name: null, hostname: 'lab-pi-01', status: 'to install', lastActive: null, info: {} })];
    renderApp({ path: '/nodes/41', loggedIn: true });

    const notice = await screen.findByTestId('node-waiting');
    const status = within(notice).getByRole('status');
    expect(status).toHaveTextContent(WAITING);
    expect(status).toHaveTextContent(/Run the install command on the machine.*or boot the machine from the USB stick/);
    expect(status).toHaveTextContent('it changes by itself as soon as the machine checks in');
    // The spinner is decoration: the words say what happens.
    expect(within(notice).queryByRole('progressbar')).not.toBeInTheDocument();
    expect(notice.querySelector('[role="progressbar"][aria-hidden="true"]')).not.toBeNull();

    // Above the panel, which still holds the command.
    const panel = screen.getByRole('heading', { name: 'Install your node' }).closest('section')!;
    expect(notice.compareDocumentPosition(panel) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(within(panel).getByText(/^curl -fsSL 'http:\/\/localhost\/agent\/install\/tbn_secret41' \| sudo sh$/)).toBeInTheDocument();
    expect(screen.queryByText('Review your node configuration and status.')).not.toBeInTheDocument();
  });

  it("'Show the install command' scrolls to the command and puts the focus on its copy button", async () => {
    const scrolled: Element[] = [];
    const scrollIntoView = vi.fn(function (this: Element) {
      scrolled.push(this);
    });
    Element.prototype.scrollIntoView = scrollIntoView;
    try {
      nodesDb.nodes = [makeNode({ id: 41, name: null, status: 'to install', info: {} })];
      const { user } = renderApp({ path: '/nodes/41', loggedIn: true });
      await user.click(await screen.findByRole('button', { name: 'Show the install command' }));
      const terminal = screen.getByRole('region', { name: 'Install from terminal' });
      expect(scrolled).toEqual([terminal]);
      expect(within(terminal).getByRole('button', { name: 'Copy' })).toHaveFocus();
    } finally {
      delete (Element.prototype as Partial<Element>).scrollIntoView;
    }
  });

  it('changes by itself: joining when the machine checks in, gone once the node runs', async () => {
    nodesDb.nodes = [makeNode({ id: 41, name: null, hostname: 'lab-pi-01', status: 'to install', lastActive: null, info: {} })];
    renderApp({ path: '/nodes/41', loggedIn: true });
    expect(await screen.findByText(WAITING)).toBeInTheDocument();

    nodesDb.nodes = [makeNode({ id: 41, name: null, hostname: 'lab-pi-01', status: 'installing' })];
    expect(emit('NodeStatusChanged', nodesDb.nodes[0])).toBeGreaterThan(0);
    expect(await screen.findByText(JOINING)).toBeInTheDocument();
    expect(screen.queryByText(WAITING)).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'lab-pi-01', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('Review your node configuration and status.')).toBeInTheDocument();
    // Nothing left to point at once the machine runs the command.
    expect(screen.queryByRole('button', { name: 'Show the install command' })).not.toBeInTheDocument();

    nodesDb.nodes = [makeNode({ id: 41, name: 'lab-pi-01', hostname: 'lab-pi-01', status: 'ok' })];
    expect(emit('NodeStatusChanged', nodesDb.nodes[0])).toBeGreaterThan(0);
    expect(await screen.findByText('Running')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('node-waiting')).not.toBeInTheDocument());
  });

  it('a node that failed to install is not shown as waiting', async () => {
    nodesDb.nodes = [makeNode({ id: 41, status: 'error' })];
    renderApp({ path: '/nodes/41', loggedIn: true });
    expect(await screen.findByText('Error')).toBeInTheDocument();
    expect(screen.queryByTestId('node-waiting')).not.toBeInTheDocument();
  });

  it('says it in French', async () => {
    db.user = makeUser({ locale: 'fr' });
    nodesDb.nodes = [makeNode({ id: 41, name: null, status: 'to install', info: {} })];
    renderApp({ path: '/nodes/41', loggedIn: true });
    expect(await screen.findByText('En attente que la machine lance la commande d’installation…')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Voir la commande d’installation' })).toBeInTheDocument();

    nodesDb.nodes = [makeNode({ id: 41, status: 'installing' })];
    emit('NodeStatusChanged', nodesDb.nodes[0]);
    expect(await screen.findByText('La machine s’est signalée : en attente qu’elle rejoigne le cluster…')).toBeInTheDocument();
  });
});
