import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { claimEmail, cleanName } from '../src/oidc/claims.js';
import { INVALID_CODE, OIDC_ERRORS, SIGN_IN_EXPIRED } from '../src/oidc/oidc.js';
import { createTestContext, TEST_APP_URL, type TestContext, uniqueEmail } from './helpers.js';
import { startTestProvider, type TestAccount, type TestProvider, throughProvider } from './oidcProvider.js';

// Institutional sign-in against a REAL OpenID provider (oidc-provider on loopback), on what a
// provider account or another page may try: an email the provider does not vouch for, a sign-in
// code carried to another browser (login CSRF), a cookie value chosen by the client, claims that
// break the input rules, and free text in the redirect to the console's /oidc/callback.

const CALLBACK = `${TEST_APP_URL}/auth/oidc/callback`;
const NAME = 'Test University';

let ctx: TestContext;
let provider: TestProvider;
let account = 0;

beforeAll(async () => {
  provider = await startTestProvider({ redirectUris: [CALLBACK] });
  ctx = await createTestContext({
    config: { oidcProviders: [{ id: 'test', name: NAME, issuer: provider.issuer, clientId: provider.clientId, clientSecret: provider.clientSecret }] },
  });
});
afterAll(async () => {
  await ctx?.close();
  await provider?.close();
});
beforeEach(() => {
  provider.behaviour.deny = false;
});

/** A new account at the provider with these claims, signed in by the next interactions. */
function newAccount(claims: Partial<Record<keyof TestAccount, unknown>> = {}) {
  const id = `hardening-${process.pid}-${++account}`;
  provider.accounts.set(id, { email: uniqueEmail('inst'), email_verified: true, given_name: 'Grace', family_name: 'Hopper', ...claims } as TestAccount);
  provider.behaviour.account = id;
  return { id, ...provider.accounts.get(id)! };
}

const cookieOf = (setCookie: string | string[] | undefined) => ([setCookie ?? []].flat()[0] ?? '').split(';')[0];

/** Starts a sign-in as a browser would (with `cookie`, if it has one): the provider URL and the cookie it is given. */
async function start(cookie?: string) {
  const response = await ctx.inject('GET', '/auth/oidc/test', cookie ? { headers: { cookie } } : {});
  expect(response.statusCode, response.body).toBe(302);
  return { location: String(response.headers.location), cookie: cookieOf(response.headers['set-cookie']) };
}

/** Through the provider and back to the callback with `cookie`: where the console page is sent. */
async function finish(started: { location: string; cookie: string }, cookie = started.cookie) {
  const back = await throughProvider(started.location, CALLBACK);
  const callback = await ctx.inject('GET', `${back.pathname}${back.search}`, { headers: { cookie } });
  expect(callback.statusCode, callback.body).toBe(302);
  return new URL(String(callback.headers.location));
}

const exchange = (code: string, cookie?: string) => ctx.inject('POST', '/auth/oidc/exchange', { body: { code }, ...(cookie ? { headers: { cookie } } : {}) });

const usersWith = (email: string) => ctx.db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).execute();
const identitiesOf = (subject: string) => ctx.db.selectFrom('identities').selectAll().where('subject', '=', subject).execute();

describe('an email the provider does not vouch for', () => {
  it('makes no account and no identity, so the mailbox owner registers the address and the provider account never reaches it', async () => {
    const claimant = newAccount({ email: uniqueEmail('future'), email_verified: false });
    const landing = await finish(await start());
    expect(landing.searchParams.get('error')).toBe('email_unverified');
    expect(landing.searchParams.get('provider')).toBe('test');
    expect(landing.searchParams.get('code')).toBeNull();
    expect(await usersWith(claimant.email)).toEqual([]);
    expect(await identitiesOf(claimant.id)).toEqual([]);

    // The real owner registers the address as anyone would.
    const registered = await ctx.register({ email: claimant.email });
    expect(registered.statusCode, registered.body).toBe(201);
    // The provider account that claimed it still gets nowhere, even once it says "verified".
    expect((await finish(await start())).searchParams.get('error')).toBe('email_unverified');
    provider.accounts.set(claimant.id, { ...provider.accounts.get(claimant.id)!, email_verified: true });
    expect((await finish(await start())).searchParams.get('error')).toBe('email_taken');
    expect(await identitiesOf(claimant.id)).toEqual([]);
  });

  it('refuses a claim set without email_verified, and never links to an existing account by an unverified email', async () => {
    const silent = newAccount();
    provider.accounts.set(silent.id, { email: silent.email, given_name: 'No', family_name: 'Flag' } as TestAccount);
    expect((await finish(await start())).searchParams.get('error')).toBe('email_unverified');
    expect(await usersWith(silent.email)).toEqual([]);

    const existing = await ctx.createUser();
    const claimant = newAccount({ email: existing.user.email, email_verified: false });
    expect((await finish(await start())).searchParams.get('error')).toBe('email_unverified');
    expect(await identitiesOf(claimant.id)).toEqual([]);
  });
});

describe('the one-time code belongs to the browser that started the sign-in', () => {
  it('is refused without that browser’s cookie or with another browser’s, and still works in its own browser', async () => {
    newAccount();
    const mine = await start();
    const code = (await finish(mine)).searchParams.get('code')!;
    expect(code).toBeTruthy();

    const noCookie = await exchange(code);
    expect(noCookie.statusCode).toBe(403);
    expect(noCookie.json().message).toBe(SIGN_IN_EXPIRED);
    // Another browser (another cookie jar) that started a sign-in of its own.
    const other = await start();
    expect(other.cookie).not.toBe(mine.cookie);
    const elsewhere = await exchange(code, other.cookie);
    expect(elsewhere.statusCode).toBe(403);
    expect(elsewhere.json().message).toBe(INVALID_CODE);
    const garbage = await exchange(code, 'oidc_browser=not-a-cookie-value');
    expect(garbage.statusCode).toBe(403);

    // The attempts did not use it up: the browser it was issued to exchanges it, and its cookie is cleared.
    const own = await exchange(code, mine.cookie);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().token).toMatch(/\|/);
    expect(String(own.headers['set-cookie'])).toMatch(/^oidc_browser=; Path=\/auth\/oidc; Max-Age=0;/);
  });

  it('issues a fresh random cookie at every start, never keeping one the client chose', async () => {
    newAccount();
    const chosen = `oidc_browser=${'A'.repeat(43)}`;
    const started = await start(chosen);
    expect(started.cookie).toMatch(/^oidc_browser=[A-Za-z0-9_-]{43}$/);
    expect(started.cookie).not.toBe(chosen);
    // The state is bound to the issued value, not to the planted one.
    expect((await finish(started, chosen)).searchParams.get('error')).toBe('expired');

    // Linking starts are the same.
    const person = await ctx.signedInUser();
    const link = await ctx.inject('POST', '/api/identities', { token: person.token, body: { provider: 'test', password: person.password }, headers: { cookie: chosen } });
    expect(link.statusCode, link.body).toBe(200);
    expect(cookieOf(link.headers['set-cookie'])).not.toBe(chosen);
  });
});

describe('claims follow the registration rules', () => {
  it('cleans names: no line breaks or control characters, trimmed, at most 255 characters', async () => {
    const person = newAccount({ given_name: 'Ctl\r\nX-Injected: 1', family_name: ' Hop\u001bper\u0000 ' });
    const { token } = await signIn();
    expect((await ctx.inject('GET', '/user', { token })).json()).toMatchObject({ firstname: 'Ctl X-Injected: 1', lastname: 'Hopper', email: person.email });

    // Nothing left of the given name: the full name (given + family at this provider) instead.
    newAccount({ given_name: '\r\n\u0007', family_name: 'é'.repeat(300) });
    const second = await signIn();
    const me = (await ctx.inject('GET', '/user', { token: second.token })).json();
    expect(me.firstname).toBe('é'.repeat(255));
    expect(me.lastname).toBe('é'.repeat(255));
  });

  it('refuses an email claim that is not a valid address, and one that is missing', async () => {
    for (const email of ['a@b', 'x\u0007y@uni.example', 'two@@uni.example', `${'x'.repeat(250)}@uni.example`]) {
      const claimant = newAccount({ email });
      const landing = await finish(await start());
      expect(landing.searchParams.get('error'), email).toBe('invalid_email');
      expect(await identitiesOf(claimant.id)).toEqual([]);
    }
    expect(await usersWith('a@b')).toEqual([]);
    const nobody = newAccount();
    provider.accounts.set(nobody.id, { email_verified: true, given_name: 'No', family_name: 'Mail' } as TestAccount);
    expect((await finish(await start())).searchParams.get('error')).toBe('no_email');
  });

  it('keeps no invalid email claim on a linked identity', async () => {
    const person = await ctx.signedInUser();
    newAccount({ email: 'a@b' });
    const response = await ctx.inject('POST', '/api/identities', { token: person.token, body: { provider: 'test', password: person.password } });
    const landing = await finish({ location: response.json().url, cookie: cookieOf(response.headers['set-cookie']) });
    expect(landing.searchParams.get('linked')).toBe('test');
    expect((await ctx.inject('GET', '/api/identities', { token: person.token })).json()).toEqual([expect.objectContaining({ email: null })]);
  });

  it('as plain functions', () => {
    expect(cleanName('  a \u2028 b\u001b[31m  ')).toBe('a b[31m');
    expect(cleanName('😀'.repeat(200))).toHaveLength(254);
    expect(claimEmail({ email: ' Ada@Uni.Example ' } as never)).toEqual({ email: 'ada@uni.example' });
    expect(claimEmail({ email: 'ada@localhost' } as never)).toEqual({ problem: 'invalid_email' });
    expect(claimEmail({ email: 42 } as never)).toEqual({ problem: 'no_email' });
  });
});

describe('the redirect to the console names a failure by its code only', () => {
  it('carries a known code and the provider id, never a text from the provider', async () => {
    newAccount();
    provider.behaviour.deny = true;
    const denied = await finish(await start());
    expect([...denied.searchParams.keys()].sort()).toEqual(['error', 'intent', 'provider']);
    expect(denied.searchParams.get('error')).toBe('consent_denied');
    expect(denied.search).not.toMatch(/consent\.|did%20not|did\+not/i);

    provider.behaviour.deny = false;
    const forged = await start();
    const back = await throughProvider(forged.location, CALLBACK);
    back.searchParams.set('error', 'Your account is locked. Call +1 555 0100');
    back.searchParams.set('error_description', 'Call us');
    const callback = await ctx.inject('GET', `${back.pathname}${back.search}`, { headers: { cookie: forged.cookie } });
    const landing = new URL(String(callback.headers.location));
    expect(OIDC_ERRORS).toContain(landing.searchParams.get('error'));
    expect(landing.search).not.toMatch(/locked|Call/);
  });
});

async function signIn(): Promise<{ token: string }> {
  const started = await start();
  const landing = await finish(started);
  const code = landing.searchParams.get('code');
  expect(code, landing.searchParams.get('error') ?? '').toBeTruthy();
  const response = await exchange(code!, started.cookie);
  expect(response.statusCode, response.body).toBe(200);
  return { token: response.json().token };
}
