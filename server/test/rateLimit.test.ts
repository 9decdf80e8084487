import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMITS } from '../src/config/config.js';
import { HttpError, tooManyAttempts } from '../src/http/errors.js';
import { translateMessage } from '../src/i18n/messages.js';
import { budgetSpent } from '../src/invitations/budget.js';
import { reserveEach, Throttle } from '../src/http/throttle.js';
import { createTestContext, createTestDatabase, type Inject, type TestContext, type TestDatabase, unique, uniqueEmail } from './helpers.js';

// The throttle counts in the database (SQLite file or PostgreSQL schema), so that several
// processes share the limits; these tests run it against the real one.

let workDir: string;
let database: TestDatabase;
beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'testbed-console-throttle-'));
  database = await createTestDatabase(workDir);
});
afterAll(async () => {
  await database?.drop();
  rmSync(workDir, { recursive: true, force: true });
});

const freshKey = () => unique('test:');

function throttleWithClock() {
  const clock = { now: Date.parse('2030-01-01T00:00:00.000Z') };
  return { clock, throttle: new Throttle(database.db, { now: () => new Date(clock.now) }) };
}

describe('the wait a limit names', () => {
  it('says it in minutes, rounded up; under a minute as such; in English and French', () => {
    const says = (seconds: number) => tooManyAttempts(seconds).message;
    expect(says(1)).toBe('Too many attempts. Try again in less than a minute.');
    expect(says(59)).toBe('Too many attempts. Try again in less than a minute.');
    expect(says(60)).toBe('Too many attempts. Try again in 1 minute.');
    expect(says(61)).toBe('Too many attempts. Try again in 2 minutes.');
    expect(says(2038)).toBe('Too many attempts. Try again in 34 minutes.');
    expect(tooManyAttempts(2038).headers).toEqual({ 'Retry-After': '2038' });
    expect(translateMessage(says(30), 'fr')).toBe('Trop de tentatives. Réessayez dans moins d’une minute.');
    expect(translateMessage(says(60), 'fr')).toBe('Trop de tentatives. Réessayez dans 1 minute.');
    expect(translateMessage(says(2038), 'fr')).toBe('Trop de tentatives. Réessayez dans 34 minutes.');
    const budget = { max: 4, windowSeconds: 86_400 };
    expect(budgetSpent('team', budget, 30).message).toBe('This team may send 4 invitations per 24 h and has reached that limit. Try again in less than a minute.');
    expect(translateMessage(budgetSpent('team', budget, 60).message, 'fr')).toBe(
      'Cette équipe peut envoyer 4 invitations par 24 h et a atteint cette limite. Réessayez dans 1 minute.',
    );
    expect(budgetSpent('admin', budget, 3599).message).toMatch(/ Try again in 60 minutes\.$/);
  });
});

describe('Throttle', () => {
  it('allows up to max reservations in a window, then says how long to wait', async () => {
    const { clock, throttle } = throttleWithClock();
    const key = freshKey();
    const limit = { max: 3, windowSeconds: 60 };
    for (let i = 1; i <= 3; i++) expect(await throttle.reserve(key, limit)).toMatchObject({ allowed: true, hits: i, retryAfterSeconds: 60 });
    clock.now += 45_500;
    expect(await throttle.reserve(key, limit)).toMatchObject({ allowed: false, hits: 4, retryAfterSeconds: 15 });
  });

  it('opens a new window when the old one has ended', async () => {
    const { clock, throttle } = throttleWithClock();
    const key = freshKey();
    const limit = { max: 2, windowSeconds: 60 };
    for (let i = 0; i < 5; i++) await throttle.reserve(key, limit);
    clock.now += 60_000;
    expect(await throttle.reserve(key, limit)).toMatchObject({ allowed: true, hits: 1, retryAfterSeconds: 60 });
  });

  it('counts concurrent reservations one by one: of 100 at once with a limit of 5, exactly 5 are allowed', async () => {
    const throttle = new Throttle(database.db);
    const key = freshKey();
    const results = await Promise.all(Array.from({ length: 100 }, () => throttle.reserve(key, { max: 5, windowSeconds: 60 })));
    expect(results.filter((result) => result.allowed)).toHaveLength(5);
    expect(results.map((result) => result.hits).sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
  });

  it('keeps keys apart; release gives one attempt back, clear forgets the key', async () => {
    const { throttle } = throttleWithClock();
    const [a, b] = [freshKey(), freshKey()];
    const limit = { max: 1, windowSeconds: 60 };
    const first = await throttle.reserve(a, limit);
    expect((await throttle.reserve(a, limit)).allowed).toBe(false);
    expect((await throttle.reserve(b, limit)).allowed).toBe(true);

    await throttle.clear(a);
    const again = await throttle.reserve(a, limit);
    expect(again).toMatchObject({ allowed: true, hits: 1 });
    await throttle.release(again.reservation);
    expect(await throttle.reserve(a, limit)).toMatchObject({ allowed: true, hits: 1 });
    expect(first.allowed).toBe(true);
  });

  it('stores a long key (a forwarded address can be anything) by its hash, and still tells it apart', async () => {
    const { throttle } = throttleWithClock();
    const long = `login-address:${'x'.repeat(10_000)}`;
    const limit = { max: 1, windowSeconds: 60 };
    const first = await throttle.reserve(long, limit);
    expect(first.allowed).toBe(true);
    expect(first.reservation.key).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect((await throttle.reserve(long, limit)).allowed).toBe(false);
    expect((await throttle.reserve(`${long}y`, limit)).allowed).toBe(true);
    await throttle.clear(long);
    expect((await throttle.reserve(long, limit)).allowed).toBe(true);
  });

  it('does not let a release from an ended window lower the count of the next one', async () => {
    const { clock, throttle } = throttleWithClock();
    const key = freshKey();
    const limit = { max: 1, windowSeconds: 60 };
    const old = await throttle.reserve(key, limit);
    clock.now += 61_000;
    await throttle.reserve(key, limit);
    await throttle.release(old.reservation);
    expect((await throttle.reserve(key, limit)).allowed).toBe(false);
  });

  it('deletes rows whose window has ended, at most once a minute', async () => {
    const { clock, throttle } = throttleWithClock();
    const ended = freshKey();
    const rowsOf = (key: string) => database.db.selectFrom('throttles').select('key').where('key', '=', key).execute();
    // The first reservation of this Throttle sweeps; the next sweep comes a minute later.
    await throttle.reserve(ended, { max: 1, windowSeconds: 10 });
    clock.now += 11_000;
    await throttle.reserve(freshKey(), { max: 1, windowSeconds: 600 });
    expect(await rowsOf(ended)).toHaveLength(1);
    clock.now += 60_000;
    await throttle.reserve(freshKey(), { max: 1, windowSeconds: 600 });
    expect(await rowsOf(ended)).toEqual([]);
  });

  it('reserveEach gives back what it reserved when a later key refuses, and answers 429 with its wait', async () => {
    const { throttle } = throttleWithClock();
    const [first, second] = [freshKey(), freshKey()];
    await throttle.reserve(second, { max: 1, windowSeconds: 30 });
    const refused = await reserveEach(throttle, [
      [first, { max: 5, windowSeconds: 60 }],
      [second, { max: 1, windowSeconds: 30 }],
    ]).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(HttpError);
    expect((refused as HttpError).status).toBe(429);
    expect((refused as HttpError).headers).toEqual({ 'Retry-After': '30' });
    // The first key's reservation was given back: its next one is the first of the window.
    expect((await throttle.reserve(first, { max: 5, windowSeconds: 60 })).hits).toBe(1);
  });
});

describe('limits shared by two processes on one database', () => {
  // Two apps on the same database stand for two server processes (replicas).
  let ctx: TestContext;
  let second: Inject;
  beforeAll(async () => {
    ctx = await createTestContext({
      config: {
        rateLimits: {
          ...DEFAULT_RATE_LIMITS,
          login: { max: 3, windowSeconds: 60 },
          passwordLink: { max: 4, windowSeconds: 3600 },
        },
      },
    });
    second = (await ctx.replica()).inject;
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('counts failed logins made on either', async () => {
    const { user } = await ctx.createUser();
    const body = { email: user.email, password: 'wrong password' };
    const apps = [ctx.inject, second];
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await apps[i % 2]('POST', '/login', { body })).statusCode);
    expect(statuses).toEqual([422, 422, 422, 429]);
  });

  it('counts @fastify/rate-limit routes on either, under concurrency too', async () => {
    const email = uniqueEmail('link');
    const apps = [ctx.inject, second];
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => apps[i % 2]('POST', '/password/link', { body: { email } })),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(4);
    expect(statuses.filter((status) => status === 429)).toHaveLength(16);
    const refused = answers.find((answer) => answer.statusCode === 429)!;
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3500);
    expect(refused.json().message).toMatch(/^Too many attempts\. Try again in (59|60) minutes\.$/);
    const rows = await ctx.db.selectFrom('throttles').select(['key', 'hits']).where('key', 'like', 'route:POST /password/link:%').execute();
    expect(rows).toEqual([{ key: `route:POST /password/link:${email}|127.0.0.1`, hits: 20 }]);
    await ctx.idle();
  });
});
