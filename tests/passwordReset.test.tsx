import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { db, requestsTo } from './mocks/db';
import { errorUnder, field, findField } from './queries';
import { renderApp } from './render';

describe('forgot password page', () => {
  it("validates the email, then says the instructions were emailed", async () => {
    const { user } = renderApp({ path: '/password' });
    const email = await screen.findByRole('textbox', { name: 'Email' });
    await user.type(email, 'nope');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText('Invalid email')).toBeInTheDocument();
    await user.clear(email);
    await user.type(email, 'ada@example.org{Enter}');
    expect(await screen.findByRole('status')).toHaveTextContent(
      'If an account exists for this address, we have emailed a password reset link.',
    );
    expect(screen.getByRole('heading', { name: 'Check your inbox' })).toBeInTheDocument();
    expect(requestsTo('POST', '/password/link')[0]!.body).toEqual({ email: 'ada@example.org' });
    expect(screen.getByRole('link', { name: 'Back to login' })).toBeInTheDocument();
  });
});

describe('reset password page', () => {
  it('shows server field errors under the fields', async () => {
    const { user } = renderApp({ path: '/password/reset/1/good-signature' });
    await user.type(await findField('Password'), 'short');
    await user.type(field('Password confirmation'), 'different');
    await user.click(screen.getByRole('button', { name: 'Update password' }));
    await screen.findByText('The password confirmation does not match.');
    expect(errorUnder('Password confirmation')).toBe('The password confirmation does not match.');
    expect(errorUnder('Password')).toBe('The password field must be at least 8 characters.');
    expect(db.password).not.toBe('short');
  });

  it('updates the password and links to the login page', async () => {
    const { user } = renderApp({ path: '/password/reset/1/good-signature' });
    await user.type(await findField('Password'), 'a brand new password');
    await user.type(field('Password confirmation'), 'a brand new password{Enter}');
    expect(await screen.findByRole('status')).toHaveTextContent('Your password has been updated.');
    // 'Password updated' once, as the page's heading, not again as the alert's title.
    expect(screen.getByRole('heading', { name: 'Password updated' })).toBeInTheDocument();
    expect(screen.getAllByText('Password updated')).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/');
    expect(requestsTo('POST', '/password/reset/1/good-signature')[0]!.body).toEqual({
      password: 'a brand new password',
      password_confirmation: 'a brand new password',
    });
    expect(db.password).toBe('a brand new password');
  });

  it('shows the 403 message of an invalid or expired link, with a way to ask for a new one', async () => {
    const { user } = renderApp({ path: '/password/reset/1/expired' });
    await user.type(await findField('Password'), 'a brand new password');
    await user.type(field('Password confirmation'), 'a brand new password');
    await user.click(screen.getByRole('button', { name: 'Update password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This password reset link is invalid or has expired.');
    expect(screen.getByRole('link', { name: 'Request a new reset link' })).toHaveAttribute('href', '/password');
    expect(screen.getByRole('link', { name: 'Back to login' })).toBeInTheDocument();
  });
});
