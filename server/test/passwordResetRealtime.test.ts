import type Pusher from 'pusher-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBSCRIPTION_ENDED_EVENT, type SubscriptionEnd } from '../src/realtime/protocol.js';
import { createTestContext, eventually, linkIn, type TestContext } from './helpers.js';
import { connected, subscribeOutcome } from './realtimeClients.js';

// Sessions end with a reset (docs/security.md): a password reset revokes every session and personal access token, and
// what they subscribed to over the realtime channel ends with them, at once (the reset calls
// the broadcaster's rightsChanged after its commit; the periodic re-check is a minute away).

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ realtime: true });
});
afterAll(async () => {
  await ctx?.close();
});

async function post(path: string, body: unknown, token?: string) {
  const response = await fetch(`${ctx.baseUrl}${path}`, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, any> };
}

/** A pusher-js client on the channel, authorized with `token`; resolves with what ends it. */
async function subscribed(token: string, channel: string) {
  const client: Pusher = ctx.realtime.pusher(token);
  await connected(client);
  expect(await subscribeOutcome(client, channel)).toEqual({ ok: true });
  let end: SubscriptionEnd | undefined;
  client.channel(channel).bind(SUBSCRIPTION_ENDED_EVENT, (data: SubscriptionEnd) => {
    end = data;
  });
  return { ended: () => end };
}

describe('password reset and realtime', () => {
  it('ends at once the subscriptions of every session and personal token of the account', async () => {
    const person = await ctx.signedInUser();
    const personal = (await post('/api/tokens', { name: 'dashboard' }, person.token)).json.token.plainTextToken as string;
    const bystander = await ctx.signedInUser();
    const own = `private-App.User.${person.user.id}`;
    const bySession = await subscribed(person.token, own);
    const byToken = await subscribed(personal, own);
    const other = await subscribed(bystander.token, `private-App.User.${bystander.user.id}`);

    expect((await post('/password/link', { email: person.user.email })).status).toBe(200);
    const link = linkIn(await ctx.mailbox.waitFor(person.user.email, { subject: /reset/i }), '/password/reset/');
    const reset = await post(link.pathname, { password: 'a brand new passphrase', password_confirmation: 'a brand new passphrase' });
    expect(reset.status).toBe(200);

    await eventually(() => bySession.ended() !== undefined && byToken.ended() !== undefined, { what: 'both subscriptions ended', timeoutMs: 3000 });
    expect(bySession.ended()).toMatchObject({ reason: 'session-ended' });
    expect(byToken.ended()).toMatchObject({ reason: 'session-ended' });
    expect(ctx.realtime.server.subscriberCount(own)).toBe(0);
    expect(other.ended()).toBeUndefined();
  });
});
