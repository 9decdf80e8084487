import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { db, policyDb, requestsTo } from './mocks/db';
import { makeUser, NOW } from './mocks/fixtures';
import { renderApp } from './render';

// The acceptable use policy, versioned, in the console: the onboarding step shows the version
// in force in the user's language with the "what changed" line, and platform admins publish a
// version after a confirmation.

const agree = 'I have read and agree to the acceptable use policy';
const published = {
  version: '2',
  id: 2,
  summary: 'GPU use needs a reservation.',
  published_at: NOW,
  text: { en: 'Be kind to the cluster.\n\n- Reserve GPUs first.', fr: 'Soyez aimables avec le cluster.\n\n- Réservez les GPU.' },
  validity_days: 365,
};

describe('the onboarding policy step', () => {
  it('sends someone back when a new version is published, with what changed, and the version text', async () => {
    policyDb.inForce = published;
    db.user = { ...makeUser(), aup_version_id: 1, aup_required: true, aup_renewal: { reason: 'new_version', summary: published.summary } };
    const { user } = renderApp({ path: '/', loggedIn: true });
    const checkbox = await screen.findByRole('checkbox', { name: agree });
    expect(screen.getByTestId('aup-renewal')).toHaveTextContent('A new version of the acceptable use policy was published.');
    expect(screen.getByTestId('aup-renewal')).toHaveTextContent('What changed: GPU use needs a reservation.');
    const policy = screen.getByRole('region', { name: 'Acceptable use policy' });
    expect(await within(policy).findByText('Be kind to the cluster.')).toBeInTheDocument();
    expect(within(policy).getByText('Reserve GPUs first.')).toBeInTheDocument();
    expect(within(policy).queryByRole('heading', { name: '5. Prohibited use' })).not.toBeInTheDocument();
    await user.click(checkbox);
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByRole('heading', { name: 'Your workspaces' })).toBeInTheDocument();
    expect(requestsTo('POST', '/aup/accept')).toHaveLength(1);
  });

  it('says when an acceptance grew too old, and shows the built-in text while no version is published', async () => {
    db.user = { ...makeUser(), aup_required: true, aup_renewal: { reason: 'expired', summary: null } };
    renderApp({ path: '/', loggedIn: true });
    expect(await screen.findByTestId('aup-renewal')).toHaveTextContent('Your acceptance of the acceptable use policy is too old.');
    expect(screen.queryByText(/What changed/)).not.toBeInTheDocument();
    const policy = screen.getByRole('region', { name: 'Acceptable use policy' });
    expect(within(policy).getByRole('heading', { name: '5. Prohibited use' })).toBeInTheDocument();
  });
});

describe('the admin policy page', () => {
  it('publishes a version in both languages after a confirmation, then lists it', async () => {
    db.user = { ...makeUser(), admin: true };
    const { user } = renderApp({ path: '/admin/policy', loggedIn: true });
    expect(await screen.findByTestId('policy-in-force')).toHaveTextContent('the text built into the console');
    expect(screen.getByText('No version published yet.')).toBeInTheDocument();
    const publish = screen.getByRole('button', { name: 'Publish' });
    expect(publish).toBeDisabled();
    fireEvent.change(screen.getByRole('textbox', { name: /Text in English/ }), { target: { value: 'Be kind.' } });
    fireEvent.change(screen.getByRole('textbox', { name: /Text in French/ }), { target: { value: 'Soyez aimables.' } });
    fireEvent.change(screen.getByRole('textbox', { name: /What changed/ }), { target: { value: 'Kindness is required.' } });
    await user.click(publish);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Publish this version?')).toBeInTheDocument();
    expect(requestsTo('POST', '/api/admin/policy')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Publish' }));
    expect(await screen.findByText('Kindness is required.')).toBeInTheDocument();
    expect(requestsTo('POST', '/api/admin/policy')).toHaveLength(1);
    expect(await requestsTo('POST', '/api/admin/policy')[0].body).toEqual({ text: { en: 'Be kind.', fr: 'Soyez aimables.' }, summary: 'Kindness is required.' });
    expect(await screen.findByTestId('policy-in-force')).toHaveTextContent('In force: version 1');
  }, 40_000);
});
