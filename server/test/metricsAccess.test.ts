import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/config.js';
import { createMetrics } from '../src/health/metrics.js';
import { metricsAccess, type MetricsServer, startMetricsServer } from '../src/health/metricsAccess.js';
import { createTestContext, type TestContext } from './helpers.js';

// GET /metrics tells route counts, the leader flag and queue depths: in production only the
// holder of METRICS_TOKEN reads it, and without a token it is 404 (the server still starts).
// Outside production it stays open unless a token is set. METRICS_PORT moves it to a port of
// its own, which no Ingress routes (deploy/).

const TOKEN = 'a-metrics-token-0123456789';

describe('metricsAccess', () => {
  it.each([
    [false, null, undefined, 'allowed'],
    [false, null, 'Bearer anything', 'allowed'],
    [false, TOKEN, undefined, 'unauthenticated'],
    [false, TOKEN, `Bearer ${TOKEN}`, 'allowed'],
    [true, null, undefined, 'hidden'],
    [true, null, 'Bearer anything', 'hidden'],
    [true, null, 'Bearer ', 'hidden'],
    [true, TOKEN, undefined, 'unauthenticated'],
    [true, TOKEN, `Bearer ${TOKEN}x`, 'unauthenticated'],
    [true, TOKEN, `bearer ${TOKEN}`, 'unauthenticated'],
    [true, TOKEN, TOKEN, 'unauthenticated'],
    [true, TOKEN, `Bearer ${TOKEN}`, 'allowed'],
  ] as const)('production %s, token %s, Authorization %j: %s', (production, metricsToken, authorization, expected) => {
    expect(metricsAccess({ production, metricsToken }, authorization)).toBe(expected);
  });

  it('production without METRICS_TOKEN still loads its configuration (the server starts); METRICS_PORT is a port', () => {
    const production = { NODE_ENV: 'production', APP_KEY: 'k'.repeat(32), APP_URL: 'https://console.example.org', MAIL_URL: 'smtp://mail:25', STORAGE_DIR: '/tmp' };
    const config = loadConfig(production, { envFile: null });
    expect(config).toMatchObject({ production: true, metricsToken: null, metricsPort: null });
    expect(loadConfig({ ...production, METRICS_PORT: '9100' }, { envFile: null }).metricsPort).toBe(9100);
    for (const bad of ['-1', '70000', 'prometheus']) expect(() => loadConfig({ ...production, METRICS_PORT: bad }, { envFile: null }), bad).toThrow(ConfigError);
  });
});

describe('GET /metrics on the main port', () => {
  const contexts: TestContext[] = [];
  const context = async (config: Partial<TestContext['config']>) => {
    const ctx = await createTestContext({ config });
    contexts.push(ctx);
    return ctx;
  };
  afterAll(async () => {
    for (const ctx of contexts) await ctx.close();
  });

  it('in production without METRICS_TOKEN: 404, with or without a bearer; the probes stay open', async () => {
    const ctx = await context({ production: true, metricsToken: null });
    for (const headers of [{}, { authorization: 'Bearer anything-at-all-0123456789' }, { accept: 'text/plain' }]) {
      const answer = await ctx.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toEqual({ message: 'Not found.' });
      expect(answer.body).not.toContain('leader');
    }
    expect((await ctx.app.inject({ method: 'GET', url: '/livez' })).statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });

  it('in production with METRICS_TOKEN: 401 without it or with another, 200 with it', async () => {
    const ctx = await context({ production: true, metricsToken: TOKEN });
    expect((await ctx.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    expect((await ctx.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer a-metrics-token-0123456780' } })).statusCode).toBe(401);
    const right = await ctx.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(right.statusCode).toBe(200);
    expect(right.body).toContain('# TYPE leader gauge');
  });

  it('outside production: open without a token, the token honoured when set', async () => {
    expect((await (await context({ production: false, metricsToken: null })).app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(200);
    const guarded = await context({ production: false, metricsToken: TOKEN });
    expect((await guarded.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    expect((await guarded.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).statusCode).toBe(200);
  });

  it('with METRICS_PORT set: 404 here, even with the token', async () => {
    const ctx = await context({ production: true, metricsToken: TOKEN, metricsPort: 0 });
    const answer = await ctx.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(answer.statusCode).toBe(404);
    expect(answer.json()).toEqual({ message: 'Not found.' });
  });
});

describe('the metrics port (METRICS_PORT)', () => {
  const metrics = createMetrics();
  metrics.sources.leader = () => true;
  const servers: MetricsServer[] = [];
  let url: string;
  beforeAll(async () => {
    const server = await startMetricsServer({ host: '127.0.0.1', port: 0, settings: { production: true, metricsToken: TOKEN }, registry: metrics.registry });
    servers.push(server);
    url = `http://127.0.0.1:${server.port}`;
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
  });

  it('serves /metrics to the holder of the token only, and nothing else', async () => {
    const right = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(right.status).toBe(200);
    expect(right.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(await right.text()).toMatch(/^leader 1$/m);
    const none = await fetch(`${url}/metrics`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect(await none.json()).toEqual({ message: 'Unauthenticated.' });
    for (const path of ['/', '/livez', '/api/settings', '/metrics/', '/Metrics']) {
      const other = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(other.status, path).toBe(404);
    }
    expect((await fetch(`${url}/metrics`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
  });

  it('in production without a token: 404 there too', async () => {
    const server = await startMetricsServer({ host: '127.0.0.1', port: 0, settings: { production: true, metricsToken: null }, registry: metrics.registry });
    servers.push(server);
    const answer = await fetch(`http://127.0.0.1:${server.port}/metrics`);
    expect(answer.status).toBe(404);
    expect(await answer.json()).toEqual({ message: 'Not found.' });
  });
});
