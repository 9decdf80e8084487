import type { FastifyInstance } from 'fastify';

// One address for the console (APP_URL). Mailed links, the realtime connection and the
// institutional sign-in's redirect all use APP_URL; a browser that opened the console under
// another name of the same machine (127.0.0.1 for localhost, say) would hold its session and
// its sign-in state under that other origin, and lose them on the first mailed link or sign-in
// callback. So a page asked for under another loopback name of APP_URL's machine is redirected
// to APP_URL. Only loopback names: behind a proxy the Host header may be anything, and only
// pages (GET or HEAD wanting HTML): API clients, node agents and scripts keep whatever address
// they were given.

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

const isLoopback = (hostname: string) => LOOPBACK_NAMES.has(hostname.toLowerCase()) || /^127(\.\d{1,3}){3}$/.test(hostname);

/** Where a page asked for at `host` + `url` goes instead, or null when it is already at APP_URL's address (or not ours to move). */
export function canonicalRedirect(appUrl: string, request: { method: string; host: string | undefined; url: string; accept: string | undefined }): string | null {
  if (request.method !== 'GET' && request.method !== 'HEAD') return null;
  if (!request.accept?.includes('text/html')) return null;
  if (!request.host) return null;
  const canonical = new URL(appUrl);
  if (!isLoopback(canonical.hostname)) return null;
  let asked: URL;
  try {
    // Read with APP_URL's scheme, so that a Host without a port gets the same default port.
    asked = new URL(`${canonical.protocol}//${request.host}`);
  } catch {
    return null;
  }
  if (!isLoopback(asked.hostname) || asked.hostname === canonical.hostname) return null;
  // The same port only: another port on the machine is another service (a dev server, say).
  if (asked.port !== canonical.port) return null;
  return `${appUrl}${request.url.startsWith('/') ? request.url : `/${request.url}`}`;
}

export function installCanonicalAddress(app: FastifyInstance, appUrl: string): void {
  app.addHook('onRequest', (request, reply, done) => {
    const target = canonicalRedirect(appUrl, { method: request.method, host: request.headers.host, url: request.url, accept: request.headers.accept });
    if (target) {
      void reply.redirect(target, 308);
      return;
    }
    done();
  });
}
