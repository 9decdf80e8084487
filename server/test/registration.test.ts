import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMITS } from '../src/config/config.js';
import { createTestContext, DEFAULT_PASSWORD, linkIn, type TestContext, uniqueEmail } from './helpers.js';
import { createWorld, type World } from './teamFixtures.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe('POST /register', () => {
  it('creates the account, answers 201 with the user, and does not log in', async () => {
    const email = uniqueEmail('ada');
    const response = await ctx.register({ email });

    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body.message).toMatch(/verify your email/i);
    expect(body).not.toHaveProperty('token');
    expect(body.user).toMatchObject({
      firstname: 'Ada',
      lastname: 'Lovelace',
      name: 'Ada Lovelace',
      email,
      email_verified_at: null,
      aup_accepted_at: null,
      admin: false,
      enabled: true,
      authority: null,
      teams: [],
      workspaces: [],
      requests: [],
    });
    expect(body.user).not.toHaveProperty('password_hash');

    const stored = await ctx.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
    expect(stored.password_hash).toMatch(/^\$argon2id\$/);
    expect(stored.password_hash).not.toContain(DEFAULT_PASSWORD);
  });

  it('mails the verification link', async () => {
    const email = uniqueEmail('mail');
    await ctx.register({ email });
    const mail = await ctx.mailbox.waitFor(email, { subject: /verify/i });
    expect(mail.text).toContain(`${ctx.config.appUrl}/email/verify/`);
  });

  it('stores the email trimmed and lowercased, and refuses it again in any case', async () => {
    const email = uniqueEmail('Mixed.Case');
    const response = await ctx.register({ email: `  ${email.toUpperCase()}  ` });
    expect(response.statusCode).toBe(201);
    expect(response.json().user.email).toBe(email.toLowerCase());

    const again = await ctx.register({ email: email.toLowerCase() });
    expect(again.statusCode).toBe(422);
    expect(again.json()).toEqual({
      message: 'The email has already been taken.',
      errors: { email: ['The email has already been taken.'] },
    });
  });

  it('trims the names', async () => {
    const response = await ctx.register({ firstname: '  Ada ', lastname: ' Byron  ' });
    expect(response.json().user).toMatchObject({ firstname: 'Ada', lastname: 'Byron', name: 'Ada Byron' });
  });

  it('accepts unicode names and keeps them intact', async () => {
    const response = await ctx.register({ firstname: 'Zoë 🚀', lastname: 'Ñúñez-Østergård' });
    expect(response.statusCode).toBe(201);
    expect(response.json().user.name).toBe('Zoë 🚀 Ñúñez-Østergård');
  });

  it('names every missing field when the body is empty or absent', async () => {
    for (const body of [{}, undefined]) {
      const response = await ctx.inject('POST', '/register', { body });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        message: 'The firstname field is required.',
        errors: {
          firstname: ['The firstname field is required.'],
          lastname: ['The lastname field is required.'],
          email: ['The email field is required.'],
          password: ['The password field is required.'],
        },
      });
    }
  });

  it.each([
    ['firstname', { firstname: '   ' }, 'The firstname field is required.'],
    ['lastname', { lastname: null }, 'The lastname field is required.'],
    ['firstname', { firstname: 42 }, 'The firstname field must be a string.'],
    ['lastname', { lastname: 'x'.repeat(256) }, 'The lastname field must not be greater than 255 characters.'],
    ['firstname', { firstname: 'Ada\u0000' }, 'The firstname field must not contain line breaks or other control characters.'],
    ['email', { email: 'ada at example' }, 'Invalid email'],
    ['email', { email: 'ada@' }, 'Invalid email'],
    ['email', { email: ['ada@example.org'] }, 'The email field must be a string.'],
    ['email', { email: `${'a'.repeat(250)}@example.org` }, 'The email field must not be greater than 255 characters.'],
    ['password', { password: 'short', password_confirmation: 'short' }, 'The password field must be at least 8 characters.'],
    ['password', { password: 'x'.repeat(1025), password_confirmation: 'x'.repeat(1025) }, 'The password field must not be greater than 1024 characters.'],
    ['password', { password: 12345678 }, 'The password field must be a string.'],
  ])('refuses a bad %s: %j', async (field, fields, message) => {
    const response = await ctx.register(fields);
    expect(response.statusCode).toBe(422);
    const body = response.json();
    expect(body.errors[field]).toContain(message);
    expect(Object.keys(body.errors)).toEqual([field]);
    expect(body.message).toBe(message);
  });

  it.each([{ password_confirmation: 'something else' }, { password_confirmation: undefined }, { password_confirmation: 42 }])(
    "reports a mismatched confirmation under password (as Laravel does) and password_confirmation: %j",
    async (fields) => {
      const response = await ctx.register(fields);
      expect(response.statusCode).toBe(422);
      const body = response.json();
      expect(body.message).toBe('The password confirmation does not match.');
      expect(body.errors.password).toEqual(['The password confirmation does not match.']);
      expect(body.errors.password_confirmation).toContain('The password confirmation does not match.');
      expect(Object.keys(body.errors).sort()).toEqual(['password', 'password_confirmation']);
    },
  );

  it('reports a short password and a mismatched confirmation together', async () => {
    const response = await ctx.register({ password: 'short', password_confirmation: 'different' });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({
      password: ['The password field must be at least 8 characters.', 'The password confirmation does not match.'],
      password_confirmation: ['The password confirmation does not match.'],
    });
  });

  it('reports every field in one answer: the email taken and the mismatch next to the other fields', async () => {
    const email = uniqueEmail('taken');
    expect((await ctx.register({ email })).statusCode).toBe(201);

    const everything = await ctx.register({ firstname: '  ', lastname: 'x'.repeat(256), email: email.toUpperCase(), password: 'password1', password_confirmation: 'password2' });
    expect(everything.statusCode).toBe(422);
    const body = everything.json();
    expect(body.message).toBe('The firstname field is required.');
    expect(body.errors.firstname).toEqual(['The firstname field is required.']);
    expect(body.errors.lastname).toEqual(['The lastname field must not be greater than 255 characters.']);
    expect(body.errors.email).toEqual(['The email has already been taken.']);
    expect(body.errors.password).toHaveLength(2);
    expect(body.errors.password[0]).toMatch(/^The password is too easy to guess\./);
    expect(body.errors.password[1]).toBe('The password confirmation does not match.');
    expect(body.errors.password_confirmation).toEqual(['The password confirmation does not match.']);

    // The email taken with one other field wrong, and a malformed email is not looked up.
    const names = (await ctx.register({ email, lastname: '' })).json();
    expect(names.errors).toEqual({ lastname: ['The lastname field is required.'], email: ['The email has already been taken.'] });
    const malformed = (await ctx.register({ email: 'nope', firstname: '' })).json();
    expect(malformed.errors).toEqual({ firstname: ['The firstname field is required.'], email: ['Invalid email'] });
  });

  it('does not create anything on a validation error', async () => {
    const email = uniqueEmail('invalid');
    await ctx.register({ email, password: 'short' });
    const stored = await ctx.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
    expect(stored).toBeUndefined();
  });
});

describe('registration throttling', () => {
  let throttled: TestContext;
  beforeAll(async () => {
    throttled = await createTestContext({
      config: { rateLimits: { ...DEFAULT_RATE_LIMITS, register: { max: 2, windowSeconds: 3600 } } },
    });
  });
  afterAll(() => throttled?.close());

  it('answers 429 with Retry-After once the address has registered too often', async () => {
    expect((await throttled.register()).statusCode).toBe(201);
    expect((await throttled.register()).statusCode).toBe(201);
    const refused = await throttled.register();
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3500);
    // The wait in minutes, rounded up (the window is an hour).
    expect(refused.json().message).toMatch(/^Too many attempts\. Try again in (60|59) minutes\.$/);
    const french = await throttled.inject('POST', '/register', { body: throttled.registration(), headers: { 'accept-language': 'fr' } });
    expect(french.json().message).toMatch(/^Trop de tentatives\. Réessayez dans (60|59) minutes\.$/);
  });
});

describe('registering from an invitation', () => {
  const MAX = 10;
  let throttled: TestContext;
  let world: World;
  beforeAll(async () => {
    throttled = await createTestContext({
      config: { rateLimits: { ...DEFAULT_RATE_LIMITS, register: { max: MAX, windowSeconds: 3600 } } },
    });
    world = await createWorld(throttled);
  });
  afterAll(() => throttled?.close());

  /** Invites a fresh address and answers it with the mailed link's id and token. */
  async function invitedLink(): Promise<{ email: string; id: string; token: string }> {
    const email = uniqueEmail('student');
    const sent = await throttled.inject('POST', `/api/tenants/${world.team.id}/invitations`, { token: world.people.owner.token, body: { email, role: 'member' } });
    expect(sent.statusCode, sent.body).toBe(201);
    await throttled.idle();
    const [, , id, token] = linkIn(await throttled.mailbox.waitFor(email, { subject: /invites you/ }), '/invitations/').pathname.split('/');
    return { email, id, token };
  }

  it('lets the 11th person from one address register with a valid invitation, and refuses the one without', async () => {
    // The same address for everyone (a classroom behind one NAT): inject's default.
    for (let i = 0; i < MAX; i++) expect((await throttled.register()).statusCode).toBe(201);
    const refused = await throttled.register();
    expect(refused.statusCode).toBe(429);

    const { email, id, token } = await invitedLink();
    const invited = await throttled.register({ email, invitation: { id, token } });
    expect(invited.statusCode, invited.body).toBe(201);

    // The invitation is tied to its address: another address with the same link is held.
    const other = await throttled.register({ email: uniqueEmail('other'), invitation: { id, token } });
    expect(other.statusCode).toBe(429);
    // A made-up link is no permission either.
    const forged = await throttled.register({ email: uniqueEmail('forged'), invitation: { id, token: 'x'.repeat(43) } });
    expect(forged.statusCode).toBe(429);
  });

  it('holds a registration whose invitation is revoked', async () => {
    const { email, id, token } = await invitedLink();
    const revoked = await throttled.inject('DELETE', `/api/tenants/${world.team.id}/invitations/${id}`, { token: world.people.owner.token });
    expect(revoked.statusCode).toBe(204);
    // The limit is spent by the test before (same address, same window).
    expect((await throttled.register({ email, invitation: { id, token } })).statusCode).toBe(429);
  });
});
