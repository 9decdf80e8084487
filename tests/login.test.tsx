import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TOKEN_KEY } from '../src/httpClient';
import { requestsTo } from './mocks/db';
import { PASSWORD, SESSION_TOKEN } from './mocks/fixtures';
import { field } from './queries';
import { renderApp } from './render';

describe('login page', () => {
  it('shows the login form at / and at any unmatched path, with its links', async () => {
    renderApp({ path: '/some/where' });
    expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Email' })).toBeInTheDocument();
    expect(field('Password')).toHaveAttribute('type', 'password');
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/password');
    expect(screen.getByRole('link', { name: 'Register' })).toHaveAttribute('href', '/registration');
  });

  it("rejects a malformed email with 'Invalid email' and sends nothing", async () => {
    const { user } = renderApp();
    await user.type(await screen.findByRole('textbox', { name: 'Email' }), 'ada at example');
    await user.type(field('Password'), 'whatever');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('Invalid email')).toBeInTheDocument();
    expect(requestsTo('POST', '/login')).toHaveLength(0);
  });

  it('shows the server message for wrong credentials', async () => {
    const { user } = renderApp();
    await user.type(await screen.findByRole('textbox', { name: 'Email' }), 'ada@example.org');
    await user.type(field('Password'), 'wrong password');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('These credentials do not match our records.');
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
  });

  it('logs in with Enter and stays on the requested path', async () => {
    const { user, path } = renderApp({ path: '/profile' });
    await user.type(await screen.findByRole('textbox', { name: 'Email' }), 'ada@example.org');
    await user.type(field('Password'), `${PASSWORD}{Enter}`);
    expect(await screen.findByRole('heading', { name: 'Ada Lovelace', level: 1 })).toBeInTheDocument();
    expect(localStorage.getItem(TOKEN_KEY)).toBe(SESSION_TOKEN);
    expect(path()).toBe('/profile');
  });

  it('a stored token that the server refuses is cleared and the login page shows', async () => {
    localStorage.setItem(TOKEN_KEY, '2|revoked');
    renderApp({ path: '/' });
    expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument();
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
  });
});
