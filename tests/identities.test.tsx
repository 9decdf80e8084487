import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tokenStore } from '../src/httpClient';
import { browserNavigation } from '../src/utils/browserNavigation';
import { db, requestsTo } from './mocks/db';
import { makeUser, PASSWORD, SESSION_TOKEN } from './mocks/fixtures';
import { adminUsersDb } from './mocks/adminUsers';
import { makeAdminUserDetail } from './mocks/adminUsers';
import { invitationDb, resetInvitationDb } from './mocks/invitations';
import { renderApp } from './render';

// Institutional sign-in in the console: the "Sign in with" buttons, the callback page
// that exchanges the one-time code, linked identities on the profile and on the admin user page.

const providers = [{ id: 'uni', name: 'University of X' }];
let navigation: { assign: ReturnType<typeof vi.spyOn>; replace: ReturnType<typeof vi.spyOn> };

beforeEach(() => {
  resetInvitationDb();
  window.sessionStorage.clear();
  navigation = {
    assign: vi.spyOn(browserNavigation, 'assign').mockImplementation(() => undefined),
    replace: vi.spyOn(browserNavigation, 'replace').mockImplementation(() => undefined),
  };
});
afterEach(() => {
  vi.restoreAllMocks();
  window.history.replaceState(null, '', '/');
});

const identity = (overrides: Record<string, unknown> = {}) => ({
  id: 9,
  provider: 'uni',
  provider_name: 'University of X',
  issuer: 'https://login.uni.example',
  email: 'ada@uni.example',
  linked_at: '2026-11-20T08:00:00.000Z',
  can_unlink: true,
  ...overrides,
});

describe('sign in with an institution', () => {
  it('shows a button per provider on the login and registration pages', async () => {
    renderApp({ path: '/', settings: { oidcProviders: providers } });
    expect(await screen.findByRole('link', { name: 'Sign in with University of X' })).toHaveAttribute('href', '/auth/oidc/uni');
    expect(screen.getByRole('button', { name: 'Login' })).toBeInTheDocument();
  });

  it('shows nothing without providers, and the error of a failed sign-in on the login page', async () => {
    const { unmount } = renderApp({ path: '/' });
    expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument();
    expect(screen.queryByTestId('institution-sign-in')).not.toBeInTheDocument();
    unmount();
    window.history.replaceState(null, '', '/?oidc_error=consent_denied&oidc_provider=uni');
    renderApp({ path: '/?oidc_error=consent_denied', settings: { oidcProviders: providers } });
    expect(await screen.findByRole('alert')).toHaveTextContent('You did not allow University of X to sign you in.');
  });

  it('the callback page exchanges the code for the session token and goes on', async () => {
    invitationDb.codes.add('one-time-code');
    window.sessionStorage.setItem('testbed.after_sign_in', '/invitations/41/secret');
    renderApp({ path: '/oidc/callback?code=one-time-code' });
    await waitFor(() => expect(navigation.replace).toHaveBeenCalledWith('/invitations/41/secret'));
    expect(requestsTo('POST', '/auth/oidc/exchange')[0]!.body).toEqual({ code: 'one-time-code' });
    expect(tokenStore.get()).toBe(SESSION_TOKEN);
  });

  it('the callback page says when the code is refused', async () => {
    renderApp({ path: '/oidc/callback?code=stale' });
    expect(await screen.findByText('This sign-in code is invalid or has expired. Please sign in again.')).toBeInTheDocument();
    expect(tokenStore.get()).toBeNull();
  });

  it('the callback page takes errors to the login page, and linking outcomes to the profile', async () => {
    const first = renderApp({ path: '/oidc/callback?intent=login&error=consent_denied&provider=uni' });
    await waitFor(() => expect(navigation.replace).toHaveBeenCalledWith('/?oidc_error=consent_denied&oidc_provider=uni'));
    first.unmount();
    const second = renderApp({ path: '/oidc/callback?intent=link&error=linked_elsewhere&provider=uni' });
    await waitFor(() => expect(navigation.replace).toHaveBeenCalledWith('/profile?identity_error=linked_elsewhere&identity_provider=uni'));
    second.unmount();
    renderApp({ path: '/oidc/callback?linked=uni' });
    await waitFor(() => expect(navigation.replace).toHaveBeenCalledWith('/profile?identity_linked=uni'));
  });
});

describe('linked identities on the profile', () => {
  it('lists them, links another after the password, unlinks after confirming', async () => {
    invitationDb.identities = [identity({ provider: 'lab', provider_name: 'Lab' })];
    const { user } = renderApp({ path: '/profile?identity_linked=uni', loggedIn: true, settings: { oidcProviders: providers } });
    expect(await screen.findByText('University of X is now linked to your account.')).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Institutional sign-in' }, { timeout: 10_000 });
    expect(within(list).getByText('Lab · ada@uni.example')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Link University of X' }));
    const dialog = await screen.findByRole('dialog', { name: 'Link University of X' });
    await user.type(within(dialog).getByLabelText(/^Password/), 'not it');
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(await within(dialog).findByText('The password is incorrect.')).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText(/^Password/));
    await user.type(within(dialog).getByLabelText(/^Password/), PASSWORD);
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(navigation.assign).toHaveBeenCalledWith('https://idp.example/auth?client_id=console&provider=uni'));
    // The browser would be at the provider now; here the dialog is still open.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(within(list).getByRole('button', { name: 'Unlink' }));
    const confirm = await screen.findByRole('dialog', { name: 'Unlink Lab?' });
    await user.click(within(confirm).getByRole('button', { name: 'Unlink' }));
    await waitFor(() => expect(requestsTo('DELETE', '/api/identities/9')).toHaveLength(1));
    expect(await screen.findByText('No institutional account is linked.')).toBeInTheDocument();
  });

  it('cannot unlink the only way in, and shows a linking error', async () => {
    invitationDb.identities = [identity({ can_unlink: false })];
    renderApp({ path: '/profile?identity_error=linked_elsewhere&identity_provider=uni', loggedIn: true, settings: { oidcProviders: providers } });
    expect(await screen.findByText('This University of X account is already linked to another account.')).toBeInTheDocument();
    expect(await screen.findByText('This is your only way to sign in: set a password first.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Unlink' })).toBeDisabled();
    // Already linked: not offered again.
    expect(screen.queryByRole('button', { name: 'Link University of X' })).not.toBeInTheDocument();
  });
});

describe('the admin user page', () => {
  it('shows the user’s linked identities', async () => {
    db.user = makeUser({ admin: true });
    adminUsersDb.details.set(5, makeAdminUserDetail());
    invitationDb.adminIdentities.set(5, [identity({ email: 'grace@uni.example' })]);
    renderApp({ path: '/admin/users/5', loggedIn: true });
    const list = await screen.findByRole('list', { name: 'Linked identities' }, { timeout: 5000 });
    expect(within(list).getByText('University of X · grace@uni.example')).toBeInTheDocument();
    expect(within(list).getByText(/https:\/\/login\.uni\.example/)).toBeInTheDocument();
  });
});
