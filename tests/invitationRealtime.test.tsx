import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { makeTeam } from './fixtures.teams';
import { db, requestsTo } from './mocks/db';
import { makeUser } from './mocks/fixtures';
import { invitationDb, makeInvitation, resetInvitationDb } from './mocks/invitations';
import { renderApp } from './render';

// Invitations: InvitationAccepted on the inviter's user channel refreshes the team page (members
// and pending invitations) and says who accepted. The realtime client is a stand-in whose
// `emit` plays what the server would send (as in userEvents.test.tsx).

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

const emit = (channel: string, event: string, payload: unknown) =>
  act(() => {
    for (const handler of realtime.handlers.get(`${channel} .${event}`) ?? []) handler(payload);
  });
const listening = (channel: string, event: string) => (realtime.handlers.get(`${channel} .${event}`)?.size ?? 0) > 0;

beforeEach(() => {
  realtime.handlers.clear();
  resetInvitationDb();
  db.user = makeUser({ teams: [{ id: 3, name: 'edgelab', role: 'owner' }] as any });
});

describe('InvitationAccepted on the user channel', () => {
  it('refreshes the team page’s invitations and members, and says who accepted', async () => {
    db.teams = [makeTeam()];
    invitationDb.invitations = [makeInvitation({ email: 'colleague@uni.example' })];
    renderApp({ path: '/teams/3', loggedIn: true });
    const list = await screen.findByRole('list', { name: 'Invitations' }, { timeout: 10_000 });
    expect(within(list).getByText('colleague@uni.example')).toBeInTheDocument();
    await waitFor(() => expect(listening('App.User.1', 'InvitationAccepted')).toBe(true));
    const teamLoads = requestsTo('GET', '/api/tenants/3').length;

    // As the server does: the invitation is no longer pending, the person is a member.
    invitationDb.invitations = [];
    db.teams = [makeTeam({ users: [...makeTeam().users, { id: 9, name: 'Colleague Person', firstname: 'Colleague', lastname: 'Person', email: 'colleague@uni.example', enabled: true, pivot: { role: 'member' } }] })];
    emit('App.User.1', 'InvitationAccepted', { id: 41, team_id: 3, email: 'colleague@uni.example', user_id: 9 });

    expect(await screen.findByText('colleague@uni.example accepted your invitation.')).toBeInTheDocument();
    expect(await screen.findByText('No pending invitations.')).toBeInTheDocument();
    await waitFor(() => expect(requestsTo('GET', '/api/tenants/3').length).toBeGreaterThan(teamLoads));
    expect(await screen.findByText('Colleague Person')).toBeInTheDocument();
  }, 60_000);
});
