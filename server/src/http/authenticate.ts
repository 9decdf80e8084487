import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccessToken, User } from '../db/schema.js';
import { HttpError, unauthenticated } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The user of a valid bearer token, or null. Set before any route hook runs. */
    user: User | null;
    /** The token the request came with (session or personal), or null. */
    accessToken: AccessToken | null;
    /**
     * Whether the signed-in person must accept the acceptable use policy again (a newer version,
     * or their acceptance grew too old); null without a user or without a policy check.
     */
    mustAcceptPolicy: (() => Promise<boolean>) | null;
  }
}

const NOT_FOR_PEOPLE = new Set(['/livez', '/readyz', '/metrics']);

/** Turns a bearer token's text into its user and token record, or null when it is not valid. */
export type TokenResolver = (bearer: string) => Promise<{ user: User; token: AccessToken } | null>;

/**
 * Whether a person who accepted the policy once must accept it again now. What the policy in
 * force is belongs to the policy domain, which app.ts hands in.
 */
export type PolicyCheck = (user: User) => Promise<boolean>;

/**
 * Resolves `Authorization: Bearer ID|SECRET` on every request into `request.user`. An absent
 * or invalid token leaves it null; routes that need a user say so with `requireUser`, so a
 * stale token does not get in the way of public routes such as /login. What a valid token is
 * belongs to the tokens domain, which app.ts hands in as `resolveToken`.
 */
export function installAuthentication(app: FastifyInstance, resolveToken: TokenResolver, policyCheck?: PolicyCheck): void {
  app.decorateRequest('user', null);
  app.decorateRequest('accessToken', null);
  app.decorateRequest('mustAcceptPolicy', null);
  app.addHook('onRequest', async (request) => {
    // The probes and /metrics never act for a person (/metrics has a token of its own), and
    // must answer in their own shape while the database is down.
    if (NOT_FOR_PEOPLE.has(request.routeOptions.url ?? '')) return;
    const header = request.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match) return;
    const authenticated = await resolveToken(match[1]);
    if (authenticated) {
      request.user = authenticated.user;
      request.accessToken = authenticated.token;
      // Asked only by the onboarding gate, so that ungated routes read nothing more.
      if (policyCheck) request.mustAcceptPolicy = () => policyCheck(authenticated.user);
    }
  });
}

/** Route hook: 401 unless the request carries a valid token. */
export async function requireUser(request: FastifyRequest): Promise<void> {
  if (!request.user) throw unauthenticated();
}

/** The authenticated user in a handler behind `requireUser`. */
export function currentUser(request: FastifyRequest): User {
  if (!request.user) throw unauthenticated();
  return request.user;
}

export type OnboardingStep = 'verify-email' | 'accept-aup';

/** What the user still has to do before using the console, or null when nothing. */
export function pendingOnboardingStep(user: User): OnboardingStep | null {
  if (!user.email_verified_at) return 'verify-email';
  if (!user.aup_accepted_at) return 'accept-aup';
  return null;
}

const onboardingMessages: Record<OnboardingStep, string> = {
  'verify-email': 'Your email address is not verified.',
  'accept-aup': 'You must accept the acceptable use policy.',
};

/**
 * Route hook: 401 without a user, 403 (with `onboarding`) until the user is fully set up: email
 * verified and the policy in force accepted (a newer version or an acceptance grown too old
 * sends them back to that step).
 */
export async function requireOnboarded(request: FastifyRequest): Promise<void> {
  const user = currentUser(request);
  let step = pendingOnboardingStep(user);
  if (!step && request.mustAcceptPolicy && (await request.mustAcceptPolicy())) step = 'accept-aup';
  if (step) throw new HttpError(403, onboardingMessages[step], { body: { onboarding: step } });
}

export const FORBIDDEN = 'This action is unauthorized.';

/** Route hook (after the onboarding gate): 403 unless the user is a platform admin. */
export async function requireAdmin(request: FastifyRequest): Promise<void> {
  const user = currentUser(request);
  if (user.admin !== 1) throw new HttpError(403, FORBIDDEN);
}
