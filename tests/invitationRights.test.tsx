import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18nProvider } from '../src/i18n';
import { LOCALE_KEY } from '../src/i18n/locale';
import { browserNavigation } from '../src/utils/browserNavigation';
import { makeTeam } from './fixtures.teams';
import { db, requestsTo } from './mocks/db';
import { makeUser } from './mocks/fixtures';
import { record } from './mocks/http';
import { invitationDb, makeInvitation, resetInvitationDb } from './mocks/invitations';
import { server } from './mocks/server';
import { renderApp } from './render';

// Invitations whose grant no longer holds (a suspended team, an inviter who may no longer give
// the role) and spent invitation budgets, as the console shows them, in English and French.

beforeEach(() => {
  resetInvitationDb();
  vi.spyOn(browserNavigation, 'assign').mockImplementation(() => undefined);
});
afterEach(async () => {
  vi.restoreAllMocks();
  localStorage.removeItem(LOCALE_KEY);
  await i18nProvider.changeLocale('en');
});

const INVITER_EN = 'The person who sent this invitation can no longer invite people to this team with this role. Ask the team to send it again.';
const INVITER_FR =
  'La personne qui a envoyé cette invitation ne peut plus inviter quelqu’un dans cette équipe avec ce rôle. Demandez à l’équipe de vous la renvoyer.';
const SUSPENDED_EN = 'This team is suspended: its invitations cannot be accepted until it is enabled again.';

const preview = {
  id: 41,
  email: 'colleague@uni.example',
  role: 'manager',
  team: { id: 3, name: 'edgelab', fullname: 'Edge Computing Lab' },
  workspaces: [],
  invited_by: 'Ada Lovelace',
  expires_at: '2026-11-29T10:15:00.000Z',
};

describe('the invitation link when the grant no longer holds', () => {
  it('shows the server’s reason in French when the console is in French (it asks in the console’s language)', async () => {
    server.use(
      http.get('/api/invitations/:id/:token', async ({ request }) => {
        await record(request);
        const french = (request.headers.get('Accept-Language') ?? '').startsWith('fr');
        return HttpResponse.json({ message: french ? INVITER_FR : INVITER_EN }, { status: 403 });
      }),
    );
    localStorage.setItem(LOCALE_KEY, 'fr');
    await i18nProvider.changeLocale('fr');
    renderApp({ path: '/invitations/41/secret-token' });
    expect(await screen.findByText('Cette invitation ne peut pas être utilisée', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByText(INVITER_FR)).toBeInTheDocument();
    expect(requestsTo('GET', '/api/invitations/41/secret-token')[0]!.headers.get('Accept-Language')).toMatch(/^fr/);
  });

  it('signed in with the invited address: shows why joining was refused (a suspended team)', async () => {
    invitationDb.links.set('41/secret-token', { preview });
    server.use(
      http.post('/api/invitations/:id/:token/accept', async ({ request }) => {
        await record(request);
        return HttpResponse.json({ message: SUSPENDED_EN }, { status: 403 });
      }),
    );
    db.user = makeUser({ email: 'colleague@uni.example' });
    renderApp({ path: '/invitations/41/secret-token', loggedIn: true });
    expect(await screen.findByText(SUSPENDED_EN, {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByText('This invitation cannot be used')).toBeInTheDocument();
    expect(browserNavigation.assign).not.toHaveBeenCalled();
  });
});

describe('the team page', () => {
  beforeEach(() => {
    db.teams = [makeTeam()];
    db.user = makeUser({ teams: [{ id: 3, name: 'edgelab', fullname: 'Edge Computing Lab', shortname: 'Edge Lab', role: 'owner' }] as any });
  });

  it('marks an invitation whose inviter may no longer give its role; resending it clears the mark', async () => {
    invitationDb.invitations = [makeInvitation({ email: 'orphan@uni.example', inviter_can_grant: false })];
    const { user } = renderApp({ path: '/teams/3', loggedIn: true });
    const list = await screen.findByRole('list', { name: 'Invitations' }, { timeout: 10_000 });
    const item = within(list).getByText('orphan@uni.example').closest('li')!;
    expect(within(item).getByText('Resend needed')).toBeInTheDocument();
    await user.click(within(item).getByRole('button', { name: 'Resend' }));
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Invitations' })).queryByText('Resend needed')).not.toBeInTheDocument());
  });

  it('says so in French', async () => {
    localStorage.setItem(LOCALE_KEY, 'fr');
    await i18nProvider.changeLocale('fr');
    invitationDb.invitations = [makeInvitation({ email: 'orphan@uni.example', inviter_can_grant: false })];
    renderApp({ path: '/teams/3', loggedIn: true });
    const list = await screen.findByRole('list', { name: 'Invitations' }, { timeout: 10_000 });
    expect(within(list).getByText('À renvoyer')).toBeInTheDocument();
  });

  it('shows the spent budget the server names when inviting', async () => {
    const message = 'You may send 25 invitations per 24 h for this team and have reached that limit. Try again in 60 minutes.';
    server.use(
      http.post('/api/tenants/:team/invitations', async ({ request }) => {
        await record(request);
        return HttpResponse.json({ message }, { status: 429, headers: { 'Retry-After': '3600' } });
      }),
    );
    const { user } = renderApp({ path: '/teams/3', loggedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Invite' }, { timeout: 10_000 }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByRole('textbox', { name: /Email/ }), 'new@uni.example');
    await user.click(within(dialog).getByRole('button', { name: 'Send the invitation' }));
    expect(await within(dialog).findByText(message)).toBeInTheDocument();
  });
});
