import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordActivity } from '../src/activity/log.js';
import { createTestContext, linkIn, type TestContext, uniqueEmail } from './helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe('recordActivity', () => {
  it('stores the severity in properties (info by default) and the subject', async () => {
    const { user } = await ctx.createUser();
    await recordActivity(ctx.db, { causerId: user.id, description: 'default severity', properties: { detail: 1 } });
    await recordActivity(ctx.db, { causerId: null, description: 'an error', subject: { type: 'user', id: user.id }, severity: 'error' });

    const entries = await ctx.db.selectFrom('activity_log').selectAll().where('description', 'in', ['default severity', 'an error']).orderBy('id').execute();
    expect(entries.map((entry) => JSON.parse(entry.properties))).toEqual([{ detail: 1, severity: 'info' }, { severity: 'error' }]);
    expect(entries[1]).toMatchObject({ causer_id: null, subject_type: 'user', subject_id: user.id });
  });
});

describe('the audit trail of an account', () => {
  it('has an entry for every account event of the contract, with no secrets in it', async () => {
    const email = uniqueEmail('audited');
    const password = 'first passphrase';
    await ctx.register({ email, password, password_confirmation: password });
    const verifyMail = await ctx.mailbox.waitFor(email, { subject: /verify/i });
    const user = await ctx.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();

    await ctx.inject('POST', '/login', { body: { email, password: 'wrong passphrase' } });
    const token = await ctx.login(email, password);
    await ctx.inject('POST', '/email/verification', { token });
    await ctx.mailbox.waitFor(email, { subject: /verify/i });
    const link = linkIn(verifyMail, '/email/verify/');
    await ctx.inject('GET', `/api${link.pathname}${link.search}`);
    await ctx.inject('POST', '/aup/accept', { token });
    await ctx.inject('PATCH', '/user', { token, body: { firstname: 'Audited', lastname: 'Person' } });
    const created = (await ctx.inject('POST', '/api/tokens', { token, body: { name: 'audit' } })).json().token;
    await ctx.inject('DELETE', '/api/tokens/audit', { token });
    await ctx.inject('POST', '/logout', { token });
    await ctx.inject('POST', '/password/link', { body: { email } });
    const resetLink = linkIn(await ctx.mailbox.waitFor(email, { subject: /reset/i }), '/password/reset/');
    await ctx.inject('POST', resetLink.pathname, { body: { password: 'second passphrase', password_confirmation: 'second passphrase' } });

    const entries = await ctx.db.selectFrom('activity_log').selectAll().where('causer_id', '=', user.id).orderBy('id').execute();
    expect(entries.map((entry) => [entry.description, JSON.parse(entry.properties).severity])).toEqual([
      ['registered', 'info'],
      ['failed login', 'warning'],
      ['logged in', 'info'],
      ['verification resent', 'info'],
      ['email verified', 'info'],
      ['policy accepted', 'info'],
      ['profile updated', 'info'],
      ['token created', 'info'],
      ['token deleted', 'info'],
      ['logged out', 'info'],
      ['password reset link requested', 'info'],
      ['password reset', 'info'],
      ['sessions and access tokens revoked', 'warning'],
    ]);

    const everything = JSON.stringify(entries);
    for (const secret of ['first passphrase', 'wrong passphrase', 'second passphrase', created.plainTextToken.split('|')[1], token.split('|')[1], resetLink.pathname.split('/').at(-1)!]) {
      expect(everything).not.toContain(secret);
    }
  });
});
