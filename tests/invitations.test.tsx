import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tokenStore } from '../src/httpClient';
import { i18nProvider } from '../src/i18n';
import { LOCALE_KEY } from '../src/i18n/locale';
import { browserNavigation } from '../src/utils/browserNavigation';
import { makeTeam } from './fixtures.teams';
import { db, requestsTo } from './mocks/db';
import { makeUser, PASSWORD, SESSION_TOKEN } from './mocks/fixtures';
import { invitationDb, makeInvitation, resetInvitationDb } from './mocks/invitations';
import { record } from './mocks/http';
import { server } from './mocks/server';
import { field } from './queries';
import { renderApp } from './render';

// Invitations in the console: the team page's pending invitations (invite, resend,
// revoke) and the landing page of the mailed link, against tests/mocks/invitations.ts.

let navigation: { assign: ReturnType<typeof vi.spyOn>; replace: ReturnType<typeof vi.spyOn>; reload: ReturnType<typeof vi.spyOn> };

beforeEach(() => {
  resetInvitationDb();
  navigation = {
    assign: vi.spyOn(browserNavigation, 'assign').mockImplementation(() => undefined),
    replace: vi.spyOn(browserNavigation, 'replace').mockImplementation(() => undefined),
    reload: vi.spyOn(browserNavigation, 'reload').mockImplementation(() => undefined),
  };
});
afterEach(async () => {
  vi.restoreAllMocks();
  await i18nProvider.changeLocale('en');
});

const preview = {
  id: 41,
  email: 'colleague@uni.example',
  role: 'manager',
  team: { id: 3, name: 'edgelab', fullname: 'Edge Computing Lab' },
  workspaces: [{ id: 7, name: 'vision', label: 'Vision' }],
  invited_by: 'Ada Lovelace',
  expires_at: '2026-11-29T10:15:00.000Z',
};

describe('invitations on /teams/{id}', () => {
  it('an owner sees the pending ones, invites with a role and workspaces, resends and revokes after confirming', async () => {
    db.teams = [makeTeam()];
    db.user = makeUser({ teams: [{ id: 3, name: 'edgelab', fullname: 'Edge Computing Lab', shortname: 'Edge Lab', role: 'owner' }] as any });
    invitationDb.invitations = [makeInvitation({ email: 'late@uni.example', expired: true })];
    const { user } = renderApp({ path: '/teams/3', loggedIn: true });
    const list = await screen.findByRole('list', { name: 'Invitations' }, { timeout: 10_000 });
    expect(within(list).getByText('late@uni.example')).toBeInTheDocument();
    expect(within(list).getByText('Expired')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Invite' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite someone to Edge Computing Lab' });
    await user.type(within(dialog).getByRole('textbox', { name: /Email/ }), 'new@uni.example');
    await user.click(within(dialog).getByRole('combobox', { name: 'Team role' }));
    await user.click(await screen.findByRole('option', { name: 'Manager' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Vision' }));
    await user.click(within(dialog).getByRole('button', { name: 'Send the invitation' }));
    await waitFor(() => expect(requestsTo('POST', '/api/tenants/3/invitations')).toHaveLength(1));
    expect(requestsTo('POST', '/api/tenants/3/invitations')[0]!.body).toEqual({ email: 'new@uni.example', role: 'manager', workspace_ids: [7] });
    expect(await screen.findByText('Invitation sent to new@uni.example')).toBeInTheDocument();
    expect(await within(screen.getByRole('list', { name: 'Invitations' })).findByText('new@uni.example')).toBeInTheDocument();

    const late = within(screen.getByRole('list', { name: 'Invitations' })).getByText('late@uni.example').closest('li')!;
    await user.click(within(late).getByRole('button', { name: 'Resend' }));
    await waitFor(() => expect(requestsTo('POST', '/api/tenants/3/invitations/41/resend')).toHaveLength(1));
    expect(await screen.findByText('Invitation sent again to late@uni.example')).toBeInTheDocument();

    await user.click(within(late).getByRole('button', { name: 'Revoke' }));
    const confirm = await screen.findByRole('dialog', { name: 'Revoke the invitation to late@uni.example?' });
    expect(confirm).toHaveTextContent('The link in the mail stops working at once.');
    await user.click(within(confirm).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(requestsTo('DELETE', '/api/tenants/3/invitations/41')).toHaveLength(1));
    await waitFor(() => expect(screen.queryByText('late@uni.example')).not.toBeInTheDocument());
    // A long flow (invite, resend, revoke, each confirmed): twice the default time on a loaded machine.
  }, 40_000);

  it('offers only roles up to the inviter’s own and shows the server’s field message', async () => {
    db.teams = [makeTeam({ role: 'manager' })];
    const { user } = renderApp({ path: '/teams/3', loggedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Invite' }, { timeout: 10_000 }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('combobox', { name: 'Team role' }));
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['Member', 'Manager']);
    await user.click(screen.getByRole('option', { name: 'Member' }));
    await user.type(within(dialog).getByRole('textbox', { name: /Email/ }), 'member@uni.example');
    await user.click(within(dialog).getByRole('button', { name: 'Send the invitation' }));
    expect(await within(dialog).findByText('This person is already a member of this team.')).toBeInTheDocument();
  });

  it('is not shown to a plain member', async () => {
    db.teams = [makeTeam({ role: 'member' })];
    renderApp({ path: '/teams/3', loggedIn: true });
    expect(await screen.findByRole('heading', { name: 'Edge Computing Lab', level: 1 }, { timeout: 10_000 })).toBeInTheDocument();
    await screen.findByRole('heading', { name: 'Users' });
    expect(screen.queryByRole('button', { name: 'Invite' })).not.toBeInTheDocument();
    expect(requestsTo('GET', '/api/tenants/3/invitations')).toHaveLength(0);
  });
});

describe('the invitation link /invitations/{id}/{token}', () => {
  it('signed out: says who invites to what, logs in with the invited address and joins', async () => {
    invitationDb.links.set('41/secret-token', { preview });
    db.user = makeUser({ email: 'colleague@uni.example' });
    db.sessions.clear();
    const { user } = renderApp({ path: '/invitations/41/secret-token' });
    expect(await screen.findByText('Ada Lovelace invites colleague@uni.example to join Edge Computing Lab as Manager.')).toBeInTheDocument();
    expect(screen.getByText('Workspaces: Vision')).toBeInTheDocument();
    await user.type(field('Password'), PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Log in and join' }));
    await waitFor(() => expect(navigation.assign).toHaveBeenCalledWith('/teams/3'));
    expect(requestsTo('POST', '/login')[0]!.body).toEqual({ email: 'colleague@uni.example', password: PASSWORD });
    expect(requestsTo('POST', '/api/invitations/41/secret-token/accept')[0]!.headers.get('Authorization')).toBe(`Bearer ${SESSION_TOKEN}`);
    expect(tokenStore.get()).toBe(SESSION_TOKEN);
  });

  it('signed out: registers with the invited address, then joins', async () => {
    invitationDb.links.set('41/secret-token', { preview });
    // The account registered here is the one that logs in (the mock's /register forgets it).
    server.use(
      http.post('/login', async ({ request }) => {
        await record(request);
        db.user = makeUser({ email: 'colleague@uni.example' });
        db.sessions.add(SESSION_TOKEN);
        return HttpResponse.json({ token: SESSION_TOKEN });
      }),
    );
    const { user } = renderApp({ path: '/invitations/41/secret-token' });
    await user.click(await screen.findByRole('tab', { name: 'I am new here' }));
    await user.type(field('First name'), 'Alan');
    await user.type(field('Last name'), 'Turing');
    await user.type(field('Password'), PASSWORD);
    await user.type(field('Password confirmation'), PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Create my account and join' }));
    await waitFor(() => expect(navigation.assign).toHaveBeenCalledWith('/teams/3'), { timeout: 10_000 });
    expect(requestsTo('POST', '/register')[0]!.body).toEqual({
      firstname: 'Alan',
      lastname: 'Turing',
      email: 'colleague@uni.example',
      password: PASSWORD,
      password_confirmation: PASSWORD,
      // The link goes with it: the server lets an invited registration past the per-address limit.
      invitation: { id: '41', token: 'secret-token' },
    });
  });

  it('signs up with the registration form’s labels and its password strength meter, in English and French', async () => {
    invitationDb.links.set('41/secret-token', { preview });
    const { user, unmount } = renderApp({ path: '/invitations/41/secret-token' });
    await user.click(await screen.findByRole('tab', { name: 'I am new here' }));
    // The labels of /registration (auth.fields.*), not labels of the invitation page's own.
    for (const label of ['First name', 'Last name', 'Password', 'Password confirmation']) expect(field(label)).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    await user.type(field('Password'), 'password');
    const meter = await screen.findByRole('progressbar', { name: 'Password strength: very weak' });
    expect(meter).toHaveAttribute('aria-valuetext', 'very weak');
    await user.clear(field('Password'));
    await user.type(field('Password'), 'correct horse battery staple');
    await waitFor(() => expect(screen.getByRole('progressbar', { name: /^Password strength: / })).toHaveAccessibleName('Password strength: very strong'));
    // The invited address counts as the person's own words, as on /registration.
    await user.clear(field('Password'));
    await user.type(field('Password'), 'colleague@uni.example');
    await waitFor(() => expect(screen.getByRole('progressbar', { name: /^Password strength: / })).toHaveAccessibleName(/very weak|weak/));
    unmount();

    localStorage.setItem(LOCALE_KEY, 'fr');
    const french = renderApp({ path: '/invitations/41/secret-token' });
    await french.user.click(await screen.findByRole('tab', { name: 'Je suis nouveau' }));
    for (const label of ['Prénom', 'Nom', 'Mot de passe', 'Confirmation du mot de passe']) expect(field(label)).toBeInTheDocument();
    await french.user.type(field('Mot de passe'), 'password');
    expect(await screen.findByRole('progressbar', { name: /^Robustesse du mot de passe/ })).toBeInTheDocument();
  });

  it('shows the server’s field errors of a refused registration', async () => {
    invitationDb.links.set('41/secret-token', { preview });
    const { user } = renderApp({ path: '/invitations/41/secret-token' });
    await user.click(await screen.findByRole('tab', { name: 'I am new here' }));
    await user.type(field('First name'), 'Alan');
    await user.type(field('Last name'), 'Turing');
    await user.type(field('Password'), 'short');
    await user.type(field('Password confirmation'), 'short');
    await user.click(screen.getByRole('button', { name: 'Create my account and join' }));
    expect(await screen.findByText('The password field must be at least 8 characters.')).toBeInTheDocument();
    expect(navigation.assign).not.toHaveBeenCalled();
  });

  it('signed in with the invited address: joins at once and goes to the team', async () => {
    invitationDb.links.set('41/secret-token', { preview });
    db.user = makeUser({ email: 'colleague@uni.example' });
    renderApp({ path: '/invitations/41/secret-token', loggedIn: true });
    await waitFor(() => expect(navigation.assign).toHaveBeenCalledWith('/teams/3'));
    expect(requestsTo('POST', '/api/invitations/41/secret-token/accept')).toHaveLength(1);
  });

  it('signed in with another address: says so and can sign out to continue', async () => {
    invitationDb.links.set('41/secret-token', { preview });
    db.user = makeUser({ email: 'someone.else@uni.example' });
    const { user } = renderApp({ path: '/invitations/41/secret-token', loggedIn: true });
    expect(await screen.findByText('This invitation is for colleague@uni.example, but you are signed in as someone.else@uni.example.')).toBeInTheDocument();
    expect(requestsTo('POST', '/api/invitations/41/secret-token/accept')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Sign out and continue as colleague@uni.example' }));
    await waitFor(() => expect(navigation.reload).toHaveBeenCalled());
    expect(requestsTo('POST', '/logout')).toHaveLength(1);
    expect(tokenStore.get()).toBeNull();
  });

  it('says why a link cannot be used', async () => {
    invitationDb.links.set('41/used', { refused: 'This invitation has already been used.' });
    renderApp({ path: '/invitations/41/used' });
    expect(await screen.findByText('This invitation cannot be used')).toBeInTheDocument();
    expect(screen.getByText('This invitation has already been used.')).toBeInTheDocument();
  });

  it('offers the institutions and comes back here after signing in with one', async () => {
    invitationDb.links.set('41/secret-token', { preview });
    const { user } = renderApp({ path: '/invitations/41/secret-token', settings: { oidcProviders: [{ id: 'uni', name: 'University of X' }] } });
    const button = await screen.findByRole('link', { name: 'Sign in with University of X' });
    expect(button).toHaveAttribute('href', '/auth/oidc/uni');
    button.addEventListener('click', (event) => event.preventDefault());
    await user.click(button);
    expect(window.sessionStorage.getItem('testbed.after_sign_in')).toBe('/invitations/41/secret-token');
  });
});
