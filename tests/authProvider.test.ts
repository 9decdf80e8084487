import { http as mswHttp, HttpResponse } from 'msw';
import { HttpError } from 'react-admin';
import { describe, expect, it } from 'vitest';
import { createAuthProvider, onboardingStep } from '../src/authProvider';
import { createHttpClient, TOKEN_KEY, tokenStore } from '../src/httpClient';
import { db, requestsTo } from './mocks/db';
import { makeUser, PASSWORD, SESSION_TOKEN, unverifiedUser, verifiedWithoutPolicy } from './mocks/fixtures';
import { server } from './mocks/server';

const newAuth = () => createAuthProvider(createHttpClient());

describe('onboardingStep', () => {
  it('is 0 when the email is not verified, 1 when the policy is not accepted, 2 when both are done', () => {
    expect(onboardingStep(unverifiedUser())).toBe(0);
    expect(onboardingStep(makeUser({ email_verified_at: null }))).toBe(0);
    expect(onboardingStep(verifiedWithoutPolicy())).toBe(1);
    expect(onboardingStep(makeUser())).toBe(2);
  });
});

describe('authProvider', () => {
  it('login stores the token and loads the user', async () => {
    const auth = newAuth();
    expect(auth.getSession()).toEqual({ status: 'anonymous' });
    await auth.login({ email: 'ada@example.org', password: PASSWORD });
    expect(localStorage.getItem(TOKEN_KEY)).toBe(SESSION_TOKEN);
    const session = auth.getSession();
    expect(session.status).toBe('authenticated');
    expect(session.status === 'authenticated' && session.user.email).toBe('ada@example.org');
    expect(requestsTo('POST', '/login')[0]!.body).toEqual({ email: 'ada@example.org', password: PASSWORD });
  });

  it('login with wrong credentials rejects with the server message and stores nothing', async () => {
    const auth = newAuth();
    await expect(auth.login({ email: 'ada@example.org', password: 'nope' })).rejects.toMatchObject({
      status: 422,
      message: 'These credentials do not match our records.',
    });
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
    expect(auth.getSession().status).toBe('anonymous');
  });

  it('a failed user load clears the token', async () => {
    tokenStore.set('3|revoked');
    const auth = newAuth();
    expect(auth.getSession().status).toBe('loading');
    expect(await auth.loadUser()).toBeNull();
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
    expect(auth.getSession().status).toBe('anonymous');
  });

  it('a user load that fails for another reason (500) also clears the token (spec §4)', async () => {
    tokenStore.set(SESSION_TOKEN);
    server.use(mswHttp.get('/user', () => HttpResponse.json({ message: 'Server error.' }, { status: 500 })));
    const auth = newAuth();
    expect(await auth.loadUser()).toBeNull();
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
  });

  it('a user load that gets no answer keeps the token and reports the server unreachable, then retries', async () => {
    tokenStore.set(SESSION_TOKEN);
    server.use(mswHttp.get('/user', () => HttpResponse.error(), { once: true }));
    const auth = newAuth();
    expect(await auth.loadUser()).toBeNull();
    expect(localStorage.getItem(TOKEN_KEY)).toBe(SESSION_TOKEN);
    expect(auth.getSession()).toEqual({ status: 'unreachable' });

    const user = await auth.loadUser();
    expect(user?.email).toBe('ada@example.org');
    expect(auth.getSession().status).toBe('authenticated');
  });

  it('notifies subscribers when the session changes', async () => {
    const auth = newAuth();
    const seen: string[] = [];
    auth.subscribe(() => seen.push(auth.getSession().status));
    await auth.login({ email: 'ada@example.org', password: PASSWORD });
    await auth.logout();
    expect(seen).toContain('authenticated');
    expect(seen.at(-1)).toBe('anonymous');
  });

  it('logout revokes the token on the server and clears it', async () => {
    tokenStore.set(SESSION_TOKEN);
    const auth = newAuth();
    await auth.loadUser();
    expect(await auth.logout()).toBe(false);
    expect(requestsTo('POST', '/logout')).toHaveLength(1);
    expect(requestsTo('POST', '/logout')[0]!.headers.get('Authorization')).toBe(`Bearer ${SESSION_TOKEN}`);
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
    expect(auth.getSession().status).toBe('anonymous');
  });

  it('logout clears the token even when the server fails', async () => {
    tokenStore.set(SESSION_TOKEN);
    server.use(mswHttp.post('/logout', () => HttpResponse.json({ message: 'Server error.' }, { status: 500 })));
    const auth = newAuth();
    await expect(auth.logout({ redirectTo: '/' })).resolves.toBe('/');
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
  });

  it('checkAuth follows the stored token', async () => {
    const auth = newAuth();
    await expect(auth.checkAuth({})).rejects.toBeDefined();
    tokenStore.set(SESSION_TOKEN);
    await expect(auth.checkAuth({})).resolves.toBeUndefined();
  });

  it('checkError: a 401 logs out', async () => {
    tokenStore.set(SESSION_TOKEN);
    const auth = newAuth();
    await expect(auth.checkError(new HttpError('Unauthenticated.', 401, {}))).rejects.toBeDefined();
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
  });

  it('checkError: a 403 with onboarding refreshes the session without logging out', async () => {
    tokenStore.set(SESSION_TOKEN);
    const auth = newAuth();
    await auth.loadUser();
    expect(auth.getSession()).toMatchObject({ step: 2 });
    db.user = verifiedWithoutPolicy(); // e.g. a new policy version to accept
    const error = new HttpError('Accept the policy first.', 403, { message: 'Accept the policy first.', onboarding: 'accept-aup' });
    await expect(auth.checkError(error)).rejects.toMatchObject({ logoutUser: false });
    await expect.poll(() => (auth.getSession() as { step?: number }).step).toBe(1);
    expect(localStorage.getItem(TOKEN_KEY)).toBe(SESSION_TOKEN);
  });

  it('checkError: another 403 or a 500 keeps the session', async () => {
    tokenStore.set(SESSION_TOKEN);
    const auth = newAuth();
    await expect(auth.checkError(new HttpError('Forbidden.', 403, { message: 'Forbidden.' }))).resolves.toBeUndefined();
    await expect(auth.checkError(new HttpError('Server error.', 500, {}))).resolves.toBeUndefined();
    expect(localStorage.getItem(TOKEN_KEY)).toBe(SESSION_TOKEN);
  });

  it('getIdentity returns id, full name and a Gravatar URL', async () => {
    tokenStore.set(SESSION_TOKEN);
    const identity = await newAuth().getIdentity!();
    expect(identity.id).toBe(1);
    expect(identity.fullName).toBe('Ada Lovelace');
    // SHA-256 of "ada@example.org"
    expect(identity.avatar).toMatch(/^https:\/\/www\.gravatar\.com\/avatar\/[0-9a-f]{64}\?s=200&d=identicon$/);
  });

  it('canAccess: admin resources only for admins', async () => {
    tokenStore.set(SESSION_TOKEN);
    const auth = newAuth();
    expect(await auth.canAccess!({ resource: 'tokens', action: 'list' })).toBe(true);
    expect(await auth.canAccess!({ resource: 'admin/users', action: 'list' })).toBe(false);
    expect(await auth.getPermissions!({})).toEqual({ admin: false });

    db.user = makeUser({ admin: true });
    const admin = newAuth();
    expect(await admin.canAccess!({ resource: 'admin/users', action: 'list' })).toBe(true);
  });

  it('acceptPolicy and updateProfile replace the session user', async () => {
    db.user = verifiedWithoutPolicy();
    tokenStore.set(SESSION_TOKEN);
    const auth = newAuth();
    await auth.loadUser();
    expect(auth.getSession()).toMatchObject({ step: 1 });
    await auth.acceptPolicy();
    expect(auth.getSession()).toMatchObject({ step: 2 });
    await auth.updateProfile({ firstname: 'Augusta', lastname: 'King' });
    expect(auth.getSession()).toMatchObject({ user: { name: 'Augusta King' } });
  });
});
