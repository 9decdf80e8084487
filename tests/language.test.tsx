import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAuthProvider } from '../src/authProvider';
import { createHttpClient } from '../src/httpClient';
import { i18nProvider } from '../src/i18n';
import { LOCALE_KEY, currentLocale } from '../src/i18n/locale';
import { LoggedOutApp } from '../src/pages/auth/LoggedOutApp';
import { defaultSettings } from '../src/settings';
import { db, requestsTo } from './mocks/db';
import { makeUser } from './mocks/fixtures';
import { renderApp } from './render';

// The language menu (English / Français) in the app bar and on the logged-out pages, the
// choice saved on this browser and to the account, the account's language applied at sign-in.

afterEach(async () => {
  vi.unstubAllGlobals();
  await i18nProvider.changeLocale('en');
});

const chooseLanguage = async (user: ReturnType<typeof userEvent.setup>, current: RegExp, name: string) => {
  await user.click(await screen.findByRole('button', { name: current }));
  await user.click(within(await screen.findByRole('menu')).getByRole('menuitem', { name }));
};

describe('the language menu in the console', () => {
  it('switches the console to French and saves the choice to the account', async () => {
    db.user = makeUser();
    const { user } = renderApp({ path: '/', loggedIn: true });
    expect(await screen.findByRole('heading', { name: 'Console Home' })).toBeInTheDocument();
    await chooseLanguage(user, /^Language: English$/, 'Français');

    expect(await screen.findByRole('heading', { name: 'Accueil de la console' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Langue: Français' })).toBeInTheDocument();
    expect(currentLocale()).toBe('fr');
    expect(localStorage.getItem(LOCALE_KEY)).toBe('fr');
    await waitFor(() => expect(requestsTo('PATCH', '/user').map((request) => request.body)).toEqual([{ locale: 'fr' }]));
    expect(db.user.locale).toBe('fr');

    await chooseLanguage(user, /^Langue: Français$/, 'English');
    expect(await screen.findByRole('heading', { name: 'Console Home' })).toBeInTheDocument();
    await waitFor(() => expect(db.user.locale).toBe('en'));
  });

  it("applies the account's saved language at sign-in", async () => {
    db.user = makeUser({ locale: 'fr' });
    renderApp({ path: '/', loggedIn: true });
    expect(await screen.findByRole('heading', { name: 'Accueil de la console' })).toBeInTheDocument();
    expect(localStorage.getItem(LOCALE_KEY)).toBe('fr');
    expect(requestsTo('PATCH', '/user')).toEqual([]);
  });

  it("starts in the browser's language, without saving it to the account", async () => {
    vi.stubGlobal('navigator', { ...navigator, languages: ['fr-FR', 'en'], language: 'fr-FR' });
    db.user = makeUser();
    renderApp({ path: '/', loggedIn: true });
    expect(await screen.findByRole('heading', { name: 'Accueil de la console' })).toBeInTheDocument();
    expect(requestsTo('PATCH', '/user')).toEqual([]);
  });

  it('saves the language chosen before signing in to an account that has none', async () => {
    localStorage.setItem(LOCALE_KEY, 'fr');
    db.user = makeUser();
    renderApp({ path: '/', loggedIn: true });
    expect(await screen.findByRole('heading', { name: 'Accueil de la console' })).toBeInTheDocument();
    await waitFor(() => expect(requestsTo('PATCH', '/user').map((request) => request.body)).toEqual([{ locale: 'fr' }]));
  });
});

describe('the language menu on the logged-out pages', () => {
  it('switches the login page to French and remembers it on this browser', async () => {
    const user = userEvent.setup({ delay: null });
    const authProvider = createAuthProvider(createHttpClient());
    render(<LoggedOutApp settings={defaultSettings()} authProvider={authProvider} />);
    expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument();
    await chooseLanguage(user, /^Language: English$/, 'Français');
    expect(await screen.findByRole('button', { name: 'Se connecter' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Connexion' })).toBeInTheDocument();
    expect(localStorage.getItem(LOCALE_KEY)).toBe('fr');
  });

  it('starts in the language chosen before', async () => {
    localStorage.setItem(LOCALE_KEY, 'fr');
    const authProvider = createAuthProvider(createHttpClient());
    render(<LoggedOutApp settings={defaultSettings()} authProvider={authProvider} />);
    expect(await screen.findByRole('button', { name: 'Se connecter' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Login' })).not.toBeInTheDocument();
  });
});
