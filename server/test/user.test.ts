import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe('GET /user', () => {
  it('answers the contract shape of the current user', async () => {
    const { user, token } = await ctx.signedInUser({ firstname: 'Katherine', lastname: 'Johnson', admin: true });
    const response = await ctx.inject('GET', '/user', { token });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      id: user.id,
      firstname: 'Katherine',
      lastname: 'Johnson',
      name: 'Katherine Johnson',
      email: user.email,
      email_verified_at: user.email_verified_at,
      aup_accepted_at: user.aup_accepted_at,
      aup_version_id: null,
      aup_required: false,
      aup_renewal: null,
      admin: true,
      enabled: true,
      authority: null,
      locale: null,
      created_at: user.created_at,
      teams: [],
      tenants: [],
      workspaces: [],
      suspended_teams: [],
      requests: [],
    });
    expect(response.json().created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it.each([
    ['no Authorization header', undefined],
    ['a malformed token', 'garbage'],
    ['an unknown id', '999999|abcdefghijklmnopqrstuvwxyz0123456789ABCDEF'],
  ])('answers 401 with %s', async (_case, token) => {
    const response = await ctx.inject('GET', '/user', { token });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: 'Unauthenticated.' });
  });

  it('answers 401 for a real token id with a wrong secret', async () => {
    const { token } = await ctx.signedInUser();
    const [id] = token.split('|');
    expect((await ctx.inject('GET', '/user', { token: `${id}|${'A'.repeat(43)}` })).statusCode).toBe(401);
  });

  it('answers 401 for an Authorization header that is not a bearer token', async () => {
    const { token } = await ctx.signedInUser();
    const response = await ctx.inject('GET', '/user', { headers: { authorization: `Basic ${token}` } });
    expect(response.statusCode).toBe(401);
  });
});

describe('PATCH /user', () => {
  it('updates the names, trimmed, and records the change', async () => {
    const { user, token } = await ctx.signedInUser();
    const response = await ctx.inject('PATCH', '/user', { token, body: { firstname: ' Augusta Ada ', lastname: 'King' } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ firstname: 'Augusta Ada', lastname: 'King', name: 'Augusta Ada King', email: user.email });
    expect((await ctx.inject('GET', '/user', { token })).json().name).toBe('Augusta Ada King');

    const entry = await ctx.db
      .selectFrom('activity_log')
      .selectAll()
      .where('causer_id', '=', user.id)
      .where('description', '=', 'profile updated')
      .executeTakeFirst();
    expect(entry).toBeDefined();
  });

  it('ignores fields other than the names', async () => {
    const { user, token } = await ctx.signedInUser();
    const response = await ctx.inject('PATCH', '/user', {
      token,
      body: { firstname: 'A', lastname: 'B', email: 'hijack@example.org', admin: true },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ email: user.email, admin: false });
  });

  it.each([
    [{ firstname: '', lastname: 'King' }, { firstname: ['The firstname field is required.'] }],
    [{ lastname: 'King' }, { firstname: ['The firstname field is required.'] }],
    [{ firstname: 'Ada' }, { lastname: ['The lastname field is required.'] }],
    [{ firstname: 'Ada', lastname: 'y'.repeat(256) }, { lastname: ['The lastname field must not be greater than 255 characters.'] }],
    [{ firstname: { first: 'Ada' }, lastname: true }, { firstname: ['The firstname field must be a string.'], lastname: ['The lastname field must be a string.'] }],
  ])('refuses %j with 422', async (body, errors) => {
    const { token } = await ctx.signedInUser();
    const response = await ctx.inject('PATCH', '/user', { token, body });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual(errors);
  });

  it('answers 401 before looking at the body', async () => {
    const response = await ctx.inject('PATCH', '/user', { body: { firstname: '' } });
    expect(response.statusCode).toBe(401);
  });
});

describe('POST /aup/accept', () => {
  it('sets aup_accepted_at, keeps the first acceptance, and records it once', async () => {
    const { user, token } = await ctx.signedInUser({ verified: false });
    const first = await ctx.inject('POST', '/aup/accept', { token });
    expect(first.statusCode).toBe(200);
    const acceptedAt = first.json().aup_accepted_at;
    expect(Date.parse(acceptedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(first.json().id).toBe(user.id);

    const second = await ctx.inject('POST', '/aup/accept', { token });
    expect(second.json().aup_accepted_at).toBe(acceptedAt);

    const entries = await ctx.db
      .selectFrom('activity_log')
      .select('id')
      .where('causer_id', '=', user.id)
      .where('description', '=', 'policy accepted')
      .execute();
    expect(entries).toHaveLength(1);
  });

  it('answers 401 without a token', async () => {
    expect((await ctx.inject('POST', '/aup/accept')).statusCode).toBe(401);
  });
});
