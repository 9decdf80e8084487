import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMITS } from '../src/config/config.js';
import { createTestContext, type TestContext, uniqueEmail } from './helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const credentialsRefused = {
  message: 'These credentials do not match our records.',
  errors: { email: ['These credentials do not match our records.'] },
};

async function activityFor(description: string, email: string) {
  const entries = await ctx.db.selectFrom('activity_log').selectAll().where('description', '=', description).execute();
  return entries.filter((entry) => JSON.parse(entry.properties).email === email);
}

describe('POST /login', () => {
  it('answers a session token that authenticates GET /user', async () => {
    const { user, password } = await ctx.createUser();
    const response = await ctx.inject('POST', '/login', { body: { email: user.email, password } });
    expect(response.statusCode).toBe(200);
    const { token } = response.json();
    expect(token).toMatch(/^\d+\|[A-Za-z0-9_-]{40,}$/);

    const me = await ctx.inject('GET', '/user', { token });
    expect(me.statusCode).toBe(200);
    expect(me.json().email).toBe(user.email);

    const session = await ctx.db.selectFrom('access_tokens').selectAll().where('id', '=', Number(token.split('|')[0])).executeTakeFirstOrThrow();
    expect(session.kind).toBe('session');
    const lifetimeDays = (Date.parse(session.expires_at!) - Date.parse(session.created_at)) / 86_400_000;
    expect(Math.round(lifetimeDays)).toBe(30);
  });

  it('accepts the email in any case and with surrounding spaces', async () => {
    const { user, password } = await ctx.createUser();
    const response = await ctx.inject('POST', '/login', { body: { email: `  ${user.email.toUpperCase()} `, password } });
    expect(response.statusCode).toBe(200);
  });

  it('lets a user who has not verified the email log in (the console then shows onboarding)', async () => {
    const { user, password } = await ctx.createUser({ verified: false });
    expect((await ctx.inject('POST', '/login', { body: { email: user.email, password } })).statusCode).toBe(200);
  });

  it('refuses a wrong password with the contract message, and records a warning with the user as causer', async () => {
    const { user } = await ctx.createUser();
    const response = await ctx.inject('POST', '/login', { body: { email: user.email, password: 'not the password' } });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual(credentialsRefused);

    const [entry] = await activityFor('failed login', user.email);
    expect(entry.causer_id).toBe(user.id);
    const properties = JSON.parse(entry.properties);
    expect(properties).toMatchObject({ severity: 'warning', reason: 'wrong password', email: user.email });
    expect(entry.properties).not.toContain('not the password');
  });

  it('answers an unknown email exactly like a wrong password, with no causer in the log', async () => {
    const email = uniqueEmail('nobody');
    const response = await ctx.inject('POST', '/login', { body: { email, password: 'whatever-password' } });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual(credentialsRefused);
    const [entry] = await activityFor('failed login', email);
    expect(entry.causer_id).toBeNull();
    expect(JSON.parse(entry.properties).severity).toBe('warning');
  });

  it('refuses a disabled user who knows the password, and only such a user learns it is disabled', async () => {
    const { user, password } = await ctx.createUser({ enabled: false });
    const right = await ctx.inject('POST', '/login', { body: { email: user.email, password } });
    expect(right.statusCode).toBe(422);
    expect(right.json()).toEqual({ message: 'This account is disabled.', errors: { email: ['This account is disabled.'] } });

    const wrong = await ctx.inject('POST', '/login', { body: { email: user.email, password: 'wrong password' } });
    expect(wrong.json()).toEqual(credentialsRefused);
  });

  it('stops every token of a user at once when the user is disabled', async () => {
    const { user, token } = await ctx.signedInUser();
    const personal = await ctx.inject('POST', '/api/tokens', { token, body: { name: 'cli' } });
    const personalToken = personal.json().token.plainTextToken;
    expect((await ctx.inject('GET', '/user', { token: personalToken })).statusCode).toBe(200);

    await ctx.db.updateTable('users').set({ enabled: 0 }).where('id', '=', user.id).execute();
    expect((await ctx.inject('GET', '/user', { token })).statusCode).toBe(401);
    expect((await ctx.inject('GET', '/user', { token: personalToken })).statusCode).toBe(401);
  });

  it.each([
    [{}, { email: ['The email field is required.'], password: ['The password field is required.'] }],
    [{ email: 'not-an-email', password: 'x' }, { email: ['Invalid email'] }],
    [{ email: 'a@b', password: '' }, { password: ['The password field is required.'] }],
    [{ email: 'a@b', password: 123 }, { password: ['The password field must be a string.'] }],
    [{ email: 'a@b', password: 'x'.repeat(1025) }, { password: ['The password field must not be greater than 1024 characters.'] }],
  ])('validates %j', async (body, errors) => {
    const response = await ctx.inject('POST', '/login', { body });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual(errors);
  });

  it('records a successful login', async () => {
    const { user, password } = await ctx.createUser();
    await ctx.login(user.email, password);
    const entry = await ctx.db
      .selectFrom('activity_log')
      .selectAll()
      .where('causer_id', '=', user.id)
      .where('description', '=', 'logged in')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(entry.properties).severity).toBe('info');
  });
});

describe('POST /logout', () => {
  it('revokes the token it was called with, and only that one', async () => {
    const { user, password, token } = await ctx.signedInUser();
    const otherSession = await ctx.login(user.email, password);

    const response = await ctx.inject('POST', '/logout', { token });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect((await ctx.inject('GET', '/user', { token })).statusCode).toBe(401);
    expect((await ctx.inject('GET', '/user', { token: otherSession })).statusCode).toBe(200);
    expect((await ctx.inject('POST', '/logout', { token })).statusCode).toBe(401);
  });

  it('accepts an empty JSON body, as some clients send one', async () => {
    const { token } = await ctx.signedInUser();
    const response = await ctx.inject('POST', '/logout', { token, body: '' });
    expect(response.statusCode).toBe(204);
  });

  it('answers 401 without a token', async () => {
    const response = await ctx.inject('POST', '/logout');
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: 'Unauthenticated.' });
  });
});

describe('login throttling', () => {
  let throttled: TestContext;
  beforeAll(async () => {
    throttled = await createTestContext({
      config: { rateLimits: { ...DEFAULT_RATE_LIMITS, login: { max: 3, windowSeconds: 60 } } },
    });
  });
  afterAll(() => throttled?.close());

  const attempt = (email: string, password: string) => throttled.inject('POST', '/login', { body: { email, password } });

  it('answers 429 with Retry-After after too many failures for an email, even with the right password', async () => {
    const { user, password } = await throttled.createUser();
    for (let i = 0; i < 3; i++) expect((await attempt(user.email, 'wrong password')).statusCode).toBe(422);

    const refused = await attempt(user.email, password);
    expect(refused.statusCode).toBe(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.json()).toEqual({
      message: retryAfter < 60 ? 'Too many attempts. Try again in less than a minute.' : 'Too many attempts. Try again in 1 minute.',
    });

    // Another address is not affected.
    const other = await throttled.createUser();
    expect((await attempt(other.user.email, other.password)).statusCode).toBe(200);
  });

  it('counts failures only: a successful login clears them', async () => {
    const { user, password } = await throttled.createUser();
    for (let i = 0; i < 2; i++) await attempt(user.email, 'wrong password');
    expect((await attempt(user.email, password)).statusCode).toBe(200);
    for (let i = 0; i < 2; i++) expect((await attempt(user.email, 'wrong password')).statusCode).toBe(422);
    expect((await attempt(user.email, password)).statusCode).toBe(200);
  });
});

describe('login throttling under concurrent attempts', () => {
  // The limits are reserved before the (slow) password check; this is what holds when many
  // attempts arrive together. Each test uses addresses of its own: the ceiling is per address.
  let throttled: TestContext;
  beforeAll(async () => {
    throttled = await createTestContext({
      config: {
        rateLimits: {
          ...DEFAULT_RATE_LIMITS,
          login: { max: 5, windowSeconds: 60 },
          loginAddress: { max: 10, windowSeconds: 900 },
        },
      },
    });
  });
  afterAll(() => throttled?.close());

  const attemptFrom = (remoteAddress: string, email: string, password: string) =>
    throttled.app.inject({ method: 'POST', url: '/login', remoteAddress, payload: { email, password } });
  const count = (statuses: number[], status: number) => statuses.filter((candidate) => candidate === status).length;
  const failedLogins = async (ip: string) =>
    (await throttled.db.selectFrom('activity_log').select('properties').where('description', '=', 'failed login').execute()).filter(
      (entry) => JSON.parse(entry.properties).ip === ip,
    );

  it('checks at most the allowed number of 100 simultaneous wrong passwords for one account', async () => {
    const { user } = await throttled.createUser();
    const answers = await Promise.all(Array.from({ length: 100 }, () => attemptFrom('198.51.100.1', user.email, 'wrong password')));
    const statuses = answers.map((answer) => answer.statusCode);
    expect(count(statuses, 422)).toBe(5);
    expect(count(statuses, 429)).toBe(95);
    expect(await failedLogins('198.51.100.1')).toHaveLength(5);
    expect(Number(answers.find((answer) => answer.statusCode === 429)!.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('limits one address trying many accounts, simultaneously too', async () => {
    const users = await Promise.all(Array.from({ length: 40 }, () => throttled.createUser()));
    const answers = await Promise.all(users.map(({ user }) => attemptFrom('198.51.100.2', user.email, 'wrong password')));
    const statuses = answers.map((answer) => answer.statusCode);
    expect(count(statuses, 422)).toBe(10);
    expect(count(statuses, 429)).toBe(30);
    expect(await failedLogins('198.51.100.2')).toHaveLength(10);
    // Another address is not affected.
    expect((await attemptFrom('198.51.100.3', users[0].user.email, users[0].password)).statusCode).toBe(200);
  });

  it('does not count successful logins towards the address ceiling (many people behind one NAT)', async () => {
    const users = await Promise.all(Array.from({ length: 12 }, () => throttled.createUser()));
    for (const { user, password } of users) expect((await attemptFrom('198.51.100.4', user.email, password)).statusCode).toBe(200);
    const failures = [];
    for (const { user } of users.slice(0, 11)) failures.push((await attemptFrom('198.51.100.4', user.email, 'wrong password')).statusCode);
    expect(failures).toEqual([...Array(10).fill(422), 429]);
  });
});

describe('login with RATE_LIMITS=off', () => {
  it('checks every attempt and counts nothing', async () => {
    const { user } = await ctx.createUser();
    const answers = await Promise.all(Array.from({ length: 20 }, () => ctx.inject('POST', '/login', { body: { email: user.email, password: 'wrong password' } })));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(20).fill(422));
    expect(await ctx.db.selectFrom('throttles').selectAll().execute()).toEqual([]);
  });
});

describe('the client address behind a reverse proxy (TRUST_PROXY)', () => {
  // light-my-request's socket address is 127.0.0.1 unless told otherwise: the "proxy".
  const limits = { ...DEFAULT_RATE_LIMITS, loginAddress: { max: 2, windowSeconds: 900 } };
  const contexts: TestContext[] = [];
  afterAll(async () => {
    for (const context of contexts) await context.close();
  });
  async function contextTrusting(trustProxy: boolean | string[]) {
    const context = await createTestContext({ config: { rateLimits: limits, trustProxy } });
    contexts.push(context);
    const users = await Promise.all(Array.from({ length: 4 }, () => context.createUser()));
    const failFrom = async (forwardedFor: string, index: number) => {
      const answer = await context.inject('POST', '/login', {
        body: { email: users[index].user.email, password: 'wrong password' },
        headers: { 'x-forwarded-for': forwardedFor },
      });
      return answer.statusCode;
    };
    const loggedIps = async () =>
      (await context.db.selectFrom('activity_log').select('properties').where('description', '=', 'failed login').execute()).map(
        (entry) => JSON.parse(entry.properties).ip,
      );
    return { failFrom, loggedIps };
  }

  it('ignores X-Forwarded-For by default: clients that claim other addresses share the socket address', async () => {
    const { failFrom, loggedIps } = await contextTrusting(false);
    expect([await failFrom('203.0.113.1', 0), await failFrom('203.0.113.2', 1), await failFrom('203.0.113.3', 2)]).toEqual([422, 422, 429]);
    expect(await loggedIps()).toEqual(['127.0.0.1', '127.0.0.1']);
  });

  it('keys on the forwarded client address when the proxy is trusted', async () => {
    const { failFrom, loggedIps } = await contextTrusting(['127.0.0.1']);
    expect([await failFrom('203.0.113.1', 0), await failFrom('203.0.113.1', 1), await failFrom('203.0.113.1', 2)]).toEqual([422, 422, 429]);
    // Another client behind the same proxy is not locked out.
    expect(await failFrom('203.0.113.2', 3)).toBe(422);
    // With a chain, the nearest untrusted address is the client: what it put first is not believed.
    expect(await failFrom('203.0.113.9, 203.0.113.2', 0)).toBe(422);
    expect(await failFrom('203.0.113.2', 1)).toBe(429);
    expect(await loggedIps()).toEqual(['203.0.113.1', '203.0.113.1', '203.0.113.2', '203.0.113.2']);
  });

  it('ignores X-Forwarded-For from a peer that is not one of the trusted proxies', async () => {
    const { failFrom, loggedIps } = await contextTrusting(['10.0.0.1']);
    expect([await failFrom('203.0.113.1', 0), await failFrom('203.0.113.2', 1), await failFrom('203.0.113.3', 2)]).toEqual([422, 422, 429]);
    expect(await loggedIps()).toEqual(['127.0.0.1', '127.0.0.1']);
  });
});

describe('login with a forwarded address of any length (TRUST_PROXY=true)', () => {
  let trusting: TestContext;
  beforeAll(async () => {
    trusting = await createTestContext({
      config: { rateLimits: { ...DEFAULT_RATE_LIMITS, loginAddress: { max: 2, windowSeconds: 900 } }, trustProxy: true },
    });
  });
  afterAll(() => trusting?.close());

  it('throttles it like any other, and a success from it still is not counted (never a 500)', async () => {
    // Random, so that PostgreSQL cannot compress it under its index row limit.
    const forwardedFor = `${randomBytes(4000).toString('hex')}, 10.0.0.1`;
    const attempt = (email: string, password: string) =>
      trusting.inject('POST', '/login', { body: { email, password }, headers: { 'x-forwarded-for': forwardedFor } });
    const users = await Promise.all(Array.from({ length: 4 }, () => trusting.createUser()));
    for (const { user, password } of users) expect((await attempt(user.email, password)).statusCode).toBe(200);
    const statuses = [];
    for (const { user } of users.slice(0, 3)) statuses.push((await attempt(user.email, 'wrong password')).statusCode);
    expect(statuses).toEqual([422, 422, 429]);
  });
});
