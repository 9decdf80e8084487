import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_DISABLED } from '../src/users/users.js';
import { INVALID_RESET_LINK } from '../src/auth/passwordReset.js';
import { verifyPassword } from '../src/users/passwords.js';
import { linkIn, type SignedInUser } from './helpers.js';
import { accountOf, type OidcWorld, startOidcWorld } from './oidcFlows.js';

// Disabling an account ends what it had started: a password reset link mailed before the
// disable no longer sets a password, a linking in progress no longer links, a sign-in (at the
// provider, or back with its one-time code) no longer signs in. Through the admin routes, with
// the real OpenID provider and real SMTP; SQLite and PostgreSQL.

let world: OidcWorld;
let admin: SignedInUser;
beforeAll(async () => {
  world = await startOidcWorld();
  admin = await world.ctx.signedInUser({ admin: true });
});
afterAll(() => world?.close());

const NEW_PASSWORD = 'a brand new passphrase after all';

async function disable(userId: number, how: 'one' | 'bulk' = 'one') {
  const { ctx } = world;
  const response =
    how === 'one'
      ? await ctx.inject('PATCH', `/api/admin/users/${userId}`, { token: admin.token, body: { enabled: false } })
      : await ctx.inject('POST', '/api/admin/users/bulk', { token: admin.token, body: { ids: [userId], action: 'disable' } });
  expect(response.statusCode, response.body).toBe(200);
}

async function mailedResetLink(email: string): Promise<URL> {
  const { ctx } = world;
  expect((await ctx.inject('POST', '/password/link', { body: { email } })).statusCode).toBe(200);
  return linkIn(await ctx.mailbox.waitFor(email, { subject: /reset/i }), '/password/reset/');
}

const reset = (link: URL) => world.ctx.inject('POST', link.pathname, { body: { password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD } });

const passwordHashOf = async (userId: number) =>
  (await world.ctx.db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirstOrThrow()).password_hash;

describe('password reset links', () => {
  it.each(['one', 'bulk'] as const)('a link mailed before the disable (%s) sets nothing afterwards', async (how) => {
    const { ctx } = world;
    const { user, password } = await ctx.createUser();
    const link = await mailedResetLink(user.email);
    await disable(user.id, how);
    expect(await ctx.db.selectFrom('password_resets').select('id').where('user_id', '=', user.id).where('used_at', 'is', null).execute()).toEqual([]);

    const response = await reset(link);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ message: INVALID_RESET_LINK });
    expect(await verifyPassword(await passwordHashOf(user.id), password)).toBe(true);
    expect(await verifyPassword(await passwordHashOf(user.id), NEW_PASSWORD)).toBe(false);
  });

  it('a link of a disabled account that escaped the disable is refused in plain words', async () => {
    const { ctx } = world;
    const { user, password } = await ctx.createUser();
    const link = await mailedResetLink(user.email);
    // Disabled without the admin routes (as an operator would in the database): the link survives.
    await ctx.db.updateTable('users').set({ enabled: 0 }).where('id', '=', user.id).execute();
    const response = await reset(link);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ message: ACCOUNT_DISABLED });
    const french = await ctx.inject('POST', link.pathname, {
      body: { password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
      headers: { 'accept-language': 'fr' },
    });
    expect(french.json().message).toBe('Ce compte est désactivé.');
    expect(await verifyPassword(await passwordHashOf(user.id), password)).toBe(true);
  });
});

describe('institutional linking and sign-in', () => {
  it('a linking started before the disable does not link', async () => {
    const { ctx } = world;
    const person = await ctx.signedInUser();
    const institutional = world.newAccount();
    const linking = await world.startLink(person.token, person.password);
    await disable(person.user.id);
    expect(await ctx.db.selectFrom('oidc_states').select('id').where('user_id', '=', person.user.id).execute()).toEqual([]);
    expect((await world.finish(linking)).get('error')).toBe('expired');
    expect(await ctx.db.selectFrom('identities').select('id').where('subject', '=', institutional.id).execute()).toEqual([]);
  });

  it('a linking whose account was disabled by other means is refused at its end', async () => {
    const { ctx } = world;
    const person = await ctx.signedInUser();
    const institutional = world.newAccount();
    const linking = await world.startLink(person.token, person.password);
    // The state row survives (disabled in the database): the callback itself checks the account.
    await ctx.db.updateTable('users').set({ enabled: 0 }).where('id', '=', person.user.id).execute();
    const result = await world.finish(linking);
    expect(result.get('error')).toBe('account_disabled');
    expect(result.get('intent')).toBe('link');
    expect(await ctx.db.selectFrom('identities').select('id').where('subject', '=', institutional.id).execute()).toEqual([]);
  });

  it('a sign-in at the provider when the account is disabled does not sign in', async () => {
    const { ctx } = world;
    world.newAccount();
    const accountId = await accountOf(ctx, await world.signIn());
    const signingIn = await world.startSignIn();
    await disable(accountId);
    const result = await world.finish(signingIn);
    expect(result.get('error')).toBe('account_disabled');
    expect(result.get('code')).toBeNull();
  });

  it('a sign-in code obtained before the disable is void', async () => {
    const { ctx } = world;
    world.newAccount();
    const accountId = await accountOf(ctx, await world.signIn());
    const signingIn = await world.startSignIn();
    const code = (await world.finish(signingIn)).get('code');
    expect(code).toBeTruthy();
    await disable(accountId);
    expect(await ctx.db.selectFrom('oidc_codes').select('id').where('user_id', '=', accountId).where('used_at', 'is', null).execute()).toEqual([]);
    // In the browser that started it, so that only the disable can be why it is refused.
    const exchanged = await ctx.inject('POST', '/auth/oidc/exchange', { body: { code }, headers: { cookie: signingIn.cookie } });
    expect(exchanged.statusCode).toBe(403);
  });
});
