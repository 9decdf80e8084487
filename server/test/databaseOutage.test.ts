import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config/config.js';
import { createDatabase } from '../src/db/database.js';
import { createMetrics } from '../src/health/metrics.js';
import { isDatabaseUnavailable } from '../src/http/errors.js';
import { createMailer } from '../src/mail/mailer.js';
import { freePort } from './processes.js';

// A PostgreSQL that is down (restarting, failing over) costs the requests that need it a 503
// with Retry-After, never a 500, and the process goes on (the pool's 'error' event is handled).
// Independent of TEST's DATABASE_URL: the "database" here is a loopback port nobody listens on.


describe('a database that is down', () => {
  let workDir: string;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let db: ReturnType<typeof createDatabase>;
  const metrics = createMetrics();
  const poolErrors: Error[] = [];

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), 'testbed-outage-'));
    const url = `postgres://postgres@127.0.0.1:${await freePort()}/postgres`;
    const config = loadConfig({ STORAGE_DIR: workDir, DATABASE_URL: url, RATE_LIMITS: 'off', STATIC_DIR: join(workDir, 'none') }, { envFile: null });
    db = createDatabase(url, { onPoolError: (error) => poolErrors.push(error) });
    const logger = pino({ level: 'silent' });
    app = await buildApp({ config, db, mailer: createMailer(config, logger), logger, metrics });
  });
  afterAll(async () => {
    await app.close();
    await db.destroy();
    rmSync(workDir, { recursive: true, force: true });
  });

  it('answers 503 with Retry-After to a request that needs it', async () => {
    const answer = await app.inject({ method: 'GET', url: '/api/tokens', headers: { authorization: 'Bearer 1|not-checked-without-a-database' } });
    expect(answer.statusCode).toBe(503);
    expect(answer.headers['retry-after']).toBe('5');
    expect(answer.json()).toEqual({ message: 'The service is briefly unavailable. Try again in a few seconds.' });
  });

  it('answers 503 to a login, and still answers what needs no database', async () => {
    const login = await app.inject({ method: 'POST', url: '/login', payload: { email: 'ada@example.org', password: 'a-long-passphrase' } });
    expect(login.statusCode).toBe(503);
    const settings = await app.inject({ method: 'GET', url: '/api/settings' });
    expect(settings.statusCode).toBe(200);
  });

  it('is not ready (503 in the shape of the probe), with or without a token, and still reports its metrics', async () => {
    for (const headers of [{}, { authorization: 'Bearer 1|a-token-nobody-can-check-now' }]) {
      const ready = await app.inject({ method: 'GET', url: '/readyz', headers });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ status: 'unavailable', checks: { database: 'failed' } });
    }
    metrics.sources.mailOutbox = () => Promise.reject(new Error('Connection terminated unexpectedly'));
    metrics.sources.leader = () => false;
    const scrape = await app.inject({ method: 'GET', url: '/metrics' });
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
