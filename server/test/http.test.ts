import { Writable } from 'node:stream';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe('the console (static files and SPA fallback)', () => {
  it('serves index.html at / with the security headers', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toContain('<div id="root">');

    const csp = String(response.headers['content-security-policy']);
    const directives = Object.fromEntries(
      csp.split(';').map((directive) => {
        const [name, ...values] = directive.trim().split(/\s+/);
        return [name, values.join(' ')];
      }),
    );
    expect(directives['script-src']).toBe("'self'");
    expect(directives['style-src']).toBe("'self' 'unsafe-inline'");
    // No third party by default: avatars are initials (AVATAR_URL adds its service's origin).
    expect(directives['img-src']).toBe("'self' data:");
    expect(directives['connect-src']).toBe("'self' ws: wss:");
    expect(directives['frame-ancestors']).toBe("'none'");
    expect(directives['base-uri']).toBe("'self'");
    expect(directives['form-action']).toBe("'self'");
    expect(csp).not.toContain('unsafe-eval');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['strict-transport-security']).toBe('max-age=15552000');
    expect(response.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(response.headers['x-dns-prefetch-control']).toBe('off');
  });

  it('sends the same security headers on API answers, errors included', async () => {
    const home = await ctx.app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
    for (const [method, url] of [['GET', '/api/settings'], ['GET', '/user'], ['POST', '/login'], ['GET', '/api/nope']] as const) {
      const response = await ctx.app.inject({ method, url, headers: { accept: 'application/json' } });
      for (const name of ['content-security-policy', 'x-content-type-options', 'referrer-policy', 'x-frame-options', 'strict-transport-security', 'cross-origin-opener-policy']) {
        expect(response.headers[name], `${method} ${url} ${name}`).toBe(home.headers[name]);
      }
      expect(response.headers['x-powered-by']).toBeUndefined();
    }
  });

  it.each(['/registration', '/email/verify/1/abc?expires=1&signature=x', '/password/reset/1/x', '/profile', '/tokens', '/anything/at/all', '/admin/nodes/rpi.lab'])(
    'answers index.html for the console route %s',
    async (url) => {
      const response = await ctx.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toContain('<div id="root">');
      expect(response.headers['x-frame-options']).toBe('DENY');
    },
  );

  it('serves built assets, and a missing asset is a 404 rather than the console page', async () => {
    const asset = await ctx.app.inject({ method: 'GET', url: '/assets/app.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-type']).toMatch(/javascript/);
    expect(asset.headers['cache-control']).toContain('immutable');

    const missing = await ctx.app.inject({ method: 'GET', url: '/assets/missing.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).not.toContain('<div id="root">');
  });

  it('says the console is not built when STATIC_DIR has no index.html', async () => {
    const unbuilt = await createTestContext({ config: { staticDir: '/nonexistent/dist' } });
    try {
      const response = await unbuilt.app.inject({ method: 'GET', url: '/registration' });
      expect(response.statusCode).toBe(503);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toContain('npm run build');
      // The API still works.
      expect((await unbuilt.inject('GET', '/api/settings')).statusCode).toBe(200);
    } finally {
      await unbuilt.close();
    }
  });
});

describe('over a real socket', () => {
  it('listens on a random port and answers HTTP clients', async () => {
    const server = await createTestContext();
    try {
      const address = await server.app.listen({ host: '127.0.0.1', port: 0 });
      const settings = await fetch(`${address}/api/settings`);
      expect(settings.status).toBe(200);
      expect(((await settings.json()) as { appName: string }).appName).toBe('Testbed Console');

      const page = await fetch(`${address}/email/verify/1/abc`, { headers: { accept: 'text/html' } });
      expect(page.status).toBe(200);
      expect(page.headers.get('x-frame-options')).toBe('DENY');
      expect(await page.text()).toContain('<div id="root">');
    } finally {
      await server.close();
    }
  });
});

describe('unmatched API requests', () => {
  it.each([
    ['GET', '/api/unknown'],
    ['GET', '/api'],
    ['POST', '/api/unknown'],
    ['POST', '/nowhere'],
    ['DELETE', '/user'],
  ] as const)('%s %s answers a JSON 404', async (method, url) => {
    const response = await ctx.inject(method, url);
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual({ message: 'Not found.' });
  });
});

describe('malformed requests are 4xx, never 500', () => {
  it('answers 400 with a plain message for malformed JSON', async () => {
    const response = await ctx.inject('POST', '/login', { body: '{"email": "a@b", ' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'The request body is not valid JSON.' });
  });

  it('answers 400 with a plain message for a malformed address', async () => {
    for (const url of ['/%', '/api/tokens/%E0%A4%A']) {
      const response = await ctx.inject('GET', url);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message: 'The request address is malformed.' });
    }
  });

  it('answers 422 for a JSON body that is not an object', async () => {
    for (const body of ['[1,2]', '"text"', '42']) {
      const response = await ctx.inject('POST', '/register', { body });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({ message: 'The request body must be a JSON object.', errors: {} });
    }
  });

  it('answers 422 per field for a JSON null body', async () => {
    const response = await ctx.inject('POST', '/login', { body: 'null' });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors)).toEqual(['email', 'password']);
  });

  it('answers 415 for a body that is not JSON', async () => {
    const response = await ctx.inject('POST', '/login', { body: 'email=a@b', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(response.statusCode).toBe(415);
    expect(response.json().message).toMatch(/JSON/);
  });

  it('answers 413 for a body over 1 MiB', async () => {
    const response = await ctx.inject('POST', '/register', { body: { firstname: 'x'.repeat(1024 * 1024 + 10) } });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ message: 'The request body is too large.' });
  });

  it('ignores prototype pollution attempts in JSON', async () => {
    const response = await ctx.inject('POST', '/login', { body: '{"email":"a@b","password":"x","__proto__":{"admin":true}}' });
    expect(response.statusCode).toBe(422);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });
});

describe('unexpected server faults', () => {
  it('answer 500 "Server error." without internals, and are logged', async () => {
    const lines: string[] = [];
    const logger = pino(
      { level: 'error' },
      new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    );
    const broken = await createTestContext({ logger });
    try {
      const admin = await broken.signedInUser({ admin: true });
      // A database fault in the middle of a request: the activity log table is gone.
      await sql`drop table activity_log`.execute(broken.db);
      const response = await broken.register();
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ message: 'Server error.' });
      expect(response.body).not.toMatch(/activity_log|at .*\.ts|stack/i);
      expect(lines.join('')).toContain('activity_log');

      // Also when the route had chosen another type: a CSV export failing before its first row.
      const csv = await broken.inject('GET', '/api/admin/activity.csv', { token: admin.token });
      expect(csv.statusCode).toBe(500);
      expect(csv.headers['content-type']).toMatch(/^application\/json/);
      expect(csv.headers['content-disposition']).toBeUndefined();
      expect(csv.json()).toEqual({ message: 'Server error.' });
    } finally {
      await broken.close();
    }
  });
});
