import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalRedirect } from '../src/http/canonicalAddress.js';
import { createTestContext, type TestContext } from './helpers.js';

// One address: a page opened under another loopback name of APP_URL's machine goes to APP_URL,
// so the session, the sign-in state and mailed links share one origin.

const page = { method: 'GET', accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

describe('the redirect rule', () => {
  it('sends a page asked for at 127.0.0.1 to APP_URL at localhost, path and query kept', () => {
    expect(canonicalRedirect('http://localhost:8000', { ...page, host: '127.0.0.1:8000', url: '/teams/lab?tab=2' })).toBe('http://localhost:8000/teams/lab?tab=2');
    expect(canonicalRedirect('http://localhost:8000', { ...page, host: '[::1]:8000', url: '/' })).toBe('http://localhost:8000/');
    expect(canonicalRedirect('http://127.0.0.1:8000', { ...page, host: 'localhost:8000', url: '/login' })).toBe('http://127.0.0.1:8000/login');
  });

  it('leaves APP_URL itself, other ports, API clients, other methods and non-loopback addresses alone', () => {
    expect(canonicalRedirect('http://localhost:8000', { ...page, host: 'localhost:8000', url: '/' })).toBeNull();
    expect(canonicalRedirect('http://localhost:8000', { ...page, host: 'LOCALHOST:8000', url: '/' })).toBeNull();
    expect(canonicalRedirect('http://localhost:8000', { ...page, host: '127.0.0.1:5173', url: '/' })).toBeNull();
    expect(canonicalRedirect('http://localhost:8000', { method: 'GET', accept: 'application/json', host: '127.0.0.1:8000', url: '/api/settings' })).toBeNull();
    expect(canonicalRedirect('http://localhost:8000', { method: 'GET', accept: undefined, host: '127.0.0.1:8000', url: '/agent/install' })).toBeNull();
    expect(canonicalRedirect('http://localhost:8000', { ...page, method: 'POST', host: '127.0.0.1:8000', url: '/login' })).toBeNull();
    // Behind a proxy the Host may be anything: only loopback names of a loopback APP_URL move.
    expect(canonicalRedirect('https://testbed.example.org', { ...page, host: '127.0.0.1', url: '/' })).toBeNull();
    expect(canonicalRedirect('http://localhost:8000', { ...page, host: '10.0.0.5:8000', url: '/' })).toBeNull();
    expect(canonicalRedirect('http://localhost:8000', { ...page, host: 'not a host', url: '/' })).toBeNull();
    expect(canonicalRedirect('http://localhost:8000', { ...page, host: undefined, url: '/' })).toBeNull();
  });
});

describe('the server', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    // APP_URL on loopback (http://127.0.0.1:<port>), as a developer's machine has it.
    ctx = await createTestContext({ listen: 'appUrl' });
  });
  afterAll(() => ctx?.close());

  it('answers 308 to a browser at the other loopback name, and serves the API there as asked', async () => {
    const appUrl = new URL(ctx.config.appUrl);
    const other = appUrl.hostname === 'localhost' ? '127.0.0.1' : 'localhost';
    const host = `${other}${appUrl.port ? `:${appUrl.port}` : ''}`;
    const moved = await ctx.app.inject({ method: 'GET', url: '/teams?x=1', headers: { host, accept: page.accept } });
    expect(moved.statusCode).toBe(308);
    expect(moved.headers.location).toBe(`${ctx.config.appUrl}/teams?x=1`);
    const api = await ctx.app.inject({ method: 'GET', url: '/api/settings', headers: { host, accept: 'application/json' } });
    expect(api.statusCode).toBe(200);
  });
});
