import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, movableClock } from '../src/clock.js';
import { createTestContext, type TestContext } from './helpers.js';
import { createWorld, type World } from './teamFixtures.js';

// Where a team and a workspace stand, as the console's pages read it (docs/lifecycle.md): the
// team page (GET /api/tenants/{id}) answers the team's review date and status, and GET /user
// answers them for the person's teams and workspaces, so that the home can list what ends soon.

let ctx: TestContext;
let world: World;
const start = new Date('2031-03-01T09:00:00.000Z');
const clock = movableClock(start);
const reviewDate = new Date(start.getTime() + 100 * DAY_MS).toISOString();
const workspaceEnd = new Date(start.getTime() + 40 * DAY_MS).toISOString();

beforeAll(async () => {
  ctx = await createTestContext({ clock });
  world = await createWorld(ctx);
  await ctx.db.updateTable('teams').set({ expires_at: reviewDate }).where('id', '=', world.team.id).execute();
  await ctx.db.updateTable('workspaces').set({ expires_at: workspaceEnd, cluster_state: 'ready' }).where('id', '=', world.workspace.id).execute();
});
afterAll(() => ctx?.close());

const get = async (path: string, token: string) => {
  const response = await ctx.inject('GET', path, { token });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};

describe('the team page', () => {
  it('answers the review date and the status, from the warning time before it and once it passed', async () => {
    clock.set(start);
    expect(await get(`/api/tenants/${world.team.id}`, world.people.owner.token)).toMatchObject({ expires_at: reviewDate, status: 'active' });

    clock.set(new Date(Date.parse(reviewDate) - 29 * DAY_MS));
    expect(await get(`/api/tenants/${world.team.id}`, world.people.member.token)).toMatchObject({ expires_at: reviewDate, status: 'expiring' });

    clock.set(new Date(Date.parse(reviewDate) + 1000));
    expect(await get(`/api/tenants/${world.team.name}`, world.people.owner.token)).toMatchObject({ status: 'expired' });
  });

  it('says it to outsiders too, and in the list, as the workspace page does', async () => {
    clock.set(new Date(Date.parse(reviewDate) - 10 * DAY_MS));
    expect(await get(`/api/tenants/${world.team.id}`, world.people.outsider.token)).toMatchObject({ expires_at: reviewDate, status: 'expiring', users: [] });
    const listed = (await get('/api/tenants', world.people.outsider.token)).find((team: { id: number }) => team.id === world.team.id);
    expect(listed).toMatchObject({ expires_at: reviewDate, status: 'expiring' });
  });

  it('a team without a review date is active', async () => {
    clock.set(start);
    await ctx.db.updateTable('teams').set({ expires_at: null }).where('id', '=', world.team.id).execute();
    try {
      expect(await get(`/api/tenants/${world.team.id}`, world.people.owner.token)).toMatchObject({ expires_at: null, status: 'active' });
    } finally {
      await ctx.db.updateTable('teams').set({ expires_at: reviewDate }).where('id', '=', world.team.id).execute();
    }
  });
});

describe('GET /user', () => {
  it("answers each workspace's end and status and each team's review date and status", async () => {
    clock.set(start);
    const before = await get('/user', world.people.wsManager.token);
    expect(before.workspaces.find((workspace: { id: number }) => workspace.id === world.workspace.id)).toMatchObject({
      expires_at: workspaceEnd,
      ends_at: workspaceEnd,
      status: 'active',
    });
    expect(before.teams.find((team: { id: number }) => team.id === world.team.id)).toMatchObject({ expires_at: reviewDate, status: 'active' });

    // Within the warning time (30 days by default) of the workspace's end.
    clock.set(new Date(Date.parse(workspaceEnd) - 5 * DAY_MS));
    const soon = await get('/user', world.people.wsManager.token);
    expect(soon.workspaces.find((workspace: { id: number }) => workspace.id === world.workspace.id)).toMatchObject({ status: 'expiring', ends_at: workspaceEnd });

    // Past it: expired, whether or not the lifecycle pass has suspended it yet.
    clock.set(new Date(Date.parse(workspaceEnd) + DAY_MS));
    const after = await get('/user', world.people.wsManager.token);
    expect(after.workspaces.find((workspace: { id: number }) => workspace.id === world.workspace.id)).toMatchObject({ status: 'expired' });
    expect(after.teams.find((team: { id: number }) => team.id === world.team.id)).toMatchObject({ status: 'active' });
  });

  it("measures a workspace against its team's review date when that comes first", async () => {
    const laterEnd = new Date(Date.parse(reviewDate) + 50 * DAY_MS).toISOString();
    await ctx.db.updateTable('workspaces').set({ expires_at: laterEnd }).where('id', '=', world.workspace.id).execute();
    try {
      clock.set(new Date(Date.parse(reviewDate) - 3 * DAY_MS));
      const user = await get('/user', world.people.wsMember.token);
      expect(user.workspaces.find((workspace: { id: number }) => workspace.id === world.workspace.id)).toMatchObject({
        expires_at: laterEnd,
        ends_at: reviewDate,
        status: 'expiring',
      });
    } finally {
      await ctx.db.updateTable('workspaces').set({ expires_at: workspaceEnd }).where('id', '=', world.workspace.id).execute();
    }
  });
});
