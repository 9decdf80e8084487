import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { requestsTo } from './mocks/db';
import { errorUnder, field } from './queries';
import { renderApp } from './render';


const fill = async (user: ReturnType<typeof renderApp>['user'], values: Record<string, string>) => {
  for (const [label, value] of Object.entries(values)) {
    if (value) await user.type(field(label), value);
  }
};

describe('registration page', () => {
  it('validates on the client: required fields and the email rule', async () => {
    const { user } = renderApp({ path: '/registration' });
    await screen.findByRole('button', { name: 'Register' });
    await fill(user, { Email: 'not-an-email' });
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('Invalid email')).toBeInTheDocument();
    expect(errorUnder('First name')).toBe('Required');
    expect(errorUnder('Last name')).toBe('Required');
    expect(errorUnder('Password confirmation')).toBe('Required');
    expect(requestsTo('POST', '/register')).toHaveLength(0);
  });

  it('shows the server 422 errors under the matching fields', async () => {
    const { user } = renderApp({ path: '/registration' });
    await screen.findByRole('button', { name: 'Register' });
    await fill(user, {
      'First name': 'Grace',
      'Last name': 'Hopper',
      Email: 'ada@example.org', // already taken
      Password: 'short',
      'Password confirmation': 'other',
    });
    await user.click(screen.getByRole('button', { name: 'Register' }));
    await screen.findByText('The email has already been taken.');
    expect(errorUnder('Email')).toBe('The email has already been taken.');
    // The mismatch, which the server reports under both fields, shows once: under the confirmation.
    expect(errorUnder('Password')).toBe('The password field must be at least 8 characters.');
    expect(errorUnder('Password confirmation')).toBe('The password confirmation does not match.');
    expect(errorUnder('First name')).toBe('');
    expect(screen.queryByText(/Thank you for registering/)).not.toBeInTheDocument();
  });

  it('sends the five fields and thanks the user, announcing the validation email', async () => {
    const { user } = renderApp({ path: '/registration' });
    await screen.findByRole('button', { name: 'Register' });
    await fill(user, {
      'First name': 'Grace',
      'Last name': 'Hopper',
      Email: 'grace@example.org',
      Password: 'a long enough password',
      'Password confirmation': 'a long enough password',
    });
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByRole('heading', { name: 'Thank you for registering!' })).toBeInTheDocument();
    const status = screen.getByRole('status');
    expect(status).toHaveTextContent('A validation email is on its way to grace@example.org');
    expect(requestsTo('POST', '/register')[0]!.body).toEqual({
      firstname: 'Grace',
      lastname: 'Hopper',
      email: 'grace@example.org',
      password: 'a long enough password',
      password_confirmation: 'a long enough password',
    });
    expect(screen.getByRole('link', { name: 'Back to login' })).toHaveAttribute('href', '/');
  });
});
