import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tokenStore } from '../src/httpClient';
import { i18nProvider } from '../src/i18n';
import { LOCALE_KEY } from '../src/i18n/locale';
import { browserNavigation } from '../src/utils/browserNavigation';
import { db, requestsTo } from './mocks/db';
import { makeUser, SESSION_TOKEN } from './mocks/fixtures';
import { authorized, record } from './mocks/http';
import { invitationDb, resetInvitationDb } from './mocks/invitations';
import { server } from './mocks/server';
import { renderApp } from './render';

// The console's /oidc/callback page and the pages it hands on to: someone signed in here is not
// replaced by whoever's sign-in code the page is given without being asked (login CSRF), and
// the error of a failed sign-in is a code the console words itself, never the link's text.

const providers = [{ id: 'uni', name: 'University of X' }];
const OTHER_TOKEN = '2|other-session';
const grace = makeUser({ id: 2, firstname: 'Grace', lastname: 'Hopper', name: 'Grace Hopper', email: 'grace@uni.example' });
let navigation: { replace: ReturnType<typeof vi.spyOn> };

beforeEach(() => {
  resetInvitationDb();
  window.sessionStorage.clear();
  navigation = { replace: vi.spyOn(browserNavigation, 'replace').mockImplementation(() => undefined) };
});
afterEach(async () => {
  vi.restoreAllMocks();
  window.history.replaceState(null, '', '/');
  await i18nProvider.changeLocale('en');
});

/** The exchange gives the session of `user` (token OTHER_TOKEN); GET /user answers per token. */
const codeFor = (user: ReturnType<typeof makeUser>) => {
  server.use(
    http.post('/auth/oidc/exchange', async ({ request }) => {
      await record(request);
      db.sessions.add(OTHER_TOKEN);
      return HttpResponse.json({ token: OTHER_TOKEN });
    }),
    http.get('/user', async ({ request }) => {
      await record(request);
      if (!authorized(request)) return HttpResponse.json({ message: 'Unauthenticated.' }, { status: 401 });
      return HttpResponse.json(request.headers.get('Authorization') === `Bearer ${OTHER_TOKEN}` ? user : db.user);
    }),
  );
};

const logoutTokens = () => requestsTo('POST', '/logout').map((request) => request.headers.get('Authorization'));

describe('a sign-in code while someone is signed in', () => {
  it('names both accounts and, by default (Enter), keeps the one signed in and ends the new session', async () => {
    codeFor(grace);
    const { user } = renderApp({ path: '/oidc/callback?code=planted-code', loggedIn: true });
    expect(await screen.findByRole('heading', { name: 'Switch accounts?' })).toBeInTheDocument();
    expect(screen.getByText('You are signed in as Ada Lovelace (ada@example.org). This sign-in is for Grace Hopper (grace@uni.example).')).toBeInTheDocument();
    expect(tokenStore.get()).toBe(SESSION_TOKEN);
    expect(navigation.replace).not.toHaveBeenCalled();

    const stay = screen.getByRole('button', { name: 'Stay signed in as Ada Lovelace' });
    expect(stay).toHaveFocus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(navigation.replace).toHaveBeenCalledWith('/'));
    expect(logoutTokens()).toEqual([`Bearer ${OTHER_TOKEN}`]);
    expect(tokenStore.get()).toBe(SESSION_TOKEN);
  });

  it('switches to the new account when the person chooses it (keyboard)', async () => {
    codeFor(grace);
    window.sessionStorage.setItem('testbed.after_sign_in', '/invitations/41/secret');
    const { user } = renderApp({ path: '/oidc/callback?code=my-code', loggedIn: true });
    await screen.findByRole('heading', { name: 'Switch accounts?' });
    await user.tab();
    expect(screen.getByRole('button', { name: 'Continue as Grace Hopper' })).toHaveFocus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(navigation.replace).toHaveBeenCalledWith('/invitations/41/secret'));
    expect(tokenStore.get()).toBe(OTHER_TOKEN);
    expect(logoutTokens()).toEqual([`Bearer ${SESSION_TOKEN}`]);
  });

  it('asks in French too', async () => {
    localStorage.setItem(LOCALE_KEY, 'fr');
    codeFor(grace);
    renderApp({ path: '/oidc/callback?code=planted-code', loggedIn: true });
    expect(await screen.findByRole('heading', { name: 'Changer de compte ?' })).toBeInTheDocument();
    expect(screen.getByText('Vous êtes connecté en tant que Ada Lovelace (ada@example.org). Cette connexion est celle de Grace Hopper (grace@uni.example).')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Rester connecté en tant que Ada Lovelace' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Continuer en tant que Grace Hopper' })).toBeInTheDocument();
  });

  it('does not ask when the code is for the account already signed in', async () => {
    codeFor(db.user);
    renderApp({ path: '/oidc/callback?code=same', loggedIn: true });
    await waitFor(() => expect(navigation.replace).toHaveBeenCalledWith('/'));
    expect(tokenStore.get()).toBe(OTHER_TOKEN);
    expect(screen.queryByRole('heading', { name: 'Switch accounts?' })).not.toBeInTheDocument();
  });

  it('signs in at once when nobody is signed in', async () => {
    invitationDb.codes.add('one-time-code');
    renderApp({ path: '/oidc/callback?code=one-time-code' });
    await waitFor(() => expect(navigation.replace).toHaveBeenCalledWith('/'));
    expect(tokenStore.get()).toBe(SESSION_TOKEN);
  });
});

describe('the error of a failed sign-in', () => {
  const PHISHING = 'Your account is locked. Call +1 555 0100 now.';

  it('is handed on as a known code only', async () => {
    const first = renderApp({ path: `/oidc/callback?intent=login&error=${encodeURIComponent(PHISHING)}&provider=${encodeURIComponent('<b>x</b>')}` });
    await waitFor(() => expect(navigation.replace).toHaveBeenCalledWith('/?oidc_error=unknown'));
    first.unmount();
    renderApp({ path: '/oidc/callback?intent=link&error=email_taken&provider=uni' });
    await waitFor(() => expect(navigation.replace).toHaveBeenCalledWith('/profile?identity_error=email_taken&identity_provider=uni'));
  });

  it('on the login page: the console’s words for the code, never the text of the link', async () => {
    window.history.replaceState(null, '', `/?oidc_error=${encodeURIComponent(PHISHING)}`);
    const first = renderApp({ path: '/', settings: { oidcProviders: providers } });
    expect(await screen.findByRole('alert')).toHaveTextContent('The sign-in could not be completed. Please try again.');
    expect(screen.queryByText(/locked|555/)).not.toBeInTheDocument();
    first.unmount();

    window.history.replaceState(null, '', '/?oidc_error=email_unverified&oidc_provider=uni');
    const second = renderApp({ path: '/', settings: { oidcProviders: providers } });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'University of X has not confirmed your email address, so no account can be made from it. Register with your email and a password, then link University of X from your profile.',
    );
    second.unmount();

    // A provider id the console does not know is not shown either.
    window.history.replaceState(null, '', '/?oidc_error=consent_denied&oidc_provider=Call%20us');
    renderApp({ path: '/', settings: { oidcProviders: providers } });
    expect(await screen.findByRole('alert')).toHaveTextContent('You did not allow your institution to sign you in.');
  });

  it('on the login page in French', async () => {
    localStorage.setItem(LOCALE_KEY, 'fr');
    window.history.replaceState(null, '', '/?oidc_error=invalid_email&oidc_provider=uni');
    renderApp({ path: '/', settings: { oidcProviders: providers } });
    // The French messages load after the first render.
    expect(
      await screen.findByText('University of X a fourni une adresse e-mail qui n’est pas valide. Inscrivez-vous plutôt avec votre adresse e-mail et un mot de passe.'),
    ).toBeInTheDocument();
  });

  it('on the profile (a linking): the console’s words, never the text of the link', async () => {
    renderApp({ path: `/profile?identity_error=${encodeURIComponent(PHISHING)}`, loggedIn: true, settings: { oidcProviders: providers } });
    expect(await screen.findByText('The sign-in could not be completed. Please try again.')).toBeInTheDocument();
    expect(screen.queryByText(/locked|555/)).not.toBeInTheDocument();
  });
});
