import { http as mswHttp, HttpResponse } from 'msw';
import { HttpError } from 'react-admin';
import { beforeEach, describe, expect, it } from 'vitest';
import { createAuthProvider, onboardingStep } from '../src/authProvider';
import { createHttpClient, fieldErrors, TOKEN_KEY, tokenStore } from '../src/httpClient';
import { db, requestsTo } from './mocks/db';
import { makeUser, PASSWORD, SESSION_TOKEN, unverifiedUser, verifiedWithoutPolicy } from './mocks/fixtures';
import { invitationDb, resetInvitationDb } from './mocks/invitations';
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

  it('a user load that fails for another reason (500) also clears the token', async () => {
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

  it('a user load whose answer is cut short by leaving the page keeps the token', async () => {
    // A reload while GET /user's body is still arriving: the page being left still runs the
    // load's handler, with an abort rather than an answer. The reloaded page must find the token.
    tokenStore.set(SESSION_TOKEN);
    const abortedBody = async () =>
      new Response(new ReadableStream({ start: (controller) => controller.error(new DOMException('BodyStreamBuffer was aborted', 'AbortError')) }), {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      });
    const auth = createAuthProvider(createHttpClient({ fetch: abortedBody }));
    expect(await auth.loadUser()).toBeNull();
    expect(localStorage.getItem(TOKEN_KEY)).toBe(SESSION_TOKEN);
    expect(auth.getSession()).toEqual({ status: 'unreachable' });
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

  it('getIdentity returns id and full name, and no avatar without an avatar service', async () => {
    tokenStore.set(SESSION_TOKEN);
    const identity = await newAuth().getIdentity!();
    expect(identity.id).toBe(1);
    expect(identity.fullName).toBe('Ada Lovelace');
    expect(identity.avatar).toBeUndefined();
  });

  it("getIdentity gives the avatar service's image of the email when the server names one", async () => {
    tokenStore.set(SESSION_TOKEN);
    const identity = await createAuthProvider(createHttpClient(), { avatarUrl: 'https://avatars.example.org/{hash}-{size}.png' }).getIdentity!();
    // SHA-256 of "ada@example.org"
    expect(identity.avatar).toMatch(/^https:\/\/avatars\.example\.org\/[0-9a-f]{64}-200\.png$/);
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

// The calls of the screens that hold a token apart from the stored session (the institutional
// sign-in's return, the invitation link): each sends the token it names, or none, and a refusal
// never ends the stored session.
describe('authProvider: calls with a token of their own', () => {
  const OTHER = '2|other-session';
  const link = (preview: Record<string, unknown>) => {
    invitationDb.links.set('41/secret', { preview });
  };
  beforeEach(resetInvitationDb);
  const preview = { id: 41, email: 'ada@example.org', role: 'member', team: { id: 3, name: 'lab', fullname: 'The Lab' }, workspaces: [], invited_by: null };

  it('signInProviders: the providers of GET /api/settings, null when it names none; no session token goes with it', async () => {
    tokenStore.set(SESSION_TOKEN);
    let authorization: string | null = 'unseen';
    let answer: Record<string, unknown> = { appName: 'Testbed' };
    server.use(
      mswHttp.get('/api/settings', ({ request }) => {
        authorization = request.headers.get('Authorization');
        return HttpResponse.json(answer);
      }),
    );
    const auth = newAuth();
    expect(await auth.signInProviders()).toBeNull();
    expect(authorization).toBeNull();
    answer = { oidcProviders: [{ id: 'uni', name: 'University of X' }] };
    expect(await auth.signInProviders()).toEqual([{ id: 'uni', name: 'University of X' }]);
  });

  it('exchangeSignInCode: the token for a valid code, not stored, sent without the stored one', async () => {
    invitationDb.codes.add('good-code');
    tokenStore.set(OTHER);
    const auth = newAuth();
    expect(await auth.exchangeSignInCode('good-code')).toBe(SESSION_TOKEN);
    expect(tokenStore.get()).toBe(OTHER);
    const [request] = requestsTo('POST', '/auth/oidc/exchange');
    expect(request!.body).toEqual({ code: 'good-code' });
    expect(request!.headers.get('Authorization')).toBeNull();
  });

  it("exchangeSignInCode: rejects with the server's refusal, or 'oidc.callback_failed' when no token comes", async () => {
    const auth = newAuth();
    await expect(auth.exchangeSignInCode('used-code')).rejects.toMatchObject({
      status: 403,
      message: 'This sign-in code is invalid or has expired. Please sign in again.',
    });
    server.use(mswHttp.post('/auth/oidc/exchange', () => HttpResponse.json({})));
    await expect(auth.exchangeSignInCode('odd-code')).rejects.toThrow('oidc.callback_failed');
  });

  it('createToken: a session token, not stored; wrong credentials reject with the field errors', async () => {
    const auth = newAuth();
    expect(await auth.createToken({ email: 'ada@example.org', password: PASSWORD })).toBe(SESSION_TOKEN);
    expect(tokenStore.get()).toBeNull();
    expect(auth.getSession().status).toBe('anonymous');
    const failure = await auth.createToken({ email: 'ada@example.org', password: 'nope' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(HttpError);
    expect(fieldErrors(failure)).toEqual({ email: 'These credentials do not match our records.' });
  });

  it('userOf: the user of the token, null when the server refuses it (the stored session stays), a rejection when no answer comes', async () => {
    tokenStore.set(SESSION_TOKEN);
    const auth = newAuth();
    expect((await auth.userOf(SESSION_TOKEN))?.email).toBe('ada@example.org');
    expect(requestsTo('GET', '/user')[0]!.headers.get('Authorization')).toBe(`Bearer ${SESSION_TOKEN}`);
    db.sessions.clear();
    expect(await auth.userOf(SESSION_TOKEN)).toBeNull();
    expect(tokenStore.get()).toBe(SESSION_TOKEN);
    server.use(mswHttp.get('/user', () => HttpResponse.error()));
    await expect(auth.userOf(SESSION_TOKEN)).rejects.toMatchObject({ status: 0 });
  });

  it('endSession: POST /logout with the token named, whatever the server answers', async () => {
    tokenStore.set(SESSION_TOKEN);
    const auth = newAuth();
    await auth.endSession(OTHER);
    expect(requestsTo('POST', '/logout')[0]!.headers.get('Authorization')).toBe(`Bearer ${OTHER}`);
    expect(tokenStore.get()).toBe(SESSION_TOKEN);
    server.use(mswHttp.post('/logout', () => HttpResponse.error()));
    await expect(auth.endSession(OTHER)).resolves.toBeUndefined();
  });

  it("invitation and acceptInvitation: the preview without a token, joining with the token named, the server's reason on refusal", async () => {
    link(preview);
    tokenStore.set(OTHER);
    const auth = newAuth();
    expect(await auth.invitation('41', 'secret')).toEqual(preview);
    expect(requestsTo('GET', '/api/invitations/41/secret')[0]!.headers.get('Authorization')).toBeNull();
    expect(await auth.acceptInvitation('41', 'secret', SESSION_TOKEN)).toMatchObject({ team: { id: 3 } });
    expect(requestsTo('POST', '/api/invitations/41/secret/accept')[0]!.headers.get('Authorization')).toBe(`Bearer ${SESSION_TOKEN}`);
    await expect(auth.invitation('41', 'secret')).rejects.toMatchObject({ status: 403, message: 'This invitation has already been used.' });
    expect(tokenStore.get()).toBe(OTHER);
  });

  it('register sends no session token (the invitation page registers while another may be stored)', async () => {
    tokenStore.set(OTHER);
    await newAuth().register({ firstname: 'Grace', lastname: 'Hopper', email: 'grace@uni.example', password: PASSWORD, password_confirmation: PASSWORD });
    expect(requestsTo('POST', '/register')[0]!.headers.get('Authorization')).toBeNull();
  });
});
