import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAuthProvider } from '../src/authProvider';
import { createHttpClient } from '../src/httpClient';
import { AuthForm, AuthTextField } from '../src/pages/auth/AuthForm';
import { LoggedOutApp } from '../src/pages/auth/LoggedOutApp';
import { defaultSettings } from '../src/settings';
import { db, requestsTo } from './mocks/db';
import { makeUser, PASSWORD } from './mocks/fixtures';
import { errorUnder, field, findField } from './queries';

// The logged-out bundle as a visitor without a token gets it (main.tsx): its own router on the
// browser's history and its own form state, in place of the console's react-router and
// react-hook-form. The console renders the same screens under react-router (the other tests).

const open = (path: string) => {
  window.history.replaceState(null, '', path);
  const user = userEvent.setup({ delay: null });
  render(<LoggedOutApp settings={defaultSettings()} authProvider={createAuthProvider(createHttpClient())} />);
  return user;
};

afterEach(() => window.history.replaceState(null, '', '/'));

describe('the logged-out router', () => {
  it('follows the login page’s links without reloading, and Back returns to the form', async () => {
    const user = open('/');
    await user.click(await screen.findByRole('link', { name: 'Forgot password?' }));
    expect(await screen.findByRole('button', { name: 'Send reset link' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/password');

    window.history.back();
    expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument();
    await waitFor(() => expect(window.location.pathname).toBe('/'));

    await user.click(screen.getByRole('link', { name: 'Register' }));
    expect(await screen.findByRole('button', { name: 'Register' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/registration');
  });

  it('gives the reset screen the link’s id and signature', async () => {
    const user = open('/password/reset/42/good-signature');
    await user.type(await findField('Password'), 'a long enough password');
    await user.type(field('Password confirmation'), 'a long enough password');
    await user.click(screen.getByRole('button', { name: 'Update password' }));
    expect(await screen.findByText(/Your password has been updated/)).toBeInTheDocument();
    expect(requestsTo('POST', '/password/reset/42/good-signature')).toHaveLength(1);
  });

  it('logs in from /login and goes home, which has no page of its own', async () => {
    db.user = makeUser();
    const user = open('/login');
    await user.type(await findField('Email'), db.user.email);
    await user.type(field('Password'), PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(requestsTo('POST', '/login')).toHaveLength(1));
    await waitFor(() => expect(window.location.pathname).toBe('/'));
  });
});

describe('the logged-out forms', () => {
  it('checks on submit, focuses the first refused field, then checks a field again as it changes', async () => {
    const user = open('/registration');
    await screen.findByRole('button', { name: 'Register' });
    // Nothing is checked before the first submit.
    await user.type(field('Email'), 'not-an-email');
    expect(errorUnder('Email')).toBe('');

    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('Invalid email')).toBeInTheDocument();
    expect(errorUnder('First name')).toBe('Required');
    expect(field('First name')).toHaveFocus();

    await user.type(field('First name'), 'Grace');
    await waitFor(() => expect(errorUnder('First name')).toBe(''));
    await user.clear(field('Email'));
    await waitFor(() => expect(errorUnder('Email')).toBe('Required'));
    await user.type(field('Email'), 'grace@example.org');
    await waitFor(() => expect(errorUnder('Email')).toBe(''));
    expect(requestsTo('POST', '/register')).toHaveLength(0);
  });

  it('shows the server’s field errors until the field changes, and keeps what was typed', async () => {
    const user = open('/registration');
    await screen.findByRole('button', { name: 'Register' });
    await user.type(field('First name'), 'Grace');
    await user.type(field('Last name'), 'Hopper');
    await user.type(field('Email'), 'ada@example.org'); // already taken
    await user.type(field('Password'), 'a long enough password');
    await user.type(field('Password confirmation'), 'a long enough password');
    await user.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() => expect(errorUnder('Email')).toBe('The email has already been taken.'));
    expect(field('First name')).toHaveValue('Grace');
    expect(field('Password')).toHaveValue('a long enough password');

    await user.clear(field('Email'));
    await user.type(field('Email'), 'grace@example.org');
    await waitFor(() => expect(errorUnder('Email')).toBe(''));
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByRole('heading', { name: 'Thank you for registering!' })).toBeInTheDocument();
    expect(requestsTo('POST', '/register').at(-1)?.body).toEqual({
      firstname: 'Grace',
      lastname: 'Hopper',
      email: 'grace@example.org',
      password: 'a long enough password',
      password_confirmation: 'a long enough password',
    });
  });

  it('shows the strength meter from the form’s password', async () => {
    const user = open('/registration');
    await user.type(await findField('Password'), 'Tr0ub4dour&3 horse staple');
    expect(await screen.findByTestId('password-strength')).toBeInTheDocument();
  });

  it('sends the form when a check cannot run (its code did not load): the server checks again', async () => {
    const onSubmit = vi.fn();
    const user = userEvent.setup({ delay: null });
    render(
      <AuthForm onSubmit={onSubmit}>
        <AuthTextField source="password" label="Password" validate={() => Promise.reject(new Error('Failed to fetch dynamically imported module'))} />
        <button type="submit">Send</button>
      </AuthForm>,
    );
    await user.type(screen.getByLabelText('Password'), 'typed');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ password: 'typed' }));
    expect(errorUnder('Password')).toBe('');
  });
});
