import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, movableClock } from '../src/clock.js';
import { policyStanding } from '../src/policy/versions.js';
import { createTestContext, type SignedInUser, type TestContext } from './helpers.js';

// The acceptable use policy, versioned (docs/lifecycle.md): publishing, the version in force,
// the onboarding gate sending people back when a new version is published or their acceptance
// grew older than policy_validity_days, and GET /user saying what was accepted. On SQLite and,
// with DATABASE_URL, on PostgreSQL.

let ctx: TestContext;
let admin: SignedInUser;
const clock = movableClock(new Date());
const GATED = '/api/activity/mine';

const publish = (token: string, body: unknown) => ctx.inject('POST', '/api/admin/policy', { token, body });
const version = (n: number) => ({ text: { en: `Policy ${n}: be nice.`, fr: `Charte ${n} : soyez aimables.` }, summary: `Change ${n}: quotas are shared.` });

beforeAll(async () => {
  ctx = await createTestContext({ clock });
  admin = await ctx.signedInUser({ admin: true });
});
afterAll(() => ctx.close());

describe('before any version is published', () => {
  it('GET /api/policy answers the built-in text as "initial", without a token', async () => {
    const answer = await ctx.inject('GET', '/api/policy');
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ version: 'initial', id: null, summary: null, published_at: null, text: null, validity_days: 365 });
  });

  it('an acceptance with no version holds, until it grows older than the validity', async () => {
    const person = await ctx.signedInUser();
    const me = (await ctx.inject('GET', '/user', { token: person.token })).json();
    expect(me).toMatchObject({ aup_version_id: null, aup_required: false, aup_renewal: null });
    expect((await ctx.inject('GET', GATED, { token: person.token })).statusCode).toBe(200);
  });

  it('a person who never accepted is refused and told so, and accepts "initial"', async () => {
    const person = await ctx.signedInUser({ verified: false });
    await ctx.db.updateTable('users').set({ email_verified_at: clock.now().toISOString() }).where('id', '=', person.user.id).execute();
    expect((await ctx.inject('GET', '/user', { token: person.token })).json()).toMatchObject({ aup_accepted_at: null, aup_required: true, aup_renewal: null });
    expect((await ctx.inject('GET', GATED, { token: person.token })).json()).toMatchObject({ onboarding: 'accept-aup' });
    const accepted = await ctx.inject('POST', '/aup/accept', { token: person.token });
    expect(accepted.json()).toMatchObject({ aup_accepted_at: clock.now().toISOString(), aup_version_id: null, aup_required: false });
    expect((await ctx.inject('GET', GATED, { token: person.token })).statusCode).toBe(200);
  });
});

describe('publishing', () => {
  it('is for platform admins only, with field messages for bad input, and nothing published then', async () => {
    const member = await ctx.signedInUser();
    expect((await publish(member.token, version(0))).statusCode).toBe(403);
    expect((await ctx.inject('GET', '/api/admin/policy', { token: member.token })).statusCode).toBe(403);
    expect((await ctx.inject('POST', '/api/admin/policy', { body: version(0) })).statusCode).toBe(401);
    for (const [body, field] of [
      [{ summary: 'x' }, 'text'],
      [{ text: { en: 'a' }, summary: 'x' }, 'text.fr'],
      [{ text: { en: ' ', fr: 'b' }, summary: 'x' }, 'text.en'],
      [{ text: { en: 'a', fr: 'b' }, summary: '' }, 'summary'],
      [{ text: { en: 'a', fr: 'b' } }, 'summary'],
      [{ text: { en: 'a'.repeat(100_001), fr: 'b' }, summary: 'x' }, 'text.en'],
      [{ text: 'both', summary: 'x' }, 'text'],
      [{ text: { en: 'a', fr: 'b\u0000' }, summary: 'x' }, 'text.fr'],
    ] as const) {
      const answer = await publish(admin.token, body);
      expect(answer.statusCode, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(Object.keys(answer.json().errors), JSON.stringify(body).slice(0, 80)).toContain(field);
    }
    const french = await ctx.inject('POST', '/api/admin/policy', { token: admin.token, body: { text: { en: 'a', fr: 'b' }, summary: '' }, headers: { 'accept-language': 'fr' } });
    expect(french.json().errors.summary[0]).toBe('Le champ résumé est obligatoire.');
    expect((await ctx.inject('GET', '/api/admin/policy', { token: admin.token })).json()).toEqual([]);
    expect((await ctx.inject('GET', '/api/policy')).json().version).toBe('initial');
  });
});

describe('a new version', () => {
  let person: SignedInUser;

  it('is the policy in force, in both languages, listed for admins and recorded in the activity log', async () => {
    person = await ctx.signedInUser();
    const published = await publish(admin.token, version(1));
    expect(published.statusCode).toBe(201);
    const id = published.json().id;
    expect(published.json()).toMatchObject({ summary: 'Change 1: quotas are shared.', text: { en: 'Policy 1: be nice.', fr: 'Charte 1 : soyez aimables.' }, published_by: { id: admin.user.id } });
    expect((await ctx.inject('GET', '/api/policy')).json()).toMatchObject({ version: String(id), id, summary: 'Change 1: quotas are shared.', text: { en: 'Policy 1: be nice.' } });
    expect((await ctx.inject('GET', '/api/admin/policy', { token: admin.token })).json()).toEqual([expect.objectContaining({ id })]);
    const entry = await ctx.db.selectFrom('activity_log').selectAll().where('description', '=', 'policy version published').executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ causer_id: admin.user.id, subject_type: 'policy_version', subject_id: id });
  });

  it('sends everybody back to the policy step with what changed; the API refuses them until they accept', async () => {
    const me = (await ctx.inject('GET', '/user', { token: person.token })).json();
    expect(me).toMatchObject({ aup_required: true, aup_renewal: { reason: 'new_version', summary: 'Change 1: quotas are shared.' } });
    const refused = await ctx.inject('GET', GATED, { token: person.token });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: 'You must accept the acceptable use policy.', onboarding: 'accept-aup' });
    // The policy itself stays readable, and so do the account's routes.
    expect((await ctx.inject('GET', '/api/policy', { token: person.token })).statusCode).toBe(200);
    // Not the admin who published it: publishing is their acceptance.
    expect((await ctx.inject('GET', GATED, { token: admin.token })).statusCode).toBe(200);

    clock.advance(60_000);
    const accepted = await ctx.inject('POST', '/aup/accept', { token: person.token });
    expect(accepted.statusCode).toBe(200);
    const current = (await ctx.inject('GET', '/api/policy')).json().id;
    expect(accepted.json()).toMatchObject({ aup_version_id: current, aup_accepted_at: clock.now().toISOString(), aup_required: false, aup_renewal: null });
    expect((await ctx.inject('GET', GATED, { token: person.token })).statusCode).toBe(200);
    // Accepting again changes nothing while the acceptance holds.
    clock.advance(60_000);
    expect((await ctx.inject('POST', '/aup/accept', { token: person.token })).json().aup_accepted_at).toBe(accepted.json().aup_accepted_at);
  });

  it('an account an operator makes accepts the version in force', async () => {
    const made = await ctx.signedInUser();
    const current = (await ctx.inject('GET', '/api/policy')).json().id;
    expect((await ctx.inject('GET', '/user', { token: made.token })).json()).toMatchObject({ aup_version_id: current, aup_required: false });
  });

  it('an acceptance older than policy_validity_days sends the person back, without a "what changed" line', async () => {
    expect((await ctx.inject('PATCH', '/api/admin/settings', { token: admin.token, body: { policy_validity_days: 30 } })).statusCode).toBe(200);
    clock.advance(29 * DAY_MS);
    expect((await ctx.inject('GET', GATED, { token: person.token })).statusCode).toBe(200);
    clock.advance(1 * DAY_MS);
    expect((await ctx.inject('GET', GATED, { token: person.token })).json()).toMatchObject({ onboarding: 'accept-aup' });
    expect((await ctx.inject('GET', '/user', { token: person.token })).json()).toMatchObject({ aup_required: true, aup_renewal: { reason: 'expired', summary: null } });
    expect((await ctx.inject('POST', '/aup/accept', { token: person.token })).json()).toMatchObject({ aup_required: false, aup_accepted_at: clock.now().toISOString() });
    expect((await ctx.inject('GET', GATED, { token: person.token })).statusCode).toBe(200);
    const acceptances = await ctx.db.selectFrom('activity_log').select('properties').where('description', '=', 'policy accepted').where('causer_id', '=', person.user.id).execute();
    expect(acceptances).toHaveLength(2);
  });

  it('the realtime channel authorization is refused the same way', async () => {
    await publish(admin.token, version(2));
    const answer = await ctx.inject('POST', '/broadcasting/auth', { token: person.token, body: { socket_id: '1.1', channel_name: `private-App.Models.User.${person.user.id}` } });
    expect(answer.statusCode).toBe(403);
  });
});

describe('policyStanding (the rule itself)', () => {
  const now = new Date('2030-06-01T00:00:00Z');
  it('decides by acceptance, version and age', () => {
    expect(policyStanding({ aup_accepted_at: null, aup_version_id: null }, null, 365, now)).toEqual({ required: true, reason: 'never' });
    expect(policyStanding({ aup_accepted_at: '2030-05-01T00:00:00Z', aup_version_id: null }, null, 365, now)).toEqual({ required: false, reason: null });
    expect(policyStanding({ aup_accepted_at: '2030-05-01T00:00:00Z', aup_version_id: null }, { id: 1 }, 365, now)).toEqual({ required: true, reason: 'new_version' });
    expect(policyStanding({ aup_accepted_at: '2030-05-01T00:00:00Z', aup_version_id: 1 }, { id: 2 }, 365, now)).toEqual({ required: true, reason: 'new_version' });
    expect(policyStanding({ aup_accepted_at: '2029-06-01T00:00:01Z', aup_version_id: 2 }, { id: 2 }, 365, now)).toEqual({ required: false, reason: null });
    expect(policyStanding({ aup_accepted_at: '2029-06-01T00:00:00Z', aup_version_id: 2 }, { id: 2 }, 365, now)).toEqual({ required: true, reason: 'expired' });
  });
});
