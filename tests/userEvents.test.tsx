import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { makeRequestToDecide, makeWorkspace } from './fixtures.teams';
import { db, requestsTo } from './mocks/db';
import { makeUser } from './mocks/fixtures';
import { ACCESS_ENDED_NOTICE_DELAY_MS } from '../src/resources/workspaces/PodsSection';
import { tokenStore } from '../src/httpClient';
import { renderApp } from './render';

// The console's user channel: a workspace deleted by a platform admin
// (WorkspaceDeleted) leaves the sidebar tree, and whoever is on its page goes home, told why; a
// request closed without the user (RequestClosed: its requester left the team) drops from the
// Requests badge at once. The whole console runs, with laravel-echo replaced by an in-memory
// client whose `emit` plays what the server would send. The whole console renders several
// times per test: generous timeouts, for a loaded machine.

const realtime = vi.hoisted(() => {
  const handlers = new Map<string, Set<(payload: unknown) => void>>();
  const echo = {
    private: (name: string) => ({
      listen: (event: string, handler: (payload: unknown) => void) => {
        const key = `${name} ${event}`;
        handlers.set(key, (handlers.get(key) ?? new Set()).add(handler));
      },
      stopListening: (event: string, handler: (payload: unknown) => void) => handlers.get(`${name} ${event}`)?.delete(handler),
    }),
    leave: () => {},
    disconnect: () => handlers.clear(),
  };
  return { echo, handlers };
});
vi.mock('../src/realtime/echo', () => ({ USER_EVENTS: ['RequestCreated', 'RequestDecided'], createEcho: () => realtime.echo }));

/** Plays a server event on a private channel (laravel-echo listens with a leading dot). */
const emit = (channel: string, event: string, payload: unknown) =>
  act(() => {
    for (const handler of realtime.handlers.get(`${channel} .${event}`) ?? []) handler(payload);
  });
const listening = (channel: string, event: string) => (realtime.handlers.get(`${channel} .${event}`)?.size ?? 0) > 0;

const sidebar = () => document.querySelector('.RaSidebar-fixed, .RaSidebar-paper') as HTMLElement;
const vision = { id: 7, name: 'vision', label: 'Vision', team: { id: 3, name: 'edgelab' }, role: 'manager' };
const robots = { id: 8, name: 'robots', label: 'Robots', team: { id: 3, name: 'edgelab' }, role: 'member' };
const deleted = (workspace: typeof vision) => ({
  id: workspace.id,
  name: workspace.name,
  label: workspace.label,
  namespace: `edgelab-${workspace.name}`,
  team: { id: 3, name: 'edgelab', fullname: 'Edge Computing Lab' },
});

beforeEach(() => {
  realtime.handlers.clear();
  db.pods = { 'edgelab-vision': [{ name: 'web-1', namespace: 'edgelab-vision', status: { phase: 'Running' } }] };
  db.user = makeUser({ teams: [{ id: 3, name: 'edgelab', role: 'owner' }], workspaces: [vision, robots] });
  db.workspaces = [makeWorkspace(), makeWorkspace({ id: 8, name: 'robots', label: 'Robots', namespace: 'edgelab-robots', role: 'member', can_manage: false })];
});

describe('WorkspaceDeleted on the user channel', () => {
  it('moves a member on the workspace page home with a notice, and the workspace leaves the sidebar', async () => {
    const { path } = renderApp({ path: '/workspaces/7', loggedIn: true });
    expect(await screen.findByRole('heading', { name: 'Vision', level: 1 })).toBeInTheDocument();
    expect(within(sidebar()).getByRole('menuitem', { name: 'Vision' })).toBeInTheDocument();
    await waitFor(() => expect(listening('App.User.1', 'WorkspaceDeleted')).toBe(true));
    const userLoads = requestsTo('GET', '/user').length;
    const workspaceLoads = requestsTo('GET', '/api/subnamespaces/7').length;

    await waitFor(() => expect(listening('workspace.7', 'SubscriptionEnded')).toBe(true));

    // As the server does: the rows go, the workspace subscription ends, each member is told.
    db.workspaces = db.workspaces.filter((workspace) => workspace.id !== 7);
    db.user = { ...db.user, workspaces: [robots] };
    emit('workspace.7', 'SubscriptionEnded', { reason: 'access-ended', message: 'You no longer have access to this workspace.' });
    emit('App.User.1', 'WorkspaceDeleted', deleted(vision));

    await waitFor(() => expect(path()).toBe('/'));
    expect(await screen.findByText('Workspace Vision was deleted by a platform admin.')).toBeInTheDocument();
    // The lost access is not told on top of it (the Pods section's notice waits, and the page was left).
    await new Promise((resolve) => setTimeout(resolve, ACCESS_ENDED_NOTICE_DELAY_MS + 400));
    expect(screen.queryByText('You no longer have access to workspace Vision.')).not.toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Your workspaces' })).toBeInTheDocument();
    await waitFor(() => expect(within(sidebar()).queryByRole('menuitem', { name: 'Vision' })).not.toBeInTheDocument());
    expect(within(sidebar()).getByRole('menuitem', { name: 'Robots' })).toBeInTheDocument();
    expect(requestsTo('GET', '/user').length).toBeGreaterThan(userLoads);
    // Gone from its page before the refresh, so the deleted workspace is not asked for again.
    expect(requestsTo('GET', '/api/subnamespaces/7')).toHaveLength(workspaceLoads);
  }, 60_000);

  it('elsewhere (another workspace page) keeps the page, tells, and refreshes the tree', async () => {
    const { path } = renderApp({ path: '/workspaces/8', loggedIn: true });
    expect(await screen.findByRole('heading', { name: 'Robots', level: 1 })).toBeInTheDocument();
    await waitFor(() => expect(listening('App.User.1', 'WorkspaceDeleted')).toBe(true));
    db.workspaces = db.workspaces.filter((workspace) => workspace.id !== 7);
    db.user = { ...db.user, workspaces: [robots] };
    emit('App.User.1', 'WorkspaceDeleted', deleted(vision));
    expect(await screen.findByText('Workspace Vision was deleted by a platform admin.')).toBeInTheDocument();
    await waitFor(() => expect(within(sidebar()).queryByRole('menuitem', { name: 'Vision' })).not.toBeInTheDocument());
    expect(path()).toBe('/workspaces/8');
    expect(screen.getByRole('heading', { name: 'Robots', level: 1 })).toBeInTheDocument();
  }, 60_000);
});

describe('RequestClosed on the user channel', () => {
  it('refreshes the Requests badge at once, without a notice', async () => {
    db.toDecide = [makeRequestToDecide({ id: 12, type: 'JoinWorkspace' })];
    renderApp({ path: '/', loggedIn: true });
    await screen.findByRole('heading', { name: 'Your workspaces' });
    expect(await within(sidebar()).findByRole('menuitem', { name: 'Requests, 1 pending request' })).toBeInTheDocument();
    await waitFor(() => expect(listening('App.User.1', 'RequestClosed')).toBe(true));

    db.toDecide = [{ ...db.toDecide[0], status: 'Denied', decision_message: 'You are no longer a member of this team.', can_decide: false }];
    emit('App.User.1', 'RequestClosed', db.toDecide[0]);
    expect(await within(sidebar()).findByRole('menuitem', { name: 'Requests' })).toBeInTheDocument();
    expect(screen.queryByText('One of your requests has been decided.')).not.toBeInTheDocument();
    expect(screen.queryByText('A new request is waiting for your decision.')).not.toBeInTheDocument();
  }, 60_000);
});

describe('SubscriptionEnded on the user channel', () => {
  it('logs out at once when the account is disabled, and the login page says why', async () => {
    renderApp({ path: '/', loggedIn: true });
    await screen.findByRole('heading', { name: 'Your workspaces' });
    await waitFor(() => expect(listening('App.User.1', 'SubscriptionEnded')).toBe(true));
    emit('App.User.1', 'SubscriptionEnded', { reason: 'account-disabled', message: 'This account is disabled.' });
    expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('This account is disabled.');
    expect(tokenStore.get()).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Your workspaces' })).not.toBeInTheDocument();
  }, 60_000);

  it('keeps the session when only a channel access ended', async () => {
    renderApp({ path: '/', loggedIn: true });
    await screen.findByRole('heading', { name: 'Your workspaces' });
    await waitFor(() => expect(listening('App.User.1', 'SubscriptionEnded')).toBe(true));
    emit('App.User.1', 'SubscriptionEnded', { reason: 'access-ended', message: 'You no longer have access to this channel.' });
    expect(await screen.findByText('Your session has ended. Sign in again.')).toBeInTheDocument();
    expect(tokenStore.get()).not.toBeNull();
    expect(screen.getByRole('heading', { name: 'Your workspaces' })).toBeInTheDocument();
  }, 60_000);
});
