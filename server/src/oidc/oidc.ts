import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import * as client from 'openid-client';
import { recordActivity } from '../activity/log.js';
import type { Config } from '../config/config.js';
import { isUniqueViolation, timestamp } from '../db/database.js';
import type { Database, Identity, OidcIntent, User } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import { mailLocale } from '../i18n/messages.js';
import { type AfterCommitServices, applyAfterCommit } from '../effects/afterCommit.js';
import { enqueueMail } from '../mail/outbox.js';
import { identityLinkedMail } from '../mail/templates.js';
import { issueSession } from '../tokens/tokens.js';
import { ACCOUNT_DISABLED, normalizeEmail } from '../users/users.js';
import type { OidcProviderConfig } from '../config/oidcProviders.js';
import { claimEmail, claimNames } from './claims.js';
import { linkingStillAllowed } from './identityRights.js';

// Institutional sign-in through OpenID Connect (docs/api-contract.md, "Institutional sign-in"). All the
// protocol is openid-client's: discovery, the authorization code flow with PKCE, state and
// nonce, the ID token's validation. This module keeps what is ours: the redirect's state in
// the database bound to the browser that started it, the account made or found from the
// claims (issuer + subject, never the email alone), linking, and the one-time code the console
// exchanges for the same session token POST /login gives. The code is bound to the browser that
// started the sign-in: its stored hash covers that browser's cookie, so the code alone, given
// to another browser (login CSRF), matches nothing.

export const STATE_MINUTES = 10;
export const CODE_SECONDS = 60;
/** The cookie that binds a redirect to the browser that started it. */
export const BROWSER_COOKIE = 'oidc_browser';
/** An account made by a sign-in has no password: this never matches (passwords.ts). */
export const NO_PASSWORD = '';

export const UNKNOWN_PROVIDER = 'This sign-in provider is not configured.';
export const SIGN_IN_EXPIRED = 'This sign-in was not started in this browser or has expired. Please start again.';
export const INVALID_CODE = 'This sign-in code is invalid, has expired or was issued to another browser. Please sign in again.';
export const providerDown = (name: string) => `${name} cannot be reached right now. Try again later, or sign in with your email and password.`;

/**
 * Why a sign-in or a linking failed, as the redirect to the console's /oidc/callback names it
 * (`error=`): a fixed set of codes, for which the console has its own words. Never free text: a
 * link to /oidc/callback can be made by anyone, and the page must not show what it carries.
 */
export const OIDC_ERRORS = [
  'expired',
  'unknown_provider',
  'provider_down',
  'consent_denied',
  'failed',
  'no_email',
  'invalid_email',
  'email_unverified',
  'email_taken',
  'linked_elsewhere',
  'account_disabled',
] as const;
export type OidcErrorCode = (typeof OIDC_ERRORS)[number];

/** A sign-in or linking refused for a reason the person is told (by its code). */
export class OidcFailure extends Error {
  constructor(readonly code: OidcErrorCode) {
    super(`OpenID sign-in refused: ${code}`);
  }
}

/** How a callback ends, for the console's /oidc/callback page. */
export type CallbackOutcome =
  | { kind: 'code'; code: string }
  | { kind: 'linked'; provider: string }
  | { kind: 'error'; intent: OidcIntent; error: OidcErrorCode; provider?: string };

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
/** A one-time code's stored hash: of the code and the browser cookie it was issued to. */
const codeHash = (code: string, browser: string) => sha256(`${browser}.${code}`);
const RANDOM_VALUE = /^[A-Za-z0-9_-]{43}$/;
const isLoopback = (url: URL) => ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);

export interface OidcService {
  providers: readonly OidcProviderConfig[];
  provider(id: string): OidcProviderConfig | undefined;
  /**
   * A redirect to the provider: the URL to send the browser to and the cookie value binding it
   * to this browser (always a new random one: a value the browser brings could have been
   * planted). Discovery failures are HttpError 502.
   */
  start(input: { provider: string; intent: OidcIntent; userId?: number }): Promise<{ url: string; browser: string }>;
  /** The provider sent the browser back to APP_URL/auth/oidc/callback?{query}. Never throws. */
  callback(query: string, browser: string | undefined): Promise<CallbackOutcome>;
  /**
   * The one-time code for a session token (POST /auth/oidc/exchange), only with the cookie of
   * the browser the sign-in was started from (`browser`); 403 otherwise.
   */
  exchange(code: string, browser: string | undefined, ip: string): Promise<string>;
}

export const callbackUrl = (config: Pick<Config, 'appUrl'>) => `${config.appUrl}/auth/oidc/callback`;

export function createOidcService(options: {
  config: Config;
  db: Kysely<Database>;
  /** What follows a sign-in or a linking (its mails): the app's context. */
  services: AfterCommitServices;
  log?: { warn: (object: unknown, message: string) => void };
  /** Seconds a request to a provider may take (openid-client's timeout). */
  timeoutSeconds?: number;
}): OidcService {
  const { config, db, services } = options;
  const providers = config.oidcProviders;
  const discovered = new Map<string, client.Configuration>();
  const find = (id: string) => providers.find((provider) => provider.id === id);

  async function configurationOf(provider: OidcProviderConfig): Promise<client.Configuration> {
    const known = discovered.get(provider.id);
    if (known) return known;
    const issuer = new URL(provider.issuer);
    // Plain http only for a provider on this machine (the test provider, npm run oidc:dev).
    const insecure = issuer.protocol === 'http:' && isLoopback(issuer);
    const configuration = await client.discovery(issuer, provider.clientId, provider.clientSecret, undefined, {
      execute: insecure ? [client.allowInsecureRequests] : [],
      timeout: options.timeoutSeconds ?? 10,
    });
    discovered.set(provider.id, configuration);
    return configuration;
  }

  return {
    providers,
    provider: find,

    async start({ provider: id, intent, userId }) {
      const provider = find(id);
      if (!provider) throw new HttpError(404, UNKNOWN_PROVIDER);
      let configuration: client.Configuration;
      try {
        configuration = await configurationOf(provider);
      } catch (error) {
        options.log?.warn({ err: error, provider: provider.id }, 'OpenID provider discovery failed');
        throw new HttpError(502, providerDown(provider.name));
      }
      const state = client.randomState();
      const nonce = client.randomNonce();
      const verifier = client.randomPKCECodeVerifier();
      const browserValue = randomBytes(32).toString('base64url');
      const now = new Date();
      await db.deleteFrom('oidc_states').where('expires_at', '<=', timestamp(now)).execute();
      await db
        .insertInto('oidc_states')
        .values({
          state_hash: sha256(state),
          provider: provider.id,
          nonce,
          code_verifier: verifier,
          browser_hash: sha256(browserValue),
          intent,
          user_id: userId ?? null,
          expires_at: timestamp(new Date(now.getTime() + STATE_MINUTES * 60_000)),
          created_at: timestamp(now),
        })
        .execute();
      const url = client.buildAuthorizationUrl(configuration, {
        redirect_uri: callbackUrl(config),
        scope: 'openid email profile',
        state,
        nonce,
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      });
      return { url: url.href, browser: browserValue };
    },

    async callback(query, browser) {
      const params = new URLSearchParams(query);
      const state = params.get('state') ?? '';
      // The state is used once, whatever follows.
      const pending = state
        ? await db.deleteFrom('oidc_states').where('state_hash', '=', sha256(state)).returningAll().executeTakeFirst()
        : undefined;
      const intentGuess: OidcIntent = pending?.intent ?? 'login';
      if (!pending || Date.parse(pending.expires_at) <= Date.now() || !browser || sha256(browser) !== pending.browser_hash) {
        return { kind: 'error', intent: intentGuess, error: 'expired' };
      }
      const provider = find(pending.provider);
      if (!provider) return { kind: 'error', intent: pending.intent, error: 'unknown_provider' };
      const failed = (error: OidcErrorCode): CallbackOutcome => ({ kind: 'error', intent: pending.intent, error, provider: provider.id });

      let claims: client.IDToken;
      try {
        const configuration = await configurationOf(provider);
        const tokens = await client.authorizationCodeGrant(configuration, new URL(`${callbackUrl(config)}?${params}`), {
          pkceCodeVerifier: pending.code_verifier,
          expectedState: state,
          expectedNonce: pending.nonce,
          idTokenExpected: true,
        });
        const idClaims = tokens.claims();
        if (!idClaims) throw new Error('no ID token');
        claims = idClaims;
      } catch (error) {
        return failed(grantError(error, provider, options.log));
      }

      try {
        if (pending.intent === 'link') {
          await linkIdentity(db, config, { userId: pending.user_id, provider, claims, startedAt: pending.created_at });
          applyAfterCommit(services, { mail: true });
          return { kind: 'linked', provider: provider.id };
        }
        const code = await signIn(db, { provider, claims, browser });
        applyAfterCommit(services, { mail: true });
        return { kind: 'code', code };
      } catch (error) {
        if (error instanceof OidcFailure) return failed(error.code);
        options.log?.warn({ err: error, provider: provider.id }, 'OpenID sign-in failed');
        return failed('failed');
      }
    },

    async exchange(code, browser, ip) {
      if (!browser || !RANDOM_VALUE.test(browser)) throw new HttpError(403, SIGN_IN_EXPIRED);
      const invalid = new HttpError(403, INVALID_CODE);
      if (!RANDOM_VALUE.test(code)) throw invalid;
      const now = timestamp();
      const claimed = await db
        .updateTable('oidc_codes')
        .set({ used_at: now })
        .where('code_hash', '=', codeHash(code, browser))
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .returning(['user_id', 'provider'])
        .executeTakeFirst();
      if (!claimed) throw invalid;
      const user = await db.selectFrom('users').selectAll().where('id', '=', claimed.user_id).executeTakeFirst();
      if (!user) throw invalid;
      if (!user.enabled) throw new HttpError(403, ACCOUNT_DISABLED);
      const session = await issueSession(db, user.id);
      await recordActivity(db, {
        causerId: user.id,
        description: 'logged in',
        subject: { type: 'user', id: user.id },
        properties: { ip, method: 'oidc', provider: claimed.provider },
      });
      return session.plainText;
    },
  };
}

/** Why a code grant failed, for the person: denied, unreachable, or failed (logged). */
function grantError(error: unknown, provider: OidcProviderConfig, log?: { warn: (object: unknown, message: string) => void }): OidcErrorCode {
  if (error instanceof client.AuthorizationResponseError && error.error === 'access_denied') return 'consent_denied';
  const unreachable =
    (error instanceof TypeError && /fetch failed/i.test(error.message)) ||
    (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) ||
    (error instanceof client.ClientError && error.code === 'OAUTH_TIMEOUT');
  log?.warn({ err: error, provider: provider.id }, 'OpenID code grant failed');
  return unreachable ? 'provider_down' : 'failed';
}

function findIdentity(db: Kysely<Database>, issuer: string, subject: string): Promise<Identity | undefined> {
  return db.selectFrom('identities').selectAll().where('issuer', '=', issuer).where('subject', '=', subject).executeTakeFirst();
}

/**
 * The account of a sign-in and a one-time code for it, bound to `browser`. A known issuer +
 * subject is its user's account; otherwise a new account from the claims (claims.ts), in one
 * transaction with its identity and its activity. Nothing is created from an email the provider
 * does not vouch for (`email_verified` not true): such an account, or its identity, would stay
 * in the hands of whoever signed in once the mailbox's owner takes the address over (Forgot
 * password, verification). An email another account already has is refused too: identities are
 * linked by their account's owner (linkIdentity), never by a matching email.
 */
async function signIn(db: Kysely<Database>, input: { provider: OidcProviderConfig; claims: client.IDToken; browser: string }): Promise<string> {
  const { provider, claims, browser } = input;
  const code = randomBytes(32).toString('base64url');
  const now = new Date();
  const storeCode = (trx: Kysely<Database>, userId: number) =>
    trx
      .insertInto('oidc_codes')
      .values({
        code_hash: codeHash(code, browser),
        user_id: userId,
        provider: provider.id,
        expires_at: timestamp(new Date(now.getTime() + CODE_SECONDS * 1000)),
        used_at: null,
        created_at: timestamp(now),
      })
      .execute();

  const known = await findIdentity(db, claims.iss, claims.sub);
  if (known) {
    const user = await db.selectFrom('users').select(['id', 'enabled']).where('id', '=', known.user_id).executeTakeFirstOrThrow();
    if (!user.enabled) throw new OidcFailure('account_disabled');
    await storeCode(db, user.id);
    return code;
  }

  const claimed = claimEmail(claims);
  if ('problem' in claimed) throw new OidcFailure(claimed.problem);
  if (claims.email_verified !== true) throw new OidcFailure('email_unverified');
  const email = normalizeEmail(claimed.email);
  const taken = () => new OidcFailure('email_taken');
  if (await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()) throw taken();
  const { firstname, lastname } = claimNames(claims, email);
  try {
    await db.transaction().execute(async (trx) => {
      const at = timestamp(now);
      const user: User = await trx
        .insertInto('users')
        .values({
          firstname,
          lastname,
          email,
          password_hash: NO_PASSWORD,
          email_verified_at: at,
          aup_accepted_at: null,
          admin: 0,
          enabled: 1,
          authority: null,
          created_at: at,
          updated_at: at,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('identities')
        .values({ user_id: user.id, provider: provider.id, issuer: claims.iss, subject: claims.sub, email, linked_at: at, linked_with: 'sign-up' })
        .execute();
      await recordActivity(trx, {
        causerId: user.id,
        description: 'registered',
        subject: { type: 'user', id: user.id },
        properties: { method: 'oidc', provider: provider.id, email_verified: true },
      });
      await storeCode(trx, user.id);
    });
  } catch (error) {
    // The same address (or the same identity) arrived between the check and the insert.
    if (isUniqueViolation(error)) throw taken();
    throw error;
  }
  return code;
}

/**
 * Links the identity to the account that started the linking, and mails the owner about it
 * (the alarm for a link made with a stolen password). Refused once the account was disabled,
 * or its password reset, after the linking began.
 */
async function linkIdentity(
  db: Kysely<Database>,
  config: Config,
  input: { userId: number | null; provider: OidcProviderConfig; claims: client.IDToken; startedAt: string },
): Promise<void> {
  const { userId, provider, claims } = input;
  if (userId === null) throw new OidcFailure('expired');
  const allowed = await linkingStillAllowed(db, userId, input.startedAt);
  if (allowed === 'disabled') throw new OidcFailure('account_disabled');
  if (allowed === 'reset') throw new OidcFailure('expired');
  const known = await findIdentity(db, claims.iss, claims.sub);
  if (known) {
    if (known.user_id === userId) return;
    throw new OidcFailure('linked_elsewhere');
  }
  // Only shown next to the identity: an email claim that breaks the rules is not kept.
  const claimed = claimEmail(claims);
  const email = 'email' in claimed ? claimed.email : null;
  try {
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('identities')
        .values({
          user_id: userId,
          provider: provider.id,
          issuer: claims.iss,
          subject: claims.sub,
          email: email ? normalizeEmail(email) : null,
          linked_at: timestamp(),
          linked_with: 'password',
        })
        .execute();
      await recordActivity(trx, {
        causerId: userId,
        description: 'identity linked',
        subject: { type: 'user', id: userId },
        properties: { provider: provider.id, issuer: claims.iss },
      });
      const owner = await trx.selectFrom('users').select(['email', 'firstname', 'locale']).where('id', '=', userId).executeTakeFirstOrThrow();
      await enqueueMail(trx, {
        to: owner.email,
        ...identityLinkedMail({
          firstname: owner.firstname,
          providerName: provider.name,
          account: (email ? normalizeEmail(email) : null) ?? claims.sub,
          link: `${config.appUrl}/password`,
          locale: mailLocale(owner),
        }),
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new OidcFailure('linked_elsewhere');
    throw error;
  }
}
