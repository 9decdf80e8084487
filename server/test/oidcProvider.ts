import { generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

// A real OpenID provider for the tests and `npm run oidc:dev`: oidc-provider (the certified
// Node implementation) on loopback with one confidential client. Its login/consent interaction
// is automatic: it signs in `behaviour.account` and grants what was asked, or refuses
// (`behaviour.deny`). Accounts are plain claim sets; `email_verified` is whatever they say.

export interface TestAccount {
  email: string;
  email_verified: boolean;
  given_name: string;
  family_name: string;
}

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  accounts: Map<string, TestAccount>;
  /** What the next interaction does. */
  behaviour: { account: string; deny: boolean };
  close(): Promise<void>;
}

export interface TestProviderOptions {
  /** Loopback port; 0 = any free one. */
  port?: number;
  host?: string;
  redirectUris: string[];
  accounts?: Record<string, TestAccount>;
  clientId?: string;
  clientSecret?: string;
  /**
   * A page at the provider to choose the account, or refuse, instead of the automatic
   * interaction (npm run oidc:dev and the browser tests).
   */
  interactive?: boolean;
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

async function formBody(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export async function startTestProvider(options: TestProviderOptions): Promise<TestProvider> {
  const accounts = new Map(Object.entries(options.accounts ?? {}));
  const behaviour = { account: accounts.keys().next().value ?? 'nobody', deny: false };
  const clientId = options.clientId ?? 'testbed-console';
  const clientSecret = options.clientSecret ?? 'testbed-console-secret-0123456789';
  const host = options.host ?? '127.0.0.1';

  let handler: (request: IncomingMessage, response: ServerResponse) => void = (_request, response) => response.end();
  const server: Server = createServer((request, response) => handler(request, response));
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve));
  const issuer = `http://${host}:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    async findAccount(_context: unknown, id: string) {
      const account = accounts.get(id);
      if (!account) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, ...account, name: `${account.given_name} ${account.family_name}` }) };
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name', 'name'] },
    // The claims in the ID token itself, as most institutional providers do.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_context: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    pkce: { required: () => true },
    cookies: { keys: ['oidc-test-provider-cookie-key'] },
    // A signing key of its own and explicit lifetimes, rather than the quick-start defaults.
    jwks: { keys: [{ ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }), use: 'sig', kid: 'test' }] },
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600 },
  });
  // Quiet: the tests provoke errors on purpose.
  provider.on('server_error', () => {});

  const callback = provider.callback();
  const interact = async (request: IncomingMessage, response: ServerResponse) => {
    const details = await provider.interactionDetails(request, response);
    if (options.interactive && details.prompt.name === 'login') {
      if (request.method !== 'POST') {
        const buttons = [...accounts]
          .map(
            ([id, account]) =>
              `<button name="account" value="${escape(id)}">${escape(`${account.given_name} ${account.family_name}`)} &lt;${escape(account.email)}&gt;${account.email_verified ? '' : ' (email not verified)'}</button>`,
          )
          .join('<br>');
        response.setHeader('content-type', 'text/html; charset=utf-8');
        response.end(
          `<!doctype html><html><head><title>Test provider</title></head><body style="font-family:sans-serif"><h1>Test identity provider</h1><p>Sign in to ${escape(details.params.client_id)} as:</p><form method="post">${buttons}<p><button name="deny" value="1">Refuse</button></p></form></body></html>`,
        );
        return;
      }
      const form = await formBody(request);
      behaviour.deny = form.get('deny') === '1';
      if (!behaviour.deny) behaviour.account = form.get('account') ?? behaviour.account;
    }
    if (behaviour.deny) {
      await provider.interactionFinished(request, response, { error: 'access_denied', error_description: 'The person did not consent.' }, { mergeWithLastSubmission: false });
      return;
    }
    if (details.prompt.name === 'login') {
      await provider.interactionFinished(request, response, { login: { accountId: behaviour.account } }, { mergeWithLastSubmission: false });
      return;
    }
    const grant = details.grantId
      ? await provider.Grant.find(details.grantId)
      : new provider.Grant({ accountId: details.session.accountId, clientId: details.params.client_id });
    const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[]; missingResourceScopes?: Record<string, string[]> };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes.join(' '));
    const grantId = await grant.save();
    await provider.interactionFinished(request, response, { consent: { grantId } }, { mergeWithLastSubmission: true });
  };
  handler = (request, response) => {
    if (request.url?.startsWith('/interaction/')) {
      interact(request, response).catch((error: unknown) => {
        response.statusCode = 500;
        response.end(String(error));
      });
      return;
    }
    callback(request, response);
  };

  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    behaviour,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A browser's trip through the provider: follows redirects from `url` (keeping the provider's
 * cookies in `jar`) until one leads back to `stopAt`, and answers that URL.
 */
export async function throughProvider(url: string, stopAt: string, jar: Map<string, string> = new Map()): Promise<URL> {
  let next = url;
  for (let hop = 0; hop < 20; hop++) {
    if (next.startsWith(stopAt)) return new URL(next);
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(next, { redirect: 'manual', headers: cookie ? { cookie } : {} });
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const index = pair.indexOf('=');
      jar.set(pair.slice(0, index), pair.slice(index + 1));
    }
    const location = response.headers.get('location');
    if (!location) throw new Error(`The provider stopped at ${next} with ${response.status}: ${await response.text()}`);
    next = new URL(location, next).href;
  }
  throw new Error('Too many redirects at the provider');
}
