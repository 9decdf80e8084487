import { expect } from 'vitest';
import { createTestContext, TEST_APP_URL, type TestContext, uniqueEmail } from './helpers.js';
import { startTestProvider, type TestAccount, type TestProvider, throughProvider } from './oidcProvider.js';

// The browser's side of institutional sign-in and linking against the real test provider,
// for the tests of what a password reset or a disable does to them. Each step is separate so
// that a test can act (reset, disable) between the provider and the callback.

export const CALLBACK = `${TEST_APP_URL}/auth/oidc/callback`;
export const PROVIDER_NAME = 'Test University';

export interface OidcWorld {
  ctx: TestContext;
  provider: TestProvider;
  /** A new account at the provider, signed in by the next interactions. */
  newAccount(claims?: Partial<TestAccount>): { id: string } & TestAccount;
  /** Sign-in: redirect to the provider and back; answers the callback URL not yet followed, and the browser cookie. */
  startSignIn(): Promise<Pending>;
  /** Linking for the holder of `token` who knows `password`: the same, through POST /api/identities. */
  startLink(token: string, password: string): Promise<Pending>;
  /** The callback: answers the console page's query (code, linked, or error). */
  finish(pending: Pending): Promise<URLSearchParams>;
  /** A whole sign-in, exchanged: the session token. */
  signIn(): Promise<string>;
  close(): Promise<void>;
}

export interface Pending {
  back: URL;
  cookie: string;
}

const cookieOf = (setCookie: string | string[] | undefined) => ([setCookie ?? []].flat()[0] ?? '').split(';')[0];

let accounts = 0;

export async function startOidcWorld(): Promise<OidcWorld> {
  const provider = await startTestProvider({ redirectUris: [CALLBACK] });
  const ctx = await createTestContext({
    config: { oidcProviders: [{ id: 'test', name: PROVIDER_NAME, issuer: provider.issuer, clientId: provider.clientId, clientSecret: provider.clientSecret }] },
  }).catch(async (error: unknown) => {
    await provider.close();
    throw error;
  });

  const through = async (location: string, cookie: string): Promise<Pending> => {
    expect(location.startsWith(provider.issuer), location).toBe(true);
    return { back: await throughProvider(location, CALLBACK), cookie };
  };

  const world: OidcWorld = {
    ctx,
    provider,
    newAccount(claims = {}) {
      const id = `person-${process.pid}-${++accounts}`;
      const account: TestAccount = { email: uniqueEmail('inst'), email_verified: true, given_name: 'Grace', family_name: 'Hopper', ...claims };
      provider.accounts.set(id, account);
      provider.behaviour.account = id;
      return { id, ...account };
    },
    async startSignIn() {
      const response = await ctx.inject('GET', '/auth/oidc/test');
      expect(response.statusCode, response.body).toBe(302);
      return through(String(response.headers.location), cookieOf(response.headers['set-cookie']));
    },
    async startLink(token, password) {
      const response = await ctx.inject('POST', '/api/identities', { token, body: { provider: 'test', password } });
      expect(response.statusCode, response.body).toBe(200);
      return through(response.json().url, cookieOf(response.headers['set-cookie']));
    },
    async finish({ back, cookie }) {
      const callback = await ctx.inject('GET', `${back.pathname}${back.search}`, { headers: { cookie } });
      expect(callback.statusCode, callback.body).toBe(302);
      const landing = new URL(String(callback.headers.location));
      expect(`${landing.origin}${landing.pathname}`).toBe(`${TEST_APP_URL}/oidc/callback`);
      return landing.searchParams;
    },
    async signIn() {
      const pending = await world.startSignIn();
      const result = await world.finish(pending);
      const code = result.get('code');
      expect(code, result.get('error') ?? '').toBeTruthy();
      const exchanged = await ctx.inject('POST', '/auth/oidc/exchange', { body: { code }, headers: { cookie: pending.cookie } });
      expect(exchanged.statusCode, exchanged.body).toBe(200);
      return exchanged.json().token;
    },
    async close() {
      await ctx.close();
      await provider.close();
    },
  };
  return world;
}

/** The account a session token belongs to. */
export async function accountOf(ctx: TestContext, token: string): Promise<number> {
  const me = await ctx.inject('GET', '/user', { token });
  expect(me.statusCode, me.body).toBe(200);
  return me.json().id;
}
