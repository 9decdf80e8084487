import { screen, within } from '@testing-library/react';
import { http as mswHttp, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { TOKEN_KEY } from '../src/httpClient';
import { db, requestsTo } from './mocks/db';
import { NOW, unverifiedUser, verifiedWithoutPolicy } from './mocks/fixtures';
import { server } from './mocks/server';
import { renderApp } from './render';

const agree = 'I have read and agree to the acceptable use policy';

describe('onboarding gate', () => {
  it('an unverified user is told where the link went, that two steps remain, and can resend it', async () => {
    db.user = unverifiedUser();
    const { user } = renderApp({ path: '/', loggedIn: true });
    const send = await screen.findByRole('button', { name: 'Resend the link' });
    expect(screen.getByText(/2 steps remain before you can use the testbed\./)).toBeInTheDocument();
    expect(screen.getByText(`We sent a link to ${db.user.email} when you created your account. Open it from your mailbox: this page moves on once the address is verified.`)).toBeInTheDocument();
    expect(screen.queryByText(/Send yourself/)).not.toBeInTheDocument();
    const steps = screen.getAllByText(/^(Verification|Terms of service)$/);
    expect(steps.map((step) => step.textContent)).toEqual(['Verification', 'Terms of service']);
    expect(screen.getByText(/check your spam or junk folder/i)).toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: agree })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Your workspaces' })).not.toBeInTheDocument();

    await user.click(send);
    expect(await screen.findByText(`We sent a new link to ${db.user.email}. The earlier one still works until it expires.`)).toBeInTheDocument();
    expect(requestsTo('POST', '/email/verification')).toHaveLength(1);
  });

  it('shows the 429 message when sending too often', async () => {
    db.user = unverifiedUser();
    server.use(
      mswHttp.post('/email/verification', () =>
        HttpResponse.json({ message: 'Too many attempts. Try again in 1 minute.' }, { status: 429, headers: { 'Retry-After': '60' } }),
      ),
    );
    const { user } = renderApp({ path: '/', loggedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Resend the link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many attempts. Try again in 1 minute.');
    expect(localStorage.getItem(TOKEN_KEY)).not.toBeNull();
  });

  it("'I have verified — continue' moves on once the server says so, and says when it does not", async () => {
    db.user = unverifiedUser();
    const { user } = renderApp({ path: '/', loggedIn: true });
    const check = await screen.findByRole('button', { name: 'I have verified — continue' });
    await user.click(check);
    expect(await screen.findByText(/not verified yet/)).toBeInTheDocument();
    db.user = { ...db.user, email_verified_at: NOW };
    await user.click(check);
    expect(await screen.findByRole('checkbox', { name: agree })).toBeInTheDocument();
  });

  it('a verified user without the policy gets Terms of service with Submit disabled until the checkbox', async () => {
    db.user = verifiedWithoutPolicy();
    const { user } = renderApp({ path: '/', loggedIn: true });
    const checkbox = await screen.findByRole('checkbox', { name: agree });
    // Only the policy is left: one step, said in the singular.
    expect(screen.getByText(/1 step remains before you can use the testbed\./)).toBeInTheDocument();
    const policy = screen.getByRole('region', { name: 'Acceptable use policy' });
    expect(within(policy).getByRole('heading', { name: '5. Prohibited use' })).toBeInTheDocument();
    const submit = screen.getByRole('button', { name: 'Submit' });
    expect(submit).toBeDisabled();
    await user.click(checkbox);
    expect(submit).toBeEnabled();
    await user.click(checkbox);
    expect(submit).toBeDisabled();
    expect(requestsTo('POST', '/aup/accept')).toHaveLength(0);
  });

  it('accepting the policy shows the console without a reload or a logout', async () => {
    db.user = verifiedWithoutPolicy();
    const { user } = renderApp({ path: '/', loggedIn: true });
    await user.click(await screen.findByRole('checkbox', { name: agree }));
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByRole('heading', { name: 'Your workspaces' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Your nodes' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Your teams' })).toBeInTheDocument();
    expect(requestsTo('POST', '/aup/accept')).toHaveLength(1);
    expect(requestsTo('POST', '/logout')).toHaveLength(0);
    expect(requestsTo('POST', '/login')).toHaveLength(0);
  });

  it('Logout from the wizard ends the session and shows the login page', async () => {
    db.user = unverifiedUser();
    const { user } = renderApp({ path: '/', loggedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Logout' }));
    expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument();
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
    expect(requestsTo('POST', '/logout')).toHaveLength(1);
  });
});
