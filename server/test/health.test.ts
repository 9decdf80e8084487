import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helpers.js';

// GET /livez, /readyz and /metrics (docs/deploy.md): what an orchestrator and Prometheus see.


describe('health and metrics', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ config: { metricsToken: null } });
  });
  afterAll(() => ctx.close());

  it('answers /livez, and /readyz with the database checked', async () => {
    const live = await ctx.app.inject({ method: 'GET', url: '/livez' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'ok' });
    const ready = await ctx.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    // No cluster configured (CLUSTER=none): only the database is checked.
    expect(ready.json()).toEqual({ status: 'ready', checks: { database: 'ok' } });
  });

  it('serves Prometheus metrics with request durations by route pattern', async () => {
    await ctx.app.inject({ method: 'GET', url: '/api/tenants/12345' });
    await ctx.app.inject({ method: 'GET', url: '/livez' });
    const answer = await ctx.app.inject({ method: 'GET', url: '/metrics' });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(answer.body).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/livez",status_code="200"\} [1-9]/);
    // The pattern, never the id asked for: labels stay bounded.
    expect(answer.body).toMatch(/route="\/api\/tenants\/:team",status_code="401"/);
    expect(answer.body).not.toContain('12345');
    for (const name of ['realtime_connections', 'realtime_subscriptions', 'reconciler_queue', 'reconciler_errors', 'mail_outbox_depth', 'leader']) {
      expect(answer.body).toContain(`# TYPE ${name} gauge`);
    }
  });

  it('keeps /metrics for the holder of METRICS_TOKEN when one is set', async () => {
    const guarded = await createTestContext({ config: { metricsToken: 'a-metrics-token-0123456789' } });
    try {
      expect((await guarded.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
      const wrong = await guarded.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer a-metrics-token-0123456780' } });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json()).toEqual({ message: 'Unauthenticated.' });
      const right = await guarded.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer a-metrics-token-0123456789' } });
      expect(right.statusCode).toBe(200);
      expect(right.body).toContain('http_request_duration_seconds');
      // The probes stay open: the kubelet has no token.
      expect((await guarded.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    } finally {
      await guarded.close();
    }
  });

  describe('with a cluster', () => {
    let withCluster: TestContext;

    beforeAll(async () => {
      withCluster = await createTestContext({ config: { metricsToken: null }, cluster: true });
    });
    afterAll(async () => {
      await withCluster?.close();
    });

    it('is ready while the cluster answers, and not ready (503) when it stops', async () => {
      const ready = await withCluster.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', cluster: 'ok' } });
      await withCluster.cluster.stop();
      const down = await withCluster.app.inject({ method: 'GET', url: '/readyz' });
      expect(down.statusCode).toBe(503);
      expect(down.json()).toEqual({ status: 'unavailable', checks: { database: 'ok', cluster: 'failed' } });
      // Still alive: a cluster outage is no reason to restart the console.
      expect((await withCluster.app.inject({ method: 'GET', url: '/livez' })).statusCode).toBe(200);
    });
  });
});
