import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../src/db/migrations/index.js';
import { INVALID_CODE } from '../src/oidc/oidc.js';
import { linkingStillAllowed, unlinkedByPasswordReset } from '../src/oidc/identityRights.js';
import { createTestDatabase, linkIn, TEST_APP_URL } from './helpers.js';
import { accountOf, type OidcWorld, PROVIDER_NAME, startOidcWorld } from './oidcFlows.js';

// A password reset ends what a stolen password could have added: the institutional identities
// linked with it (the thief's own provider account), linkings in progress and sign-in codes
// not yet exchanged. The identity an account was made with stays. Every link is mailed to the
// owner. Real OpenID provider, real SMTP; SQLite and PostgreSQL.

let world: OidcWorld;
beforeAll(async () => {
  world = await startOidcWorld();
});
afterAll(() => world?.close());

const NEW_PASSWORD = 'a brand new passphrase for the owner';

async function resetThroughMail(email: string, password = NEW_PASSWORD) {
  const { ctx } = world;
  expect((await ctx.inject('POST', '/password/link', { body: { email } })).statusCode).toBe(200);
  const link = linkIn(await ctx.mailbox.waitFor(email, { subject: /reset|réinitialisez/i }), '/password/reset/');
  const response = await ctx.inject('POST', link.pathname, { body: { password, password_confirmation: password } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

describe('an identity linked with a stolen password', () => {
  it('is mailed to the owner, and unlinked by the reset, which names it in the answer and the mail', async () => {
    const { ctx } = world;
    const owner = await ctx.signedInUser({ firstname: 'Ada' });
    // The thief logs in with the stolen password and links their own institutional account.
    const stolen = await ctx.login(owner.user.email, owner.password);
    const thief = world.newAccount();
    const linked = await world.finish(await world.startLink(stolen, owner.password));
    expect(linked.get('linked')).toBe('test');

    // The owner hears of the link at once.
    const alarm = await ctx.mailbox.waitFor(owner.user.email, { subject: /identity was linked/ });
    expect(alarm.subject).toBe('An identity was linked to your Testbed Console account');
    for (const part of [alarm.text, alarm.html]) {
      expect(part).toContain(`The ${PROVIDER_NAME} identity ${thief.email} was linked to your Testbed Console account`);
      expect(part).toContain('If this wasn’t you, someone knows your password: reset it here.');
    }
    expect(linkIn(alarm, '/password').href).toBe(`${TEST_APP_URL}/password`);

    // Until the reset, the thief's provider account is a way into the owner's account.
    expect(await accountOf(ctx, await world.signIn())).toBe(owner.user.id);

    const answer = await resetThroughMail(owner.user.email);
    expect(answer.unlinked_identities).toEqual([{ provider: 'test', provider_name: PROVIDER_NAME, email: thief.email }]);
    const changed = await ctx.mailbox.waitFor(owner.user.email, { subject: /password was changed/ });
    for (const part of [changed.text, changed.html]) {
      expect(part).toContain(`The institutional identities linked to your account with a password were unlinked as well: ${PROVIDER_NAME} (${thief.email}).`);
    }

    // After it, the thief's sign-in no longer leads to the owner's account (its email being
    // free, the sign-in makes the thief an account of their own).
    expect(await accountOf(ctx, await world.signIn())).not.toBe(owner.user.id);
    const ownerAgain = await ctx.login(owner.user.email, NEW_PASSWORD);
    expect((await ctx.inject('GET', '/api/identities', { token: ownerAgain })).json()).toEqual([]);

    const entry = await ctx.db
      .selectFrom('activity_log')
      .select('properties')
      .where('causer_id', '=', owner.user.id)
      .where('description', '=', 'identities unlinked')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(entry.properties)).toMatchObject({
      reason: 'password reset',
      identities: [{ provider: 'test', email: thief.email, subject: thief.id }],
      severity: 'warning',
    });
  });

  it('keeps the identity the account was made with, and unlinks the ones linked with a password later', async () => {
    const { ctx } = world;
    const own = world.newAccount();
    const ownToken = await world.signIn();
    const accountId = await accountOf(ctx, ownToken);
    await ctx.db.updateTable('users').set({ aup_accepted_at: new Date().toISOString() }).where('id', '=', accountId).execute();
    const [origin] = (await ctx.inject('GET', '/api/identities', { token: ownToken })).json();
    expect(origin).toMatchObject({ email: own.email, linked_with: 'sign-up' });

    // The owner sets a password through Forgot password: nothing to unlink yet.
    expect((await resetThroughMail(own.email)).unlinked_identities).toEqual([]);
    await ctx.mailbox.waitFor(own.email, { subject: /password was changed/ });

    // Someone who learnt that password links a provider account of theirs.
    const session = await ctx.login(own.email, NEW_PASSWORD);
    const thief = world.newAccount();
    expect((await world.finish(await world.startLink(session, NEW_PASSWORD))).get('linked')).toBe('test');
    await ctx.mailbox.waitFor(own.email, { subject: /identity was linked/ });
    const before = (await ctx.inject('GET', '/api/identities', { token: session })).json();
    expect(before.map((identity: { email: string; linked_with: string }) => [identity.email, identity.linked_with])).toEqual([
      [own.email, 'sign-up'],
      [thief.email, 'password'],
    ]);

    const answer = await resetThroughMail(own.email, 'another fresh passphrase here');
    expect(answer.unlinked_identities).toEqual([{ provider: 'test', provider_name: PROVIDER_NAME, email: thief.email }]);
    const rows = await ctx.db.selectFrom('identities').select(['subject', 'linked_with']).where('user_id', '=', accountId).execute();
    expect(rows).toEqual([{ subject: own.id, linked_with: 'sign-up' }]);

    // The owner's own institutional sign-in still works.
    world.provider.behaviour.account = own.id;
    expect(await accountOf(ctx, await world.signIn())).toBe(accountId);
  });

  it('mails the link and the unlinking in the account’s language', async () => {
    const { ctx } = world;
    const owner = await ctx.signedInUser({ firstname: 'Marie' });
    await ctx.db.updateTable('users').set({ locale: 'fr' }).where('id', '=', owner.user.id).execute();
    const thief = world.newAccount();
    expect((await world.finish(await world.startLink(owner.token, owner.password))).get('linked')).toBe('test');

    const alarm = await ctx.mailbox.waitFor(owner.user.email, { subject: /identité a été associée/ });
    expect(alarm.subject).toBe('Une identité a été associée à votre compte Testbed Console');
    for (const part of [alarm.text, alarm.html]) {
      expect(part).toContain('Bonjour Marie,');
      expect(part).toContain(`L’identité ${PROVIDER_NAME} ${thief.email} a été associée à votre compte Testbed Console`);
      expect(part).toContain('Si ce n’était pas vous, quelqu’un connaît votre mot de passe');
    }

    await resetThroughMail(owner.user.email);
    const changed = await ctx.mailbox.waitFor(owner.user.email, { subject: /mot de passe Testbed Console a été modifié/ });
    for (const part of [changed.text, changed.html]) {
      expect(part).toContain(`Les identités institutionnelles associées à votre compte avec un mot de passe ont aussi été dissociées : ${PROVIDER_NAME} (${thief.email}).`);
    }
  });
});

describe('what a reset voids', () => {
  it('a linking started before the reset cannot complete, nor a sign-in code be exchanged', async () => {
    const { ctx } = world;
    const owner = await ctx.signedInUser();
    const thief = world.newAccount();
    // A linking the thief began with the stolen password, back from the provider but not yet at the callback.
    const linking = await world.startLink(await ctx.login(owner.user.email, owner.password), owner.password);
    // And an identity linked earlier, with a sign-in code obtained but not yet exchanged.
    const earlier = world.newAccount();
    expect((await world.finish(await world.startLink(owner.token, owner.password))).get('linked')).toBe('test');
    const signingIn = await world.startSignIn();
    const code = (await world.finish(signingIn)).get('code');
    expect(code).toBeTruthy();

    await resetThroughMail(owner.user.email);

    const late = await world.finish(linking);
    expect(late.get('error')).toBe('expired');
    expect(await ctx.db.selectFrom('identities').select('id').where('subject', 'in', [thief.id, earlier.id]).execute()).toEqual([]);
    // In the browser that started it, so that only the reset can be why it is refused.
    const exchanged = await ctx.inject('POST', '/auth/oidc/exchange', { body: { code }, headers: { cookie: signingIn.cookie } });
    expect(exchanged.statusCode).toBe(403);
    expect(exchanged.json().message).toBe(INVALID_CODE);
  });

  it('a linking whose state was already taken when the reset committed is refused at its end', async () => {
    const { ctx } = world;
    const owner = await ctx.signedInUser();
    const startedAt = new Date(Date.now() - 5000).toISOString();
    expect(await linkingStillAllowed(ctx.db, owner.user.id, startedAt)).toBe('ok');
    await ctx.db
      .insertInto('password_resets')
      .values({ user_id: owner.user.id, token_hash: 'f'.repeat(64), expires_at: startedAt, used_at: new Date().toISOString(), created_at: startedAt })
      .execute();
    expect(await linkingStillAllowed(ctx.db, owner.user.id, startedAt)).toBe('reset');
    expect(await linkingStillAllowed(ctx.db, owner.user.id, new Date(Date.now() + 5000).toISOString())).toBe('ok');
    await ctx.db.updateTable('users').set({ enabled: 0 }).where('id', '=', owner.user.id).execute();
    expect(await linkingStillAllowed(ctx.db, owner.user.id, startedAt)).toBe('disabled');
  });
});

describe('the rule and the existing identities', () => {
  it('unlinks on reset every identity but the one the account was made with', () => {
    expect(unlinkedByPasswordReset({ linked_with: 'password' })).toBe(true);
    expect(unlinkedByPasswordReset({ linked_with: 'sign-up' })).toBe(false);
  });

  it('marks the identities made with their account as such when the column is added', async () => {
    const workDir = mkdtempSync(join(tmpdir(), 'identity-origin-'));
    const database = await createTestDatabase(workDir);
    try {
      const db = database.db;
      await migrations['0016_identity_origin'].down!(db);
      const made = '2024-01-01T10:00:00.000Z';
      const users = await db
        .insertInto('users')
        .values([0, 1].map((n) => ({
          firstname: 'A',
          lastname: 'B',
          email: `origin-${n}@example.org`,
          password_hash: '',
          email_verified_at: made,
          aup_accepted_at: null,
          admin: 0,
          enabled: 1,
          authority: null,
          created_at: made,
          updated_at: made,
        })))
        .returning('id')
        .execute();
      const identity = (userId: number, subject: string, linkedAt: string) =>
        ({ user_id: userId, provider: 'test', issuer: 'https://idp.example', subject, email: null, linked_at: linkedAt }) as never;
      await db
        .insertInto('identities')
        .values([identity(users[0].id, 'made-with', made), identity(users[1].id, 'linked-later', '2024-02-01T10:00:00.000Z')])
        .execute();
      await migrations['0016_identity_origin'].up(db);
      const rows = await db.selectFrom('identities').select(['subject', 'linked_with']).orderBy('subject').execute();
      expect(rows).toEqual([
        { subject: 'linked-later', linked_with: 'password' },
        { subject: 'made-with', linked_with: 'sign-up' },
      ]);
    } finally {
      await database.drop();
      rmSync(workDir, { recursive: true, force: true });
    }
  });
});
