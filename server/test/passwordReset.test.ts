import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMITS } from '../src/config/config.js';
import { createTestContext, linkIn, type TestContext, TEST_APP_URL, uniqueEmail } from './helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const LINK_SENT = { message: 'If an account exists for this address, we have emailed a password reset link.' };
const INVALID_LINK = { message: 'This password reset link is invalid or has expired.' };
const NEW_PASSWORD = 'a brand new passphrase';
const RESET_DONE = 'Your password has been updated. Every session and personal access token of the account has been revoked.';

async function requestLink(email: string) {
  const response = await ctx.inject('POST', '/password/link', { body: { email } });
  expect(response.statusCode).toBe(200);
  expect(response.json()).toEqual(LINK_SENT);
  const mail = await ctx.mailbox.waitFor(email, { subject: /reset/i });
  return { mail, link: linkIn(mail, '/password/reset/') };
}

/** The API call the console page /password/reset/{id}/{signature} makes. */
const reset = (link: URL, password: string, confirmation = password) =>
  ctx.inject('POST', link.pathname, { body: { password, password_confirmation: confirmation } });

const loginStatus = async (email: string, password: string) =>
  (await ctx.inject('POST', '/login', { body: { email, password } })).statusCode;

describe('POST /password/link', () => {
  it('mails a single-use link with a text and an HTML part; the link is not in the answer', async () => {
    const { user } = await ctx.createUser();
    const response = await ctx.inject('POST', '/password/link', { body: { email: user.email } });
    expect(response.body).not.toContain('/password/reset/');

    const mail = await ctx.mailbox.waitFor(user.email, { subject: /reset/i });
    const link = linkIn(mail, '/password/reset/');
    expect(link.origin).toBe(TEST_APP_URL);
    expect(link.pathname).toMatch(new RegExp(`^/password/reset/${user.id}/[A-Za-z0-9_-]{40,}$`));
    expect(mail.html).toContain(link.toString());

    // Only a hash of the token is stored.
    const stored = await ctx.db.selectFrom('password_resets').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(stored.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(link.pathname).not.toContain(stored.token_hash);
  });

  it('answers the same for an unknown address and mails nothing', async () => {
    const email = uniqueEmail('unknown');
    const response = await ctx.inject('POST', '/password/link', { body: { email } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(LINK_SENT);
    await ctx.idle();
    expect(ctx.mailbox.messagesTo(email)).toHaveLength(0);
  });

  it('finds the account whatever the case of the address', async () => {
    const { user } = await ctx.createUser();
    await ctx.inject('POST', '/password/link', { body: { email: ` ${user.email.toUpperCase()}` } });
    await ctx.mailbox.waitFor(user.email, { subject: /reset/i });
  });

  it('refuses a malformed address with 422', async () => {
    const response = await ctx.inject('POST', '/password/link', { body: { email: 'nobody' } });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ message: 'Invalid email', errors: { email: ['Invalid email'] } });
  });
});

describe('POST /password/reset/{id}/{signature}', () => {
  it('sets the new password once, revokes every session and personal token, mails the owner, and records it', async () => {
    const { user, password, token } = await ctx.signedInUser();
    const otherSession = await ctx.login(user.email, password);
    const personal = (await ctx.inject('POST', '/api/tokens', { token, body: { name: 'ci' } })).json().token.plainTextToken;
    const personal2 = (await ctx.inject('POST', '/api/tokens', { token, body: { name: 'backup', expires_in_days: 30 } })).json().token.plainTextToken;
    const bystander = await ctx.signedInUser();
    const bystanderToken = (await ctx.inject('POST', '/api/tokens', { token: bystander.token, body: { name: 'ci' } })).json().token.plainTextToken;
    const { link } = await requestLink(user.email);

    const response = await reset(link, NEW_PASSWORD);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: RESET_DONE, unlinked_identities: [] });

    expect(await loginStatus(user.email, password)).toBe(422);
    expect(await loginStatus(user.email, NEW_PASSWORD)).toBe(200);
    // A reset is the way back after a compromise: whatever the old password opened is closed.
    for (const old of [token, otherSession, personal, personal2]) {
      expect((await ctx.inject('GET', '/user', { token: old })).statusCode).toBe(401);
      expect((await ctx.inject('GET', '/api/tokens', { token: old })).statusCode).toBe(401);
    }
    // Other people's tokens are untouched.
    expect((await ctx.inject('GET', '/user', { token: bystander.token })).statusCode).toBe(200);
    expect((await ctx.inject('GET', '/user', { token: bystanderToken })).statusCode).toBe(200);

    // The owner hears of it by mail (over SMTP), text and HTML saying the same.
    const mail = await ctx.mailbox.waitFor(user.email, { subject: /password was changed/i });
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain('every login session and every personal access token of your account was revoked (2 personal access tokens)');
      expect(part).toContain('If you did not reset your password');
    }
    expect(mail.text).toContain(TEST_APP_URL);

    const second = await reset(link, 'yet another passphrase');
    expect(second.statusCode).toBe(403);
    expect(second.json()).toEqual(INVALID_LINK);
    expect(await loginStatus(user.email, NEW_PASSWORD)).toBe(200);

    const entries = await ctx.db
      .selectFrom('activity_log')
      .select(['description', 'subject_type', 'subject_id', 'properties'])
      .where('causer_id', '=', user.id)
      .where('description', 'in', ['password reset link requested', 'password reset', 'sessions and access tokens revoked'])
      .orderBy('id')
      .execute();
    expect(entries.map((entry) => ({ ...entry, properties: JSON.parse(entry.properties) }))).toEqual([
      { description: 'password reset link requested', subject_type: 'user', subject_id: user.id, properties: { severity: 'info' } },
      { description: 'password reset', subject_type: 'user', subject_id: user.id, properties: { severity: 'info' } },
      {
        description: 'sessions and access tokens revoked',
        subject_type: 'user',
        subject_id: user.id,
        properties: { reason: 'password reset', sessions: 2, personal_tokens: 2, severity: 'warning' },
      },
    ]);
  });

  it('refuses a weak password with zxcvbn’s feedback and leaves the link usable', async () => {
    const { user, password } = await ctx.createUser({ firstname: 'Wilhelmina', lastname: 'Zwanenburg' });
    const { link } = await requestLink(user.email);
    for (const weak of ['password', '12345678']) {
      const response = await reset(link, weak);
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        message: 'The password is too easy to guess. This is a heavily used password. Add more words that are less common.',
        errors: { password: ['The password is too easy to guess. This is a heavily used password. Add more words that are less common.'] },
      });
    }
    // The person's own names and email score low for them (but not for others: see passwordStrength.test.ts).
    for (const personal of ['wilhelminazwanenburg', user.email]) {
      const response = await reset(link, personal);
      expect(response.statusCode).toBe(422);
      expect(response.json().errors.password[0]).toContain('There should not be any personal or page related data.');
    }
    expect(await loginStatus(user.email, password)).toBe(200);
    expect((await reset(link, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('says nothing of the password’s strength through a link that does not work', async () => {
    const response = await ctx.inject('POST', `/password/reset/1/${'x'.repeat(43)}`, { body: { password: 'password', password_confirmation: 'password' } });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual(INVALID_LINK);
  });

  it('refuses an expired link with 403', async () => {
    const { user, password } = await ctx.createUser();
    const { link } = await requestLink(user.email);
    await ctx.db
      .updateTable('password_resets')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('user_id', '=', user.id)
      .execute();
    const response = await reset(link, NEW_PASSWORD);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual(INVALID_LINK);
    expect(await loginStatus(user.email, password)).toBe(200);
  });

  it('makes an older link useless once a newer one is requested', async () => {
    const { user } = await ctx.createUser();
    const older = await requestLink(user.email);
    const newer = await requestLink(user.email);
    expect((await reset(older.link, NEW_PASSWORD)).statusCode).toBe(403);
    expect((await reset(newer.link, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('refuses a mismatched confirmation with 422 and leaves the link usable', async () => {
    const { user } = await ctx.createUser();
    const { link } = await requestLink(user.email);
    const mismatch = await reset(link, NEW_PASSWORD, 'something else entirely');
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json()).toEqual({
      message: 'The password confirmation does not match.',
      errors: { password: ['The password confirmation does not match.'] },
    });
    const short = await reset(link, 'short');
    expect(short.json().errors).toEqual({ password: ['The password field must be at least 8 characters.'] });
    expect((await reset(link, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it.each([
    ['a made-up token', (link: URL) => link.pathname.replace(/[^/]+$/, 'x'.repeat(43))],
    ['another user id', (link: URL) => link.pathname.replace(/\/(\d+)\//, (_m, id) => `/${Number(id) + 1000}/`)],
    ['a non-numeric id', (link: URL) => link.pathname.replace(/\/(\d+)\//, '/abc/')],
    ['a token with odd characters', (link: URL) => link.pathname.replace(/[^/]+$/, '%E2%9C%93%20%27')],
  ])('refuses %s with 403', async (_case, tamper) => {
    const { user } = await ctx.createUser();
    const { link } = await requestLink(user.email);
    const response = await ctx.inject('POST', tamper(link), { body: { password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD } });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual(INVALID_LINK);
  });
});

describe('password link throttling', () => {
  let throttled: TestContext;
  beforeAll(async () => {
    throttled = await createTestContext({
      config: { rateLimits: { ...DEFAULT_RATE_LIMITS, passwordLink: { max: 2, windowSeconds: 3600 } } },
    });
  });
  afterAll(() => throttled?.close());

  it('answers 429 with Retry-After after too many requests for the same address', async () => {
    const email = uniqueEmail('throttled');
    const ask = (address: string) => throttled.inject('POST', '/password/link', { body: { email: address } });
    expect((await ask(email)).statusCode).toBe(200);
    expect((await ask(email.toUpperCase())).statusCode).toBe(200);
    const refused = await ask(email);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await ask(uniqueEmail('other'))).statusCode).toBe(200);
  });
});
