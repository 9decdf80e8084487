import Echo from 'laravel-echo';
import type Pusher from 'pusher-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timestamp } from '../src/db/database.js';
import { podLogChannel } from '../src/realtime/clusterFeeds.js';
import { SUBSCRIPTION_ENDED_EVENT, type SubscriptionEnd } from '../src/realtime/protocol.js';
import { loadAccess, loadAccessMany } from '../src/access/access.js';
import { createTestContext, eventually, REALTIME_APP_KEY, type SignedInUser, type TestContext } from './helpers.js';
import { connected, subscribeOutcome } from './realtimeClients.js';
import { addTeamMember, addWorkspaceMember, createWorld, insertTeam, insertWorkspace } from './teamFixtures.js';

// Realtime rights end with the rights behind them: when a member is removed from a workspace
// or leaves it, a token or session is revoked, a team membership or the account is disabled,
// their open subscriptions end within seconds, with SubscriptionEnded on the channel (which
// pusher-js and laravel-echo hand to the console), and nothing more reaches them there.

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext({ realtime: true });
});

afterAll(async () => {
  await ctx?.close();
});

const ENDS_WITHIN_MS = 3000;

async function api(method: string, path: string, token: string, body?: unknown) {
  const response = await fetch(`${ctx.baseUrl}${path}`, {
    method,
    headers: { accept: 'application/json', authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, json: response.status === 204 ? null : ((await response.json()) as Record<string, unknown>) };
}

/** A fresh team and workspace with a manager and two members (removals spoil a shared world). */
async function workspaceWithMembers(on: TestContext = ctx) {
  const team = await insertTeam(on);
  const workspace = await insertWorkspace(on, team);
  const [manager, member, other] = await Promise.all([on.signedInUser(), on.signedInUser(), on.signedInUser()]);
  for (const person of [manager, member, other]) await addTeamMember(on, team.id, person.user.id, 'member');
  await addWorkspaceMember(on, workspace.id, manager.user.id, 'manager');
  await addWorkspaceMember(on, workspace.id, member.user.id, 'member');
  await addWorkspaceMember(on, workspace.id, other.user.id, 'member');
  return { team, workspace, manager, member, other };
}

interface Listening {
  client: Pusher;
  /** Events heard per channel, SubscriptionEnded included. */
  heard: Map<string, { event: string; data: unknown }[]>;
}

/** A pusher-js client subscribed to each channel, recording what it hears. */
async function listenOn(person: SignedInUser | string, channels: string[]): Promise<Listening> {
  const client = ctx.realtime.pusher(typeof person === 'string' ? person : person.token);
  await connected(client);
  const heard = new Map<string, { event: string; data: unknown }[]>();
  for (const name of channels) {
    expect(await subscribeOutcome(client, name), name).toEqual({ ok: true });
    const events: { event: string; data: unknown }[] = [];
    heard.set(name, events);
    client.channel(name).bind_global((event: string, data: unknown) => {
      if (!event.startsWith('pusher:')) events.push({ event, data });
    });
  }
  return { client, heard };
}

const endOf = (listening: Listening, channel: string) =>
  listening.heard.get(channel)?.find((entry) => entry.event === SUBSCRIPTION_ENDED_EVENT)?.data as SubscriptionEnd | undefined;

async function ended(listening: Listening, channel: string): Promise<SubscriptionEnd> {
  await eventually(() => endOf(listening, channel) !== undefined, { what: `SubscriptionEnded on ${channel}`, timeoutMs: ENDS_WITHIN_MS });
  return endOf(listening, channel) as SubscriptionEnd;
}

/** Broadcasts a marker and waits until `hearing` got it, so that `deaf` had its chance too. */
async function deliveredOnlyTo(channel: string, hearing: Listening, deaf: Listening) {
  const marker = { marker: Math.random() };
  ctx.realtime.server.broadcast(channel, 'PodsChanged', marker);
  await eventually(() => hearing.heard.get(channel)?.some((entry) => JSON.stringify(entry.data) === JSON.stringify(marker)) ?? false, { what: 'marker heard' });
  expect(deaf.heard.get(channel)?.some((entry) => JSON.stringify(entry.data) === JSON.stringify(marker))).toBe(false);
}

describe('workspace membership', () => {
  it('a removed member loses their workspace and pod-log subscriptions at once; the others keep theirs', async () => {
    const { workspace, manager, member, other } = await workspaceWithMembers();
    const pods = `private-workspace.${workspace.id}`;
    const logs = podLogChannel(workspace.id, 'web-1');
    const own = `private-App.User.${member.user.id}`;
    const lastUnsubscribed: string[] = [];
    ctx.realtime.server.onLastUnsubscribe((channel) => lastUnsubscribed.push(channel));

    const removed = await listenOn(member, [pods, logs, own]);
    const staying = await listenOn(other, [pods]);
    expect(ctx.realtime.server.subscriberCount(pods)).toBe(2);

    const answer = await api('DELETE', `/api/subnamespaces/${workspace.id}/users/${member.user.id}`, manager.token);
    expect(answer.status).toBe(204);
    expect(await ended(removed, pods)).toEqual({ reason: 'access-ended', message: 'You no longer have access to this workspace.' });
    expect((await ended(removed, logs)).reason).toBe('access-ended');
    // Nobody may read the pod's log any more: its channel lost its last subscriber, which
    // stops the cluster's log follow (clusterFeeds.ts).
    expect(ctx.realtime.server.subscriberCount(logs)).toBe(0);
    expect(lastUnsubscribed).toContain(logs);
    expect(ctx.realtime.server.subscriberCount(pods)).toBe(1);
    await deliveredOnlyTo(pods, staying, removed);
    // Their own user channel is still theirs.
    expect(endOf(removed, own)).toBeUndefined();
    expect(ctx.realtime.server.subscriberCount(own)).toBe(1);
  });

  it('a member who leaves loses the workspace channel, heard through laravel-echo as the console does', async () => {
    const { workspace, member } = await workspaceWithMembers();
    const client = ctx.realtime.pusher(member.token);
    const echo = new Echo({ broadcaster: 'reverb', key: REALTIME_APP_KEY, client, withoutInterceptors: true });
    const heard: unknown[] = [];
    const channel = echo.private(`workspace.${workspace.id}`);
    await new Promise<void>((resolve, reject) => {
      channel.subscribed(() => resolve());
      channel.error((error: unknown) => reject(new Error(JSON.stringify(error))));
    });
    channel.listen(`.${SUBSCRIPTION_ENDED_EVENT}`, (payload: unknown) => heard.push(payload));

    expect((await api('DELETE', `/api/subnamespaces/${workspace.id}/users/${member.user.id}`, member.token)).status).toBe(204);
    await eventually(() => heard.length === 1, { what: 'SubscriptionEnded through laravel-echo', timeoutMs: ENDS_WITHIN_MS });
    expect(heard[0]).toMatchObject({ reason: 'access-ended' });
    expect(ctx.realtime.server.subscriberCount(`private-workspace.${workspace.id}`)).toBe(0);
  });

  it('a disabled team membership voids the workspace channel once rightsChanged is called', async () => {
    const { team, workspace, member } = await workspaceWithMembers();
    const pods = `private-workspace.${workspace.id}`;
    const listening = await listenOn(member, [pods]);
    await ctx.db.updateTable('team_members').set({ enabled: 0 }).where('team_id', '=', team.id).where('user_id', '=', member.user.id).execute();
    ctx.realtime.server.rightsChanged([member.user.id]);
    expect((await ended(listening, pods)).reason).toBe('access-ended');
  });

  it('suspending the team (PATCH /api/admin/teams/{id}) ends its members\' workspace subscriptions; a platform admin keeps theirs', async () => {
    const { team, workspace, member } = await workspaceWithMembers();
    const admin = await ctx.signedInUser({ admin: true });
    const pods = `private-workspace.${workspace.id}`;
    const [listening, watching] = [await listenOn(member, [pods]), await listenOn(admin, [pods])];
    expect((await api('PATCH', `/api/admin/teams/${team.id}`, admin.token, { enabled: false })).status).toBe(200);
    expect((await ended(listening, pods)).reason).toBe('access-ended');
    await deliveredOnlyTo(pods, watching, listening);
    // Enabled again, the member may subscribe again.
    expect((await api('PATCH', `/api/admin/teams/${team.id}`, admin.token, { enabled: true })).status).toBe(200);
    await listenOn(member, [pods]);
  });

  it('a subscription signed before the removal but used after its re-check is ended too', async () => {
    const { workspace, manager, member } = await workspaceWithMembers();
    const pods = `private-workspace.${workspace.id}`;
    const client = ctx.realtime.pusher(member.token);
    const socketId = await connected(client);
    const signed = await api('POST', '/broadcasting/auth', member.token, { socket_id: socketId, channel_name: pods });
    expect(signed.status).toBe(200);
    expect((await api('DELETE', `/api/subnamespaces/${workspace.id}/users/${member.user.id}`, manager.token)).status).toBe(204);
    await ctx.realtime.rights.idle();

    const heard: unknown[] = [];
    client.channel(pods)?.unbind_all();
    const channel = client.subscribe(pods);
    channel.bind(SUBSCRIPTION_ENDED_EVENT, (data: unknown) => heard.push(data));
    // pusher-js would ask the endpoint again (403 now); the old answer is replayed by hand.
    client.send_event('pusher:subscribe', { channel: pods, auth: signed.json?.auth, channel_data: signed.json?.channel_data });
    await eventually(() => heard.length > 0, { what: 'the replayed subscription ended', timeoutMs: ENDS_WITHIN_MS });
    expect(heard[0]).toMatchObject({ reason: 'access-ended' });
    expect(ctx.realtime.server.subscriberCount(pods)).toBe(0);
  });
});

describe('tokens, sessions and accounts', () => {
  it('logging out ends what the session subscribed; another session of the same user keeps its own', async () => {
    const person = await ctx.signedInUser();
    const otherSession = await ctx.login(person.user.email);
    const own = `private-App.User.${person.user.id}`;
    const leaving = await listenOn(person, [own]);
    const staying = await listenOn(otherSession, [own]);

    const answer = await fetch(`${ctx.baseUrl}/logout`, { method: 'POST', headers: { authorization: `Bearer ${person.token}`, accept: 'application/json' } });
    expect(answer.status).toBe(204);
    expect(await ended(leaving, own)).toEqual({ reason: 'session-ended', message: 'Your session has ended. Sign in again.' });
    await deliveredOnlyTo(own, staying, leaving);
  });

  it('deleting or overwriting a personal token ends the subscriptions it signed', async () => {
    const person = await ctx.signedInUser();
    const own = `private-App.User.${person.user.id}`;
    const created = await api('POST', '/api/tokens', person.token, { name: 'cli' });
    const first = (created.json?.token as { plainTextToken: string }).plainTextToken;
    const deleted = await listenOn(first, [own]);
    expect((await api('DELETE', '/api/tokens/cli', person.token)).status).toBe(204);
    expect((await ended(deleted, own)).reason).toBe('session-ended');

    const second = ((await api('POST', '/api/tokens', person.token, { name: 'cli' })).json?.token as { plainTextToken: string }).plainTextToken;
    const overwritten = await listenOn(second, [own]);
    expect((await api('POST', '/api/tokens', person.token, { name: 'cli', overwrite: true })).status).toBe(201);
    expect((await ended(overwritten, own)).reason).toBe('session-ended');
  });

  it('a disabled account loses every subscription', async () => {
    const { workspace, member } = await workspaceWithMembers();
    const channels = [`private-App.User.${member.user.id}`, `private-workspace.${workspace.id}`];
    const listening = await listenOn(member, channels);
    await ctx.db.updateTable('users').set({ enabled: 0 }).where('id', '=', member.user.id).execute();
    ctx.realtime.server.rightsChanged([member.user.id]);
    for (const channel of channels) expect(await ended(listening, channel)).toEqual({ reason: 'account-disabled', message: 'This account is disabled.' });
  });
});

describe('the periodic re-check', () => {
  // A context of its own, whose realtime server re-checks every 300 ms.
  let quick: TestContext;
  beforeAll(async () => {
    quick = await createTestContext({ realtime: { recheckIntervalMs: 300 } });
  });
  afterAll(async () => {
    await quick?.close();
  });

  it('ends, without any call, subscriptions of an expired token or of a membership removed behind the API', async () => {
    const { workspace, member, other } = await workspaceWithMembers(quick);
    const pods = `private-workspace.${workspace.id}`;
    const expiring = quick.realtime.pusher(other.token);
    await connected(expiring);
    const own = `private-App.User.${other.user.id}`;
    expect(await subscribeOutcome(expiring, own)).toEqual({ ok: true });
    const expiredEnd = new Promise((resolve) => expiring.channel(own).bind(SUBSCRIPTION_ENDED_EVENT, resolve));
    const removed = quick.realtime.pusher(member.token);
    await connected(removed);
    expect(await subscribeOutcome(removed, pods)).toEqual({ ok: true });
    const removedEnd = new Promise((resolve) => removed.channel(pods).bind(SUBSCRIPTION_ENDED_EVENT, resolve));

    const tokenId = Number(other.token.split('|')[0]);
    await quick.db.updateTable('access_tokens').set({ expires_at: timestamp(new Date(Date.now() - 1000)) }).where('id', '=', tokenId).execute();
    await quick.db.deleteFrom('workspace_members').where('workspace_id', '=', workspace.id).where('user_id', '=', member.user.id).execute();
    expect(await expiredEnd).toMatchObject({ reason: 'session-ended' });
    expect(await removedEnd).toMatchObject({ reason: 'access-ended' });
  });
});

describe('loadAccessMany', () => {
  it('gives every user the same access as loadAccess', async () => {
    const world = await createWorld(ctx);
    const users = await ctx.db.selectFrom('users').selectAll().execute();
    const many = await loadAccessMany(ctx.db, users);
    for (const user of users) expect(many.get(user.id), user.email).toEqual(await loadAccess(ctx.db, user));
    // The world has a disabled team membership: the batch voids it as loadAccess does.
    expect(many.get(world.people.disabledManager.user.id)?.workspaceRoles.has(world.workspace.id)).toBe(false);

    // A suspended team gives nobody a role, in it or in its workspaces, in both.
    await ctx.db.updateTable('teams').set({ enabled: 0 }).where('id', '=', world.team.id).execute();
    const suspended = await loadAccessMany(ctx.db, users);
    for (const user of users) expect(suspended.get(user.id), user.email).toEqual(await loadAccess(ctx.db, user));
    expect(suspended.get(world.people.owner.user.id)?.teamRoles.has(world.team.id)).toBe(false);
    expect(suspended.get(world.people.wsManager.user.id)?.workspaceRoles.has(world.workspace.id)).toBe(false);
    await ctx.db.updateTable('teams').set({ enabled: 1 }).where('id', '=', world.team.id).execute();
  });
});
