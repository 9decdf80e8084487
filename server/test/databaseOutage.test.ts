import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../src/http/errors.js';
import { createTestContext, type TestContext } from './helpers.js';

// A PostgreSQL that is down (restarting, failing over) costs the requests that need it a 503
// with Retry-After, never a 500, and the process goes on (the pool's 'error' event is handled).
// Independent of TEST's DATABASE_URL: the "database" here is a loopback port nobody listens on.

describe('a database that is down', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext({ database: 'unreachable' });
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('answers 503 with Retry-After to a request that needs it', async () => {
    const answer = await ctx.app.inject({ method: 'GET', url: '/api/tokens', headers: { authorization: 'Bearer 1|not-checked-without-a-database' } });
    expect(answer.statusCode).toBe(503);
    expect(answer.headers['retry-after']).toBe('5');
    expect(answer.json()).toEqual({ message: 'The service is briefly unavailable. Try again in a few seconds.' });
  });

  it('answers 503 to a login, and still answers what needs no database', async () => {
    const login = await ctx.app.inject({ method: 'POST', url: '/login', payload: { email: 'ada@example.org', password: 'a-long-passphrase' } });
    expect(login.statusCode).toBe(503);
    const settings = await ctx.app.inject({ method: 'GET', url: '/api/settings' });
    expect(settings.statusCode).toBe(200);
  });

  it('is not ready (503 in the shape of the probe), with or without a token, and still reports its metrics', async () => {
    for (const headers of [{}, { authorization: 'Bearer 1|a-token-nobody-can-check-now' }]) {
      const ready = await ctx.app.inject({ method: 'GET', url: '/readyz', headers });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ status: 'unavailable', checks: { database: 'failed' } });
    }
    ctx.metrics.sources.mailOutbox = () => Promise.reject(new Error('Connection terminated unexpectedly'));
    ctx.metrics.sources.leader = () => false;
    const scrape = await ctx.app.inject({ method: 'GET', url: '/metrics' });
    expect(scrape.statusCode).toBe(200);
    expect(scrape.body).toContain('leader 0');
  });

  it('tells database outages from other errors', () => {
    expect(isDatabaseUnavailable(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('the database system is starting up'), { code: '57P03' }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('connection failure'), { code: '08006' }))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError('x is undefined'))).toBe(false);
    expect(isDatabaseUnavailable('ECONNREFUSED')).toBe(false);
  });
});
