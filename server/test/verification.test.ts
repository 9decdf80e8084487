import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verificationLink } from '../src/auth/verification.js';
import { DEFAULT_RATE_LIMITS } from '../src/config/config.js';
import { createTestContext, DEFAULT_PASSWORD, eventually, linkIn, type TestContext, TEST_APP_URL, uniqueEmail } from './helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const invalidLink = { message: 'This verification link is invalid or has expired.' };

/** Registers someone and answers the verification link from the mail they got. */
async function registerAndReadLink(email = uniqueEmail('verify')) {
  await ctx.register({ email, firstname: 'Ada <b>&</b>' });
  const mail = await ctx.mailbox.waitFor(email, { subject: /verify/i });
  return { email, mail, link: linkIn(mail, '/email/verify/') };
}

/** The API call the console page /email/verify/{id}/{hash} makes, query string unchanged. */
const apiPathOf = (link: URL) => `/api${link.pathname}${link.search}`;

describe('the verification mail', () => {
  it('arrives over SMTP with a text and an HTML part carrying the same signed link', async () => {
    const { mail, link } = await registerAndReadLink();
    expect(mail.from).toBe('console@testbed.test');
    expect(link.origin).toBe(TEST_APP_URL);
    expect(link.pathname).toMatch(/^\/email\/verify\/\d+\/[0-9a-f]{40}$/);
    expect(link.searchParams.get('signature')).toMatch(/^[0-9a-f]{64}$/);
    const expires = Number(link.searchParams.get('expires'));
    expect(expires * 1000 - Date.now()).toBeGreaterThan(59 * 60_000);
    expect(expires * 1000 - Date.now()).toBeLessThanOrEqual(60 * 60_000);

    expect(mail.html).toContain(link.toString().replaceAll('&', '&amp;'));
    // The first name is escaped in the HTML part.
    expect(mail.html).toContain('Ada &lt;b&gt;&amp;&lt;/b&gt;');
    expect(mail.html).not.toContain('<b>&</b>');
    expect(mail.text).toContain('Hello Ada <b>&</b>,');
  });
});

describe('GET /api/email/verify/{id}/{hash}', () => {
  it('verifies the address from the mailed link without a bearer token, and again idempotently', async () => {
    const { email, link } = await registerAndReadLink();
    const response = await ctx.inject('GET', apiPathOf(link));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Your email address is verified.', verified: true });

    const user = await ctx.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
    expect(user.email_verified_at).not.toBeNull();

    const again = await ctx.inject('GET', apiPathOf(link));
    expect(again.statusCode).toBe(200);
    const unchanged = await ctx.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(unchanged.email_verified_at).toBe(user.email_verified_at);

    const entries = await ctx.db
      .selectFrom('activity_log')
      .select('id')
      .where('causer_id', '=', user.id)
      .where('description', '=', 'email verified')
      .execute();
    expect(entries).toHaveLength(1);
  });

  it.each([
    ['a changed signature', (link: URL) => link.searchParams.set('signature', '0'.repeat(64))],
    ['a truncated signature', (link: URL) => link.searchParams.set('signature', link.searchParams.get('signature')!.slice(0, 20))],
    ['no signature', (link: URL) => link.searchParams.delete('signature')],
    ['a later expiry', (link: URL) => link.searchParams.set('expires', String(Number(link.searchParams.get('expires')) + 3600))],
    ['no expiry', (link: URL) => link.searchParams.delete('expires')],
    ['a repeated expiry', (link: URL) => link.searchParams.append('expires', '1')],
    ['another hash', (link: URL) => (link.pathname = link.pathname.replace(/[0-9a-f]{40}$/, 'f'.repeat(40)))],
    ['another id', (link: URL) => (link.pathname = link.pathname.replace(/\/(\d+)\//, (_m, id) => `/${Number(id) + 1}/`))],
    ['a non-numeric id', (link: URL) => (link.pathname = link.pathname.replace(/\/(\d+)\//, '/abc/'))],
  ])('refuses a link with %s (403) and leaves the address unverified', async (_case, tamper) => {
    const { email, link } = await registerAndReadLink();
    tamper(link);
    const response = await ctx.inject('GET', apiPathOf(link));
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual(invalidLink);
    const user = await ctx.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
    expect(user.email_verified_at).toBeNull();
  });

  it('refuses an expired link that is otherwise correctly signed', async () => {
    const { user } = await ctx.createUser({ verified: false });
    const expired = new URL(verificationLink(ctx.config, user, new Date(Date.now() - 1000)));
    const response = await ctx.inject('GET', apiPathOf(expired));
    expect(response.statusCode).toBe(403);

    const valid = new URL(verificationLink(ctx.config, user, new Date(Date.now() + 60_000)));
    expect((await ctx.inject('GET', apiPathOf(valid))).statusCode).toBe(200);
  });

  it('refuses a link signed with another key', async () => {
    const { user } = await ctx.createUser({ verified: false });
    const forged = new URL(verificationLink({ ...ctx.config, appKey: 'some-other-key-0123456789' }, user, new Date(Date.now() + 60_000)));
    expect((await ctx.inject('GET', apiPathOf(forged))).statusCode).toBe(403);
  });
});

describe('POST /email/verification', () => {
  it('mails a fresh link (202) to a user who is not verified yet', async () => {
    const { user, token } = await ctx.signedInUser({ verified: false });
    const response = await ctx.inject('POST', '/email/verification', { token });
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ message: 'A new verification link has been sent to your email address.' });

    const mail = await ctx.mailbox.waitFor(user.email, { subject: /verify/i });
    expect((await ctx.inject('GET', apiPathOf(linkIn(mail, '/email/verify/')))).statusCode).toBe(200);
  });

  it('leaves the first link working after a resend (links are signed, not stored)', async () => {
    const { email, link: first } = await registerAndReadLink();
    const token = await ctx.login(email, DEFAULT_PASSWORD);
    expect((await ctx.inject('POST', '/email/verification', { token })).statusCode).toBe(202);
    await ctx.idle();
    await eventually(() => expect(ctx.mailbox.messagesTo(email)).toHaveLength(2));
    // The person opens the mail that arrived first: it still verifies the address.
    expect((await ctx.inject('GET', apiPathOf(first))).statusCode).toBe(200);
  });

  it('answers 200 and sends nothing when the address is already verified', async () => {
    const { user, token } = await ctx.signedInUser();
    const response = await ctx.inject('POST', '/email/verification', { token });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Your email address is already verified.' });
    await ctx.idle();
    expect(ctx.mailbox.messagesTo(user.email)).toHaveLength(0);
  });

  it('answers 401 without a token', async () => {
    expect((await ctx.inject('POST', '/email/verification')).statusCode).toBe(401);
  });
});

describe('verification resend throttling', () => {
  let throttled: TestContext;
  beforeAll(async () => {
    throttled = await createTestContext({
      config: { rateLimits: { ...DEFAULT_RATE_LIMITS, verificationResend: { max: 2, windowSeconds: 3600 } } },
    });
  });
  afterAll(() => throttled?.close());

  it('answers 429 with Retry-After after too many resends by the same user', async () => {
    const first = await throttled.signedInUser({ verified: false });
    const second = await throttled.signedInUser({ verified: false });
    for (let i = 0; i < 2; i++) expect((await throttled.inject('POST', '/email/verification', { token: first.token })).statusCode).toBe(202);
    const refused = await throttled.inject('POST', '/email/verification', { token: first.token });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);

    // The limit is per user.
    expect((await throttled.inject('POST', '/email/verification', { token: second.token })).statusCode).toBe(202);
  });
});
