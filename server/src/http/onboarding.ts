import type { FastifyInstance, onRequestHookHandler, RouteOptions } from 'fastify';
import { requireOnboarded } from './authenticate.js';

/**
 * The /api routes a user who has not finished onboarding may still reach (docs/api-contract.md,
 * "Onboarding gate"). They do their own authentication where they need it.
 */
export const ONBOARDING_EXEMPT_ROUTES: ReadonlySet<string> = new Set([
  '/api/email/verify/:id/:hash',
  '/api/tokens',
  '/api/tokens/:name',
  '/api/settings',
  '/api/docs',
  // The policy in force: the policy step of onboarding shows it to those who must accept it.
  '/api/policy',
  // Invitation links (invitations/routes.ts): following one proves the address, so a person
  // registering through it accepts before verifying; the preview is public.
  '/api/invitations/:id/:token',
  '/api/invitations/:id/:token/accept',
]);

export function isGatedRoute(url: string): boolean {
  return url.startsWith('/api/') && !ONBOARDING_EXEMPT_ROUTES.has(url);
}

/**
 * Puts `requireOnboarded` in front of every /api route except the exempt ones, as each route
 * is registered. Gated is the default, so a new domain's routes are protected without having
 * to remember it. Must be installed before the routes are registered.
 */
export function installOnboardingGate(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!isGatedRoute(route.url)) return;
    const existing = route.onRequest ? [route.onRequest].flat() : [];
    route.onRequest = [requireOnboarded as onRequestHookHandler, ...existing];
  });
}
