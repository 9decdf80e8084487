import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_RATE_LIMITS, loadConfig } from '../src/config/config.js';
import { INVALID_CODE } from '../src/oidc/oidc.js';
import { LAST_WAY_IN, WRONG_PASSWORD } from '../src/oidc/routes.js';
import { createTestContext, freePort, TEST_APP_URL, type TestContext, uniqueEmail } from './helpers.js';
import { startTestProvider, type TestProvider, throughProvider } from './oidcProvider.js';

// Institutional sign-in through a REAL OpenID provider (oidc-provider on loopback):
// the console's redirect, the provider's automatic login and consent (or refusal), the
// callback with openid-client's checks (state, nonce, PKCE), the one-time code exchanged for a
// session token, linking and unlinking. On SQLite and PostgreSQL.

const CALLBACK = `${TEST_APP_URL}/auth/oidc/callback`;
const NAME = 'Test University';

let ctx: TestContext;
let provider: TestProvider;
let account = 0;

beforeAll(async () => {
  provider = await startTestProvider({ redirectUris: [CALLBACK] });
  const closedPort = await freePort();
  ctx = await createTestContext({
    config: {
      oidcProviders: [
        { id: 'test', name: NAME, issuer: provider.issuer, clientId: provider.clientId, clientSecret: provider.clientSecret },
        { id: 'down', name: 'Down Lab', issuer: `http://127.0.0.1:${closedPort}`, clientId: 'x', clientSecret: 'y' },
      ],
    },
  });
});
afterAll(async () => {
  await ctx?.close();
  await provider?.close();
});
beforeEach(() => {
  provider.behaviour.deny = false;
});

/** A new account at the provider, signed in by the next interactions. */
function newAccount(claims: Partial<{ email: string; email_verified: boolean; given_name: string; family_name: string }> = {}) {
  const id = `person-${process.pid}-${++account}`;
  provider.accounts.set(id, { email: uniqueEmail('inst'), email_verified: true, given_name: 'Grace', family_name: 'Hopper', ...claims });
  provider.behaviour.account = id;
  return { id, ...provider.accounts.get(id)! };
}

const cookieOf = (setCookie: string | string[] | undefined) => {
  const header = [setCookie ?? []].flat()[0] ?? '';
  return header.split(';')[0];
};

/** The oidc_browser cookie of the last round trip's browser (the exchange needs it). */
let lastCookie = '';

/** The browser's round trip: start, the provider, back to the callback; answers where the console page is sent. */
async function roundTrip(options: { start?: () => Promise<{ location: string; cookie: string }>; tamper?: (callback: URL) => URL | void; cookie?: string } = {}) {
  const started =
    (await options.start?.()) ??
    (await (async () => {
      const response = await ctx.inject('GET', '/auth/oidc/test');
      expect(response.statusCode, response.body).toBe(302);
      return { location: String(response.headers.location), cookie: cookieOf(response.headers['set-cookie']) };
    })());
  expect(started.location.startsWith(provider.issuer)).toBe(true);
  lastCookie = started.cookie;
  let back = await throughProvider(started.location, CALLBACK);
  back = options.tamper?.(back) ?? back;
  const callback = await ctx.inject('GET', `${back.pathname}${back.search}`, { headers: { cookie: options.cookie ?? started.cookie } });
  expect(callback.statusCode, callback.body).toBe(302);
  const landing = new URL(String(callback.headers.location));
  expect(`${landing.origin}${landing.pathname}`).toBe(`${TEST_APP_URL}/oidc/callback`);
  return landing.searchParams;
}

async function signIn(): Promise<{ token: string; code: string }> {
  const result = await roundTrip();
  const code = result.get('code');
  expect(code, result.get('error') ?? '').toBeTruthy();
  const exchanged = await ctx.inject('POST', '/auth/oidc/exchange', { body: { code }, headers: { cookie: lastCookie } });
  expect(exchanged.statusCode, exchanged.body).toBe(200);
  return { token: exchanged.json().token, code: code! };
}

describe('configuration', () => {
  const env = { STORAGE_DIR: '/tmp/oidc-config-test', APP_KEY: 'k'.repeat(32) };
  it('reads OIDC_PROVIDERS and the single-provider variables', () => {
    const config = loadConfig(
      {
        ...env,
        OIDC_PROVIDERS: JSON.stringify([{ name: 'Université Paris', issuer: 'https://idp.example.org', client_id: 'a', client_secret: 'b' }]),
        OIDC_ISSUER: 'https://login.example.edu/realms/lab',
        OIDC_CLIENT_ID: 'console',
        OIDC_CLIENT_SECRET: 'secret',
        OIDC_NAME: 'Lab',
      },
      { envFile: null },
    );
    expect(config.oidcProviders).toEqual([
      { id: 'universite-paris', name: 'Université Paris', issuer: 'https://idp.example.org', clientId: 'a', clientSecret: 'b' },
      { id: 'lab', name: 'Lab', issuer: 'https://login.example.edu/realms/lab', clientId: 'console', clientSecret: 'secret' },
    ]);
    expect(loadConfig(env, { envFile: null }).oidcProviders).toEqual([]);
  });

  it('names every problem', () => {
    expect(() => loadConfig({ ...env, OIDC_PROVIDERS: '{' }, { envFile: null })).toThrow(ConfigError);
    expect(() => loadConfig({ ...env, OIDC_ISSUER: 'https://idp.example.org' }, { envFile: null })).toThrow(/client_id/);
    expect(() =>
      loadConfig({ ...env, OIDC_PROVIDERS: JSON.stringify([{ id: 'callback', name: 'x', issuer: 'https://a.example', client_id: 'a', client_secret: 'b' }]) }, { envFile: null }),
    ).toThrow(/reserved/);
  });
});

describe('settings', () => {
  it('lists the providers for the console buttons, without secrets', async () => {
    const settings = (await ctx.inject('GET', '/api/settings')).json();
    expect(settings.oidcProviders).toEqual([
      { id: 'test', name: NAME },
      { id: 'down', name: 'Down Lab' },
    ]);
  });
});

describe('signing in', () => {
  it('creates the account from the claims on first sign-in, with the verified email, and the same account afterwards', async () => {
    const person = newAccount({ given_name: 'Grace', family_name: 'Hopper' });
    const first = await signIn();
    const me = (await ctx.inject('GET', '/user', { token: first.token })).json();
    expect(me).toMatchObject({ firstname: 'Grace', lastname: 'Hopper', email: person.email });
    expect(me.email_verified_at).not.toBeNull();
    // The policy step still applies.
    expect(me.aup_accepted_at).toBeNull();
    const gated = await ctx.inject('GET', '/api/tenants', { token: first.token });
    expect(gated.statusCode).toBe(403);
    expect(gated.json().onboarding).toBe('accept-aup');

    // The code works once.
    const reused = await ctx.inject('POST', '/auth/oidc/exchange', { body: { code: first.code }, headers: { cookie: lastCookie } });
    expect(reused.statusCode).toBe(403);
    expect(reused.json().message).toBe(INVALID_CODE);

    const again = await signIn();
    expect((await ctx.inject('GET', '/user', { token: again.token })).json().id).toBe(me.id);
    const identities = await ctx.db.selectFrom('identities').selectAll().where('user_id', '=', me.id).execute();
    expect(identities).toEqual([expect.objectContaining({ issuer: provider.issuer, subject: person.id, provider: 'test' })]);
    // No password: the account cannot log in with one.
    expect((await ctx.inject('POST', '/login', { body: { email: person.email, password: '' } })).statusCode).toBe(422);
  });

  it('matches by issuer + subject, never by email: a changed email at the provider is the same account', async () => {
    const person = newAccount();
    const first = await signIn();
    const id = (await ctx.inject('GET', '/user', { token: first.token })).json().id;
    provider.accounts.set(person.id, { ...provider.accounts.get(person.id)!, email: uniqueEmail('renamed') });
    const second = await signIn();
    expect((await ctx.inject('GET', '/user', { token: second.token })).json()).toMatchObject({ id, email: person.email });
  });

  it('refuses an email another account has (nothing created) and says how to link instead', async () => {
    const existing = await ctx.createUser();
    newAccount({ email: existing.user.email });
    const usersBefore = await ctx.db.selectFrom('users').select('id').execute();
    const result = await roundTrip();
    expect(result.get('error')).toBe('email_taken');
    expect(result.get('provider')).toBe('test');
    expect(result.get('intent')).toBe('login');
    expect(await ctx.db.selectFrom('users').select('id').execute()).toHaveLength(usersBefore.length);
    expect(await ctx.db.selectFrom('identities').select('id').where('subject', '=', provider.behaviour.account).execute()).toEqual([]);
  });

  it('ends on the console with a clear message when consent is denied', async () => {
    newAccount();
    provider.behaviour.deny = true;
    const result = await roundTrip();
    expect(result.get('error')).toBe('consent_denied');
    expect(result.get('code')).toBeNull();
  });

  it('refuses a tampered state, a callback from another browser, and a replayed state', async () => {
    newAccount();
    const tampered = await roundTrip({ tamper: (url) => void url.searchParams.set('state', 'forged-state-value') });
    expect(tampered.get('error')).toBe('expired');

    const otherBrowser = await roundTrip({ cookie: 'oidc_browser=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' });
    expect(otherBrowser.get('error')).toBe('expired');

    // The same callback twice: the state was used up by the first.
    const start = await ctx.inject('GET', '/auth/oidc/test');
    const cookie = cookieOf(start.headers['set-cookie']);
    const back = await throughProvider(String(start.headers.location), CALLBACK);
    const first = await ctx.inject('GET', `${back.pathname}${back.search}`, { headers: { cookie } });
    expect(new URL(String(first.headers.location)).searchParams.get('code')).toBeTruthy();
    const replay = await ctx.inject('GET', `${back.pathname}${back.search}`, { headers: { cookie } });
    expect(new URL(String(replay.headers.location)).searchParams.get('error')).toBe('expired');
  });

  it('refuses an ID token whose nonce is not the one sent (openid-client checks it)', async () => {
    newAccount();
    const result = await roundTrip({
      start: async () => {
        const response = await ctx.inject('GET', '/auth/oidc/test');
        // The nonce kept for the callback is no longer the one sent: the ID token's does not match it.
        const state = new URL(String(response.headers.location)).searchParams.get('state')!;
        const { createHash } = await import('node:crypto');
        const stateHash = createHash('sha256').update(state).digest('hex');
        const changed = await ctx.db.updateTable('oidc_states').set({ nonce: 'another-nonce' }).where('state_hash', '=', stateHash).executeTakeFirst();
        expect(changed.numUpdatedRows).toBe(1n);
        return { location: String(response.headers.location), cookie: cookieOf(response.headers['set-cookie']) };
      },
    });
    expect(result.get('error')).toBe('failed');
  });

  it('says when the provider cannot be reached, at the start and at the callback', async () => {
    const start = await ctx.inject('GET', '/auth/oidc/down');
    expect(start.statusCode).toBe(302);
    const landing = new URL(String(start.headers.location));
    expect(landing.pathname).toBe('/oidc/callback');
    expect(landing.searchParams.get('error')).toBe('provider_down');
    expect(landing.searchParams.get('provider')).toBe('down');

    // Down between the redirect and the callback: the token request fails.
    const flaky = await startTestProvider({ redirectUris: [CALLBACK], accounts: { someone: { email: uniqueEmail(), email_verified: true, given_name: 'A', family_name: 'B' } } });
    const flakyCtx = await createTestContext({
      config: { oidcProviders: [{ id: 'flaky', name: 'Flaky', issuer: flaky.issuer, clientId: flaky.clientId, clientSecret: flaky.clientSecret }] },
    });
    try {
      const begun = await flakyCtx.inject('GET', '/auth/oidc/flaky');
      const back = await throughProvider(String(begun.headers.location), CALLBACK);
      await flaky.close();
      const callback = await flakyCtx.inject('GET', `${back.pathname}${back.search}`, { headers: { cookie: cookieOf(begun.headers['set-cookie']) } });
      expect(new URL(String(callback.headers.location)).searchParams.get('error')).toBe('provider_down');
      expect(await flakyCtx.db.selectFrom('users').select('id').execute()).toEqual([]);
    } finally {
      await flakyCtx.close();
      await flaky.close();
    }
  });

  it('answers 404 for an unknown provider and 403 for a bad code', async () => {
    expect((await ctx.inject('GET', '/auth/oidc/nope')).statusCode).toBe(404);
    const bad = await ctx.inject('POST', '/auth/oidc/exchange', { body: { code: 'x'.repeat(43) } });
    expect(bad.statusCode).toBe(403);
    expect((await ctx.inject('POST', '/auth/oidc/exchange', { body: {} })).statusCode).toBe(422);
  });

  it('refuses a disabled account', async () => {
    newAccount();
    const { token } = await signIn();
    const id = (await ctx.inject('GET', '/user', { token })).json().id;
    await ctx.db.updateTable('users').set({ enabled: 0 }).where('id', '=', id).execute();
    const result = await roundTrip();
    expect(result.get('error')).toBe('account_disabled');
  });
});

describe('throttling', () => {
  it('limits the sign-ins started from one address', async () => {
    const limited = await createTestContext({
      config: {
        rateLimits: { ...DEFAULT_RATE_LIMITS, oidcStart: { max: 2, windowSeconds: 600 } },
        oidcProviders: [{ id: 'test', name: NAME, issuer: provider.issuer, clientId: provider.clientId, clientSecret: provider.clientSecret }],
      },
    });
    try {
      expect((await limited.inject('GET', '/auth/oidc/test')).statusCode).toBe(302);
      expect((await limited.inject('GET', '/auth/oidc/test')).statusCode).toBe(302);
      const refused = await limited.inject('GET', '/auth/oidc/test');
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});

describe('linking and unlinking', () => {
  const startLink = (token: string, body: Record<string, unknown>) => ctx.inject('POST', '/api/identities', { token, body });

  it('links after the password is entered again, then signs in to that account; unlinks while a password remains', async () => {
    const person = await ctx.signedInUser();
    expect((await startLink(person.token, { provider: 'test', password: 'wrong password' })).json().errors.password).toEqual([WRONG_PASSWORD]);
    expect((await startLink(person.token, { provider: 'nope', password: person.password })).json().errors.provider).toBeDefined();
    expect((await ctx.inject('POST', '/api/identities', { body: { provider: 'test', password: 'x' } })).statusCode).toBe(401);

    const institutional = newAccount({ email: uniqueEmail('other-address') });
    const result = await roundTrip({
      start: async () => {
        const response = await startLink(person.token, { provider: 'test', password: person.password });
        expect(response.statusCode, response.body).toBe(200);
        return { location: response.json().url, cookie: cookieOf(response.headers['set-cookie']) };
      },
    });
    expect(result.get('linked')).toBe('test');
    const mine = (await ctx.inject('GET', '/api/identities', { token: person.token })).json();
    expect(mine).toEqual([expect.objectContaining({ provider: 'test', provider_name: NAME, email: institutional.email, can_unlink: true })]);

    // Signing in with the institution is now this account (matched by issuer + subject, not the email).
    const { token } = await signIn();
    expect((await ctx.inject('GET', '/user', { token })).json().id).toBe(person.user.id);

    // Admins see it on the user; others may not ask.
    const admin = await ctx.signedInUser({ admin: true });
    const seen = await ctx.inject('GET', `/api/admin/users/${person.user.id}/identities`, { token: admin.token });
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toHaveLength(1);
    expect((await ctx.inject('GET', `/api/admin/users/${person.user.id}/identities`, { token: person.token })).statusCode).toBe(403);
    expect((await ctx.inject('GET', '/api/admin/users/999999/identities', { token: admin.token })).statusCode).toBe(404);

    // Someone else cannot link the same institutional account.
    const other = await ctx.signedInUser();
    const taken = await roundTrip({
      start: async () => {
        const response = await startLink(other.token, { provider: 'test', password: other.password });
        return { location: response.json().url, cookie: cookieOf(response.headers['set-cookie']) };
      },
    });
    expect(taken.get('error')).toBe('linked_elsewhere');
    expect(taken.get('intent')).toBe('link');

    expect((await ctx.inject('DELETE', `/api/identities/${mine[0].id}`, { token: other.token })).statusCode).toBe(404);
    expect((await ctx.inject('DELETE', `/api/identities/${mine[0].id}`, { token: person.token })).statusCode).toBe(204);
    expect((await ctx.inject('GET', '/api/identities', { token: person.token })).json()).toEqual([]);
    // Unlinked: the institution no longer leads to this account (its email is free, so a new one is made).
    const fresh = await signIn();
    expect((await ctx.inject('GET', '/user', { token: fresh.token })).json().id).not.toBe(person.user.id);
  });

  it('refuses to unlink the only way into an account without a password', async () => {
    newAccount();
    const { token } = await signIn();
    const me = (await ctx.inject('GET', '/user', { token })).json();
    await ctx.db.updateTable('users').set({ aup_accepted_at: new Date().toISOString() }).where('id', '=', me.id).execute();
    const [identity] = (await ctx.inject('GET', '/api/identities', { token })).json();
    expect(identity.can_unlink).toBe(false);
    const refused = await ctx.inject('DELETE', `/api/identities/${identity.id}`, { token });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(LAST_WAY_IN);
  });
});
