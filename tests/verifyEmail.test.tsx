import { screen } from '@testing-library/react';
import { http as mswHttp, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { db, requestsTo } from './mocks/db';
import { SESSION_TOKEN, unverifiedUser } from './mocks/fixtures';
import { server } from './mocks/server';
import { renderApp } from './render';

describe('verify email page', () => {
  it('calls the API with the link query, shows progress, then the success (logged out)', async () => {
    db.user = unverifiedUser();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    server.use(
      mswHttp.get('/api/email/verify/:id/:hash', async () => {
        await gate;
        return undefined; // fall through to the default handler
      }),
    );
    const { user } = renderApp({ path: '/email/verify/1/abc123?expires=1790000000&signature=good-signature' });
    expect(await screen.findByText('Verifying your email address…')).toBeInTheDocument();
    release();
    expect(await screen.findByText('Your email address is verified.')).toBeInTheDocument();
    const [call] = requestsTo('GET', '/api/email/verify/1/abc123');
    expect(call!.url.search).toBe('?expires=1790000000&signature=good-signature');
    expect(call!.headers.has('Authorization')).toBe(false);
    // One way on, not two: no 'Back to login' link beside the button.
    expect(screen.queryByRole('link', { name: 'Back to login' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Log in to continue' }));
    expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument();
  });

  it('shows an invalid or expired link, and asks a logged-out user to log in for a new one', async () => {
    renderApp({ path: '/email/verify/1/abc123?expires=1&signature=tampered' });
    expect(await screen.findByRole('alert')).toHaveTextContent('This verification link is invalid or has expired.');
    expect(screen.getByRole('button', { name: 'Log in to request a new link' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Back to login' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send a new verification link' })).not.toBeInTheDocument();
  });

  it('logged in: sends the bearer token, refreshes the session and continues to the wizard', async () => {
    db.user = unverifiedUser();
    const { user } = renderApp({ path: '/email/verify/1/abc123?expires=1790000000&signature=good-signature', loggedIn: true });
    expect(await screen.findByText('Your email address is verified.')).toBeInTheDocument();
    expect(requestsTo('GET', '/api/email/verify/1/abc123')[0]!.headers.get('Authorization')).toBe(`Bearer ${SESSION_TOKEN}`);
    await user.click(screen.getByRole('button', { name: 'Continue to the console' }));
    // Verified but the policy is not accepted yet: the wizard's second step.
    expect(await screen.findByRole('checkbox', { name: 'I have read and agree to the acceptable use policy' })).toBeInTheDocument();
  });

  it('logged in with an expired link: offers to send a new link and shows the answer', async () => {
    db.user = unverifiedUser();
    const { user } = renderApp({ path: '/email/verify/1/abc123?expires=1&signature=expired', loggedIn: true });
    expect(await screen.findByRole('alert')).toHaveTextContent('This verification link is invalid or has expired.');
    await user.click(screen.getByRole('button', { name: 'Send a new verification link' }));
    expect(await screen.findByText('A new verification link has been sent to your email address.')).toBeInTheDocument();
    expect(requestsTo('POST', '/email/verification')).toHaveLength(1);
  });

  it('forwards an API error message it does not know', async () => {
    server.use(
      mswHttp.get('/api/email/verify/:id/:hash', () => HttpResponse.json({ message: 'Not found.' }, { status: 404 })),
    );
    renderApp({ path: '/email/verify/9/zzz?expires=1&signature=x' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Not found.');
  });
});
