import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type SignedInUser, type TestContext } from './helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const createToken = (owner: SignedInUser, body: Record<string, unknown>) => ctx.inject('POST', '/api/tokens', { token: owner.token, body });
const listTokens = async (owner: SignedInUser) => (await ctx.inject('GET', '/api/tokens', { token: owner.token })).json();

describe('POST /api/tokens', () => {
  it('creates a personal token and shows its plain text once', async () => {
    const owner = await ctx.signedInUser();
    const response = await createToken(owner, { name: 'laptop-cli' });
    expect(response.statusCode).toBe(201);
    const { token } = response.json();
    expect(token.plainTextToken).toMatch(new RegExp(`^${token.accessToken.id}\\|[A-Za-z0-9_-]{40,}$`));
    expect(token.accessToken).toEqual({
      id: expect.any(Number),
      name: 'laptop-cli',
      abilities: ['*'],
      created_at: expect.stringMatching(/Z$/),
      expires_at: null,
      last_used_at: null,
    });

    // The secret is stored only as a hash, and the token authenticates GET /user.
    const stored = await ctx.db.selectFrom('access_tokens').selectAll().where('id', '=', token.accessToken.id).executeTakeFirstOrThrow();
    expect(stored.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(token.plainTextToken).not.toContain(stored.token_hash);
    const me = await ctx.inject('GET', '/user', { token: token.plainTextToken });
    expect(me.statusCode).toBe(200);
    expect(me.json().id).toBe(owner.user.id);
  });

  it('sets an expiry when expires_in_days is given', async () => {
    const owner = await ctx.signedInUser();
    const { token } = (await createToken(owner, { name: 'week', expires_in_days: 7 })).json();
    const days = (Date.parse(token.accessToken.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
  });

  it('refuses a name already in use with 422, and replaces the old token with overwrite', async () => {
    const owner = await ctx.signedInUser();
    const first = (await createToken(owner, { name: 'workspace-config' })).json().token;

    const duplicate = await createToken(owner, { name: ' workspace-config ' });
    expect(duplicate.statusCode).toBe(422);
    expect(duplicate.json()).toEqual({
      message: 'You already have a token with this name.',
      errors: { name: ['You already have a token with this name.'] },
    });

    const replaced = await createToken(owner, { name: 'workspace-config', overwrite: true });
    expect(replaced.statusCode).toBe(201);
    const second = replaced.json().token;
    expect(second.accessToken.id).not.toBe(first.accessToken.id);
    expect((await ctx.inject('GET', '/user', { token: first.plainTextToken })).statusCode).toBe(401);
    expect((await ctx.inject('GET', '/user', { token: second.plainTextToken })).statusCode).toBe(200);
    expect((await listTokens(owner)).map((token: { name: string }) => token.name)).toEqual(['workspace-config']);
  });

  it('lets two users use the same name', async () => {
    const [alice, bob] = [await ctx.signedInUser(), await ctx.signedInUser()];
    expect((await createToken(alice, { name: 'shared' })).statusCode).toBe(201);
    expect((await createToken(bob, { name: 'shared' })).statusCode).toBe(201);
  });

  it.each([
    [{}, { name: ['The name field is required.'] }],
    [{ name: '  ' }, { name: ['The name field is required.'] }],
    [{ name: 'n'.repeat(256) }, { name: ['The name field must not be greater than 255 characters.'] }],
    [{ name: 'x', overwrite: 'yes' }, { overwrite: ['The overwrite field must be true or false.'] }],
    [{ name: 'x', expires_in_days: 0 }, { expires_in_days: ['The expires_in_days field must be between 1 and 365.'] }],
    [{ name: 'x', expires_in_days: 366 }, { expires_in_days: ['The expires_in_days field must be between 1 and 365.'] }],
    [{ name: 'x', expires_in_days: 1.5 }, { expires_in_days: ['The expires_in_days field must be a whole number.'] }],
    [{ name: 'x', expires_in_days: '7' }, { expires_in_days: ['The expires_in_days field must be a number.'] }],
  ])('refuses %j with 422', async (body, errors) => {
    const owner = await ctx.signedInUser();
    const response = await createToken(owner, body);
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual(errors);
  });

  it('records the creation without the secret', async () => {
    const owner = await ctx.signedInUser();
    const { token } = (await createToken(owner, { name: 'audited' })).json();
    const entry = await ctx.db
      .selectFrom('activity_log')
      .selectAll()
      .where('causer_id', '=', owner.user.id)
      .where('description', '=', 'token created')
      .executeTakeFirstOrThrow();
    expect(entry.subject_type).toBe('access_token');
    expect(entry.subject_id).toBe(token.accessToken.id);
    expect(entry.properties).not.toContain(token.plainTextToken.split('|')[1]);
  });
});

describe('GET /api/tokens', () => {
  it('lists personal tokens only, never a secret or a hash, with last use', async () => {
    const owner = await ctx.signedInUser();
    const { token } = (await createToken(owner, { name: 'used' })).json();
    await createToken(owner, { name: 'unused' });
    await ctx.inject('GET', '/user', { token: token.plainTextToken });

    const response = await ctx.inject('GET', '/api/tokens', { token: owner.token });
    expect(response.statusCode).toBe(200);
    const tokens = response.json();
    expect(tokens.map((entry: { name: string }) => entry.name)).toEqual(['used', 'unused']);
    expect(tokens[0].last_used_at).not.toBeNull();
    expect(tokens[1].last_used_at).toBeNull();
    for (const entry of tokens) expect(Object.keys(entry).sort()).toEqual(['abilities', 'created_at', 'expires_at', 'id', 'last_used_at', 'name']);
    expect(response.body).not.toContain(token.plainTextToken.split('|')[1]);
    expect(response.body).not.toContain('token_hash');
  });

  it("does not show other users' tokens", async () => {
    const [alice, bob] = [await ctx.signedInUser(), await ctx.signedInUser()];
    await createToken(alice, { name: 'alice-only' });
    expect(await listTokens(bob)).toEqual([]);
  });

  it('answers 401 without a token', async () => {
    expect((await ctx.inject('GET', '/api/tokens')).statusCode).toBe(401);
  });
});

describe('DELETE /api/tokens/{name}', () => {
  it('deletes the token (204); it stops working at once; a second delete is 404', async () => {
    const owner = await ctx.signedInUser();
    const { token } = (await createToken(owner, { name: 'short lived ✓' })).json();
    const path = `/api/tokens/${encodeURIComponent('short lived ✓')}`;

    const response = await ctx.inject('DELETE', path, { token: owner.token });
    expect(response.statusCode).toBe(204);
    expect((await ctx.inject('GET', '/user', { token: token.plainTextToken })).statusCode).toBe(401);
    expect(await listTokens(owner)).toEqual([]);

    const again = await ctx.inject('DELETE', path, { token: owner.token });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ message: 'Not found.' });

    const entry = await ctx.db
      .selectFrom('activity_log')
      .select('description')
      .where('causer_id', '=', owner.user.id)
      .where('description', '=', 'token deleted')
      .executeTakeFirst();
    expect(entry).toBeDefined();
  });

  it("cannot delete another user's token", async () => {
    const [alice, bob] = [await ctx.signedInUser(), await ctx.signedInUser()];
    const { token } = (await createToken(alice, { name: 'mine' })).json();
    expect((await ctx.inject('DELETE', '/api/tokens/mine', { token: bob.token })).statusCode).toBe(404);
    expect((await ctx.inject('GET', '/user', { token: token.plainTextToken })).statusCode).toBe(200);
  });

  it('does not delete login sessions by name', async () => {
    const owner = await ctx.signedInUser();
    expect((await ctx.inject('DELETE', '/api/tokens/login', { token: owner.token })).statusCode).toBe(404);
    expect((await ctx.inject('GET', '/user', { token: owner.token })).statusCode).toBe(200);
  });

  it('answers 404 for a name longer than any token name', async () => {
    const owner = await ctx.signedInUser();
    expect((await ctx.inject('DELETE', `/api/tokens/${'n'.repeat(300)}`, { token: owner.token })).statusCode).toBe(404);
  });

  it('answers 401 without a token', async () => {
    expect((await ctx.inject('DELETE', '/api/tokens/anything')).statusCode).toBe(401);
  });
});

describe('token expiry', () => {
  it('answers 401 for an expired token', async () => {
    const owner = await ctx.signedInUser();
    const { token } = (await createToken(owner, { name: 'expiring', expires_in_days: 1 })).json();
    await ctx.db
      .updateTable('access_tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', token.accessToken.id)
      .execute();
    expect((await ctx.inject('GET', '/user', { token: token.plainTextToken })).statusCode).toBe(401);
  });

  it('answers 401 for an expired login session', async () => {
    const owner = await ctx.signedInUser();
    await ctx.db
      .updateTable('access_tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', Number(owner.token.split('|')[0]))
      .execute();
    expect((await ctx.inject('GET', '/user', { token: owner.token })).statusCode).toBe(401);
  });
});
