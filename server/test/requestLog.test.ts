import { Writable } from 'node:stream';
import pino from 'pino';
import pretty from 'pino-pretty';
import { afterEach, describe, expect, it } from 'vitest';
import { PRETTY_OPTIONS } from '../src/logging/logger.js';
import { createTestContext, type TestContext } from './helpers.js';

// The request log (server/src/http/requestLog.ts): one line per request at most, and in the
// production mode only errors and slow requests, so that a busy server does not spend a fifth of
// its time writing "incoming request" / "request completed" pairs.

interface Entry {
  level: number;
  msg: string;
  method?: string;
  path?: string;
  status?: number;
  ms?: number;
}

function capturingLogger() {
  const entries: Entry[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) entries.push(JSON.parse(line) as Entry);
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), entries };
}

const requestLines = (entries: Entry[]) => entries.filter((entry) => entry.method !== undefined);

let context: TestContext | undefined;
afterEach(async () => {
  await context?.close();
  context = undefined;
});

describe('request logging', () => {
  it('writes nothing for successful and refused requests in the errors mode', async () => {
    const { logger, entries } = capturingLogger();
    context = await createTestContext({ logger, config: { logRequests: 'errors', slowRequestMs: 60_000 } });
    expect((await context.inject('GET', '/api/settings')).statusCode).toBe(200);
    expect((await context.inject('GET', '/user')).statusCode).toBe(401);
    expect((await context.inject('GET', '/api/no-such-thing')).statusCode).toBe(404);
    expect(requestLines(entries)).toEqual([]);
    expect(entries.filter((entry) => /incoming request|request completed/.test(entry.msg))).toEqual([]);
  });

  it('logs a slow request as a warning in the errors mode', async () => {
    const { logger, entries } = capturingLogger();
    context = await createTestContext({ logger, config: { logRequests: 'errors', slowRequestMs: 0 } });
    await context.inject('GET', '/api/settings');
    const lines = requestLines(entries);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, method: 'GET', path: '/api/settings', status: 200 });
    expect(lines[0].msg).toMatch(/^GET \/api\/settings 200 [\d.]+ ms \(slow\)$/);
  });

  it('writes one line per request in the all mode, without the query string or secrets from the path', async () => {
    const { logger, entries } = capturingLogger();
    context = await createTestContext({ logger, config: { logRequests: 'all', slowRequestMs: 60_000 } });
    await context.inject('GET', '/api/settings?q=private-search');
    await context.inject('GET', '/api/email/verify/12/0123456789abcdef0123456789abcdef01234567?expires=1&signature=abc');
    const lines = requestLines(entries);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ level: 30, method: 'GET', path: '/api/settings', status: 200 });
    expect(lines[0].msg).toMatch(/^GET \/api\/settings 200 [\d.]+ ms$/);
    expect(lines[1].path).toBe('/api/email/verify/12/…');
    expect(JSON.stringify(entries)).not.toContain('private-search');
    expect(JSON.stringify(entries)).not.toContain('0123456789abcdef0123456789abcdef01234567');
  });

  it("does not log the console's own files in the all mode, unless they fail", async () => {
    const { logger, entries } = capturingLogger();
    context = await createTestContext({ logger, config: { logRequests: 'all', slowRequestMs: 60_000 } });
    expect((await context.app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } })).statusCode).toBe(200);
    expect((await context.app.inject({ method: 'GET', url: '/teams/lab', headers: { accept: 'text/html' } })).statusCode).toBe(200);
    expect((await context.inject('GET', '/assets/app.js')).statusCode).toBe(200);
    expect((await context.inject('GET', '/api/settings')).statusCode).toBe(200);
    expect((await context.inject('GET', '/assets/missing.js')).statusCode).toBe(404);
    expect(requestLines(entries).map((entry) => `${entry.path} ${entry.status}`)).toEqual(['/api/settings 200', '/assets/missing.js 404']);
  });
});

describe('the readable log (LOG_FORMAT=pretty)', () => {
  it('writes one line per request and per logged mail, and an error still with its stack', () => {
    let output = '';
    const destination = new Writable({
      write(chunk, _encoding, done) {
        output += String(chunk);
        done();
      },
    });
    const logger = pino({ level: 'info' }, pretty({ ...PRETTY_OPTIONS, colorize: false, destination }));
    logger.info({ reqId: 'req-1', method: 'GET', path: '/api/settings', status: 200, ms: 1.2 }, 'GET /api/settings 200 1.2 ms');
    logger.info({ mail: { to: 'ada@example.org', subject: 'Verify' } }, 'Mail written to standard output (MAIL_URL is not set)');
    expect(output.trimEnd().split('\n')).toHaveLength(2);
    expect(output).toContain('GET /api/settings 200 1.2 ms');
    output = '';
    logger.error({ err: new Error('boom') }, 'failed');
    expect(output.split('\n').length).toBeGreaterThan(2);
    expect(output).toContain('boom');
  });
});
