import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { db, requestsTo } from './mocks/db';
import { errorUnder, field, findField } from './queries';
import { renderApp } from './render';

// Password strength in the console (docs/security.md): the forms where a password is chosen show its strength
// as it is typed (zxcvbn, loaded lazily) and refuse what the server refuses (a score below 3),
// with zxcvbn's advice under the field.

const HEAVILY_USED = 'The password is too easy to guess. This is a heavily used password. Add more words that are less common.';

const meter = () => screen.getByRole('progressbar', { name: /^Password strength: / });

describe('registration: password strength', () => {
  const open = async () => {
    const rendered = renderApp({ path: '/registration' });
    await screen.findByRole('button', { name: 'Register' });
    return rendered;
  };

  it('shows an accessible strength meter as the password is typed', async () => {
    const { user } = await open();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();

    await user.type(field('Password'), 'password');
    await waitFor(() => expect(meter()).toHaveAccessibleName('Password strength: very weak'));
    expect(meter()).toHaveAttribute('aria-valuenow', '20');
    expect(meter()).toHaveAttribute('aria-valuetext', 'very weak');
    expect(screen.getByText('This is a heavily used password. Add more words that are less common.')).toBeInTheDocument();

    await user.clear(field('Password'));
    await user.type(field('Password'), 'correct horse battery staple');
    await waitFor(() => expect(meter()).toHaveAccessibleName('Password strength: very strong'));
    expect(meter()).toHaveAttribute('aria-valuenow', '100');
    expect(screen.getByText('Password strength: very strong')).toBeVisible();
    expect(screen.queryByText(/heavily used/)).not.toBeInTheDocument();

    await user.clear(field('Password'));
    await waitFor(() => expect(screen.queryByRole('progressbar')).not.toBeInTheDocument());
  });

  it('refuses a weak password under the field with zxcvbn’s advice, without calling the server', async () => {
    const { user } = await open();
    await user.type(field('First name'), 'Grace');
    await user.type(field('Last name'), 'Hopper');
    await user.type(field('Email'), 'grace@example.org');
    await user.type(field('Password'), '12345678');
    await user.type(field('Password confirmation'), '12345678');
    await user.click(screen.getByRole('button', { name: 'Register' }));
    await screen.findByText(HEAVILY_USED);
    expect(errorUnder('Password')).toBe(HEAVILY_USED);
    // The meter stays, without repeating the advice now under the field.
    expect(meter()).toHaveAccessibleName('Password strength: very weak');
    expect(screen.getAllByText(/This is a heavily used password/)).toHaveLength(1);
    expect(requestsTo('POST', '/register')).toHaveLength(0);
  });

  it('counts the person’s own email and names as easy to guess', async () => {
    const { user } = await open();
    await user.type(field('Password'), 'wilhelminazwanenburg');
    await waitFor(() => expect(meter()).toHaveAccessibleName(/(strong)$/));

    await user.type(field('First name'), 'Wilhelmina');
    await user.type(field('Last name'), 'Zwanenburg');
    await waitFor(() => expect(meter()).toHaveAccessibleName(/(very weak|weak|fair)$/));
    await user.type(field('Email'), 'wz@example.org');
    await user.type(field('Password confirmation'), 'wilhelminazwanenburg');
    await user.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() => expect(errorUnder('Password')).toMatch(/^The password is too easy to guess\. There should not be any personal/));
    expect(requestsTo('POST', '/register')).toHaveLength(0);
  });
});

describe('password reset: strength and revocation', () => {
  it('shows the meter and refuses a weak password before calling the server', async () => {
    const { user } = renderApp({ path: '/password/reset/1/good-signature' });
    await user.type(await findField('Password'), 'password');
    await waitFor(() => expect(meter()).toHaveAttribute('aria-valuenow', '20'));
    await user.type(field('Password confirmation'), 'password');
    await user.click(screen.getByRole('button', { name: 'Update password' }));
    await screen.findByText(HEAVILY_USED);
    expect(errorUnder('Password')).toBe(HEAVILY_USED);
    expect(requestsTo('POST', '/password/reset/1/good-signature')).toHaveLength(0);
  });

  it('says that every session and access token was revoked, and what to do next', async () => {
    const { user } = renderApp({ path: '/password/reset/1/good-signature' });
    await user.type(await findField('Password'), 'a brand new passphrase');
    await user.type(field('Password confirmation'), 'a brand new passphrase{Enter}');
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Your password has been updated. Every session and personal access token of the account has been revoked.',
    );
    expect(screen.getByText(/Scripts and tools that used a personal access token need a new one/)).toBeVisible();
    expect(db.password).toBe('a brand new passphrase');
  });
});

describe('loading', () => {
  it('keeps zxcvbn out of the first bundle: only a dynamic import reaches it', () => {
    // Vite puts a module reached only through import() in a chunk of its own, loaded when a
    // password form first judges a password; a static import anywhere would pull its
    // dictionaries (about 1.6 MB) into the bundle of the login page.
    const sources = import.meta.glob<string>('../src/**/*.{ts,tsx}', { query: '?raw', import: 'default', eager: true });
    expect(Object.keys(sources).length).toBeGreaterThan(50);
    const staticImports = Object.entries(sources).flatMap(([file, source]) =>
      source
        .split('\n')
        .filter((line) => /^import(?! type)\b.*from '(@zxcvbn-ts\/[^']+|[./]+(utils\/)?zxcvbn)'/.test(line))
        .map((line) => `${file}: ${line}`),
    );
    expect(staticImports.filter((entry) => !entry.startsWith('../src/utils/zxcvbn.ts:'))).toEqual([]);
    expect(sources['../src/utils/passwordStrength.ts']).toContain("import('./zxcvbn')");
  });
});
