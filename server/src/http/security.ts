import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Security headers on every answer. The CSP allows no inline script; inline styles are
 * allowed because MUI (emotion) injects its styles at run time; images only from the console
 * (avatars are initials), or also from the avatar service when AVATAR_URL names one;
 * the realtime client connects over ws:/wss:.
 */
function helmetOptions(avatarOrigin: string | null): HelmetOptions {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', ...(avatarOrigin ? [avatarOrigin] : [])],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", 'ws:', 'wss:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
      },
    },
    frameguard: { action: 'deny' },
    // Browsers only honour HSTS over HTTPS (behind a TLS proxy). Not for subdomains: other
    // hosts of the institution's domain may well be plain HTTP.
    hsts: { maxAge: 15_552_000, includeSubDomains: false },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  };
}

/**
 * The headers helmet sets with these options. They do not depend on the request (no CSP
 * nonces), so they are worked out once, by running helmet's own middleware against a
 * recording response, instead of by helmet on every request (parsing the CSP directives each
 * time was a few per cent of a simple request's CPU).
 */
export function securityHeaders(avatarUrl: string | null = null): Record<string, string> {
  const avatarOrigin = avatarUrl ? new URL(avatarUrl.replace(/\{\w+\}/g, 'x')).origin : null;
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string) {
      headers[name.toLowerCase()] = value;
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  helmet(helmetOptions(avatarOrigin))({} as never, recorder as never, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure;
  return headers;
}

export async function installSecurityHeaders(app: FastifyInstance, avatarUrl: string | null): Promise<void> {
  const headers = securityHeaders(avatarUrl);
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
