import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { LOCALE_KEY } from '../src/i18n/locale';
import { invitationDb } from './mocks/invitations';
import { server } from './mocks/server';
import { field, findField } from './queries';
import { renderApp } from './render';

// A password reset unlinks the institutional identities linked with a password: the reset-done
// page names them, and the profile says which identities a reset would unlink. English and French.

const unlinkedAnswer = (message: string) =>
  http.post('/password/reset/:id/:signature', () =>
    HttpResponse.json({
      message,
      unlinked_identities: [
        { provider: 'uni', provider_name: 'University of X', email: 'thief@uni.example' },
        { provider: 'lab', provider_name: 'Lab', email: null },
      ],
    }),
  );

async function submitReset(labels: { password: string; confirmation: string }) {
  const { user } = renderApp({ path: '/password/reset/1/good-signature' });
  await user.type(await findField(labels.password), 'a brand new password');
  await user.type(field(labels.confirmation), 'a brand new password{Enter}');
}

describe('the reset-done page', { timeout: 60_000 }, () => {
  it('names the identities the reset unlinked', async () => {
    server.use(unlinkedAnswer('Your password has been updated. Every session and personal access token of the account has been revoked.'));
    await submitReset({ password: 'Password', confirmation: 'Password confirmation' });
    expect(await screen.findByRole('status')).toHaveTextContent('Your password has been updated.');
    expect(
      screen.getByText(
        'These institutional identities, linked to the account with a password, were unlinked: University of X (thief@uni.example), Lab. If they are yours, link them again from your profile.',
      ),
    ).toBeInTheDocument();
  });

  it('says nothing of identities when none was unlinked', async () => {
    await submitReset({ password: 'Password', confirmation: 'Password confirmation' });
    expect(await screen.findByRole('status')).toHaveTextContent('Your password has been updated.');
    expect(screen.queryByText(/were unlinked/)).not.toBeInTheDocument();
  });

  it('says it in French', async () => {
    localStorage.setItem(LOCALE_KEY, 'fr');
    server.use(unlinkedAnswer('Votre mot de passe a été mis à jour.'));
    await submitReset({ password: 'Mot de passe', confirmation: 'Confirmation du mot de passe' });
    expect(await screen.findByRole('status')).toHaveTextContent('Votre mot de passe a été mis à jour.');
    expect(
      screen.getByText(
        'Ces identités institutionnelles, associées au compte avec un mot de passe, ont été dissociées : University of X (thief@uni.example), Lab. Si elles sont à vous, associez-les à nouveau depuis votre profil.',
      ),
    ).toBeInTheDocument();
  });
});

describe('the profile’s linked identities', { timeout: 60_000 }, () => {
  it('says which identity a password reset would unlink, and that a link is mailed', async () => {
    invitationDb.identities = [
      { id: 1, provider: 'uni', provider_name: 'University of X', issuer: 'https://login.uni.example', email: 'ada@uni.example', linked_at: '2026-11-20T08:00:00.000Z', linked_with: 'sign-up', can_unlink: true },
      { id: 2, provider: 'lab', provider_name: 'Lab', issuer: 'https://lab.example', email: 'ada@lab.example', linked_at: '2026-11-21T08:00:00.000Z', linked_with: 'password', can_unlink: true },
    ];
    const providers = [
      { id: 'uni', name: 'University of X' },
      { id: 'lab', name: 'Lab' },
      { id: 'other', name: 'Other Institute' },
    ];
    const { user } = renderApp({ path: '/profile', loggedIn: true, settings: { oidcProviders: providers } });
    const list = await screen.findByRole('list', { name: 'Institutional sign-in' }, { timeout: 10_000 });
    const items = within(list).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent(/^University of X · ada@uni\.exampleLinked /);
    expect(items[0]).not.toHaveTextContent('a password reset unlinks it');
    expect(items[1]).toHaveTextContent(/Linked .* with your password; a password reset unlinks it/);

    await user.click(screen.getByRole('button', { name: 'Link Other Institute' }));
    const dialog = await screen.findByRole('dialog', { name: 'Link Other Institute' });
    expect(within(dialog).getByText('We will email you about the link. A password reset unlinks the identities linked with a password.')).toBeInTheDocument();
  });
});
