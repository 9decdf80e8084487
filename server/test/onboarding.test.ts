import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isGatedRoute } from '../src/http/onboarding.js';
import { createTestContext, type TestContext } from './helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe('the onboarding gate (GET /api/activity/mine as the gated route)', () => {
  it('answers 403 verify-email to a user whose email is not verified', async () => {
    const { token } = await ctx.signedInUser({ verified: false });
    const response = await ctx.inject('GET', '/api/activity/mine', { token });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ message: 'Your email address is not verified.', onboarding: 'verify-email' });
  });

  it('answers 403 accept-aup to a verified user who has not accepted the policy', async () => {
    const { user, token } = await ctx.signedInUser({ verified: false });
    await ctx.db.updateTable('users').set({ email_verified_at: new Date().toISOString() }).where('id', '=', user.id).execute();
    const response = await ctx.inject('GET', '/api/activity/mine', { token });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ message: 'You must accept the acceptable use policy.', onboarding: 'accept-aup' });

    expect((await ctx.inject('POST', '/aup/accept', { token })).statusCode).toBe(200);
    expect((await ctx.inject('GET', '/api/activity/mine', { token })).statusCode).toBe(200);
  });

  it('answers 401 without a token, before anything else', async () => {
    const response = await ctx.inject('GET', '/api/activity/mine?limit=oops');
    expect(response.statusCode).toBe(401);
  });

  it('lets a user who is not onboarded reach their account endpoints and the exempt /api routes', async () => {
    const { token } = await ctx.signedInUser({ verified: false });
    for (const [method, url] of [
      ['GET', '/user'],
      ['GET', '/api/tokens'],
      ['GET', '/api/settings'],
      ['GET', '/api/docs'],
    ] as const) {
      expect((await ctx.inject(method, url, { token })).statusCode, `${method} ${url}`).toBe(200);
    }
    expect((await ctx.inject('POST', '/api/tokens', { token, body: { name: 'early' } })).statusCode).toBe(201);
    expect((await ctx.inject('DELETE', '/api/tokens/early', { token })).statusCode).toBe(204);
    expect((await ctx.inject('POST', '/email/verification', { token })).statusCode).toBe(202);
  });

  it('gates every /api route except the contract allow-list', () => {
    expect(isGatedRoute('/api/activity/mine')).toBe(true);
    expect(isGatedRoute('/api/nodes/:id')).toBe(true);
    expect(isGatedRoute('/api/tokens')).toBe(false);
    expect(isGatedRoute('/api/tokens/:name')).toBe(false);
    expect(isGatedRoute('/api/email/verify/:id/:hash')).toBe(false);
    expect(isGatedRoute('/api/settings')).toBe(false);
    expect(isGatedRoute('/api/docs')).toBe(false);
    expect(isGatedRoute('/user')).toBe(false);
  });
});

describe('GET /api/activity/mine', () => {
  it("lists the user's own entries, newest first, with severity", async () => {
    const { user, token } = await ctx.signedInUser();
    await ctx.inject('PATCH', '/user', { token, body: { firstname: 'New', lastname: 'Name' } });
    const other = await ctx.signedInUser();
    await ctx.inject('PATCH', '/user', { token: other.token, body: { firstname: 'Someone', lastname: 'Else' } });

    const response = await ctx.inject('GET', '/api/activity/mine', { token });
    expect(response.statusCode).toBe(200);
    const entries = response.json();
    expect(entries.map((entry: { description: string }) => entry.description)).toEqual(['profile updated', 'logged in']);
    expect(entries[0]).toEqual({
      id: expect.any(Number),
      description: 'profile updated',
      subject_type: 'user',
      subject_id: user.id,
      properties: { severity: 'info' },
      created_at: expect.stringMatching(/Z$/),
    });
  });

  it('takes a limit between 1 and 100', async () => {
    const { token } = await ctx.signedInUser();
    await ctx.inject('PATCH', '/user', { token, body: { firstname: 'A', lastname: 'B' } });
    expect((await ctx.inject('GET', '/api/activity/mine?limit=1', { token })).json()).toHaveLength(1);
    for (const limit of ['0', '101', 'ten']) {
      const response = await ctx.inject('GET', `/api/activity/mine?limit=${limit}`, { token });
      expect(response.statusCode).toBe(422);
      expect(Object.keys(response.json().errors)).toEqual(['limit']);
    }
  });
});
