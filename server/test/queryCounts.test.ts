import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helpers.js';
import { addTeamMember, addWorkspaceMember, createWorld, insertTeam, insertWorkspace, submit, type World } from './teamFixtures.js';

// Queries per request on the hot paths (docs/benchmarks.md): each endpoint has a budget, and the count must
// not grow with the number of rows it shows (no N+1). A change that adds a query fails here and
// has to say why by raising the budget.

const queries: string[] = [];
let counting = false;
let ctx: TestContext;
let world: World;

async function countQueries(method: 'GET', url: string, token: string): Promise<{ count: number; sql: string[] }> {
  // Once first, so that the token's last_used_at write (at most once a minute) is not counted.
  const warm = await ctx.inject(method, url, { token });
  expect(warm.statusCode, `${url}: ${warm.body}`).toBe(200);
  // Mails the setup queued are sent in the background: not this request's queries.
  await ctx.idle();
  queries.length = 0;
  counting = true;
  const response = await ctx.inject(method, url, { token });
  counting = false;
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  return { count: queries.length, sql: [...queries] };
}

/** More of everything the endpoints list: teams, workspaces, memberships, requests, tokens. */
async function grow(times: number) {
  const person = world.people.wsMember;
  for (let i = 0; i < times; i += 1) {
    const team = await insertTeam(ctx);
    const workspace = await insertWorkspace(ctx, team);
    await addTeamMember(ctx, team.id, person.user.id, i % 2 === 0 ? 'member' : 'manager');
    await addWorkspaceMember(ctx, workspace.id, person.user.id, 'member');
    const other = await ctx.signedInUser({ firstname: `Other${i}`, lastname: 'Person' });
    await addTeamMember(ctx, world.team.id, other.user.id, 'member');
    const colleague = await ctx.signedInUser({ firstname: `Colleague${i}`, lastname: 'Person' });
    await addTeamMember(ctx, world.team.id, colleague.user.id, 'member');
    await addWorkspaceMember(ctx, world.workspace.id, colleague.user.id, 'member');
    for (const response of [
      await submit(ctx, world, 'CreateTeam', person.token),
      await submit(ctx, world, 'JoinWorkspace', other.token),
      await ctx.inject('POST', '/api/tokens', { token: person.token, body: { name: `token-${i}-${Date.now()}` } }),
    ]) {
      expect(response.statusCode, response.body).toBe(201);
    }
  }
}

beforeAll(async () => {
  ctx = await createTestContext({ onQuery: (sql) => counting && queries.push(sql) });
  world = await createWorld(ctx);
});
afterAll(async () => {
  await ctx?.close();
});

/** [label, path, whose token, budget: most queries, the token check included]. */
const endpoints = (): [string, string, () => string, number][] => [
  // The token with its user; everything the console shows of the user, as JSON arrays.
  ['GET /user (teams, workspaces, requests)', '/user', () => world.people.wsMember.token, 2],
  ['GET /api/tokens', '/api/tokens', () => world.people.wsMember.token, 2],
  // The token; the viewer's roles; the requests with who and what they name joined (and the count).
  ['GET /api/requests (a team manager)', '/api/requests', () => world.people.manager.token, 3],
  ['GET /api/requests, paged and filtered', '/api/requests?page=1&per_page=25&filter%5Bstatus%5D=Pending', () => world.people.manager.token, 4],
  // One more than the rest of the page: the lifecycle settings its status is measured with (docs/lifecycle.md).
  ['GET /api/subnamespaces/{id} (the workspace page)', `/api/subnamespaces/${world.workspace.id}`, () => world.people.wsMember.token, 7],
  // Two more than the rest of the page for its team quota: its contributed nodes and the credit factors (teams/quota.ts).
  ['GET /api/tenants/{id} (the team page)', `/api/tenants/${world.team.id}`, () => world.people.member.token, 8],
  ['GET /api/admin/users, first page', '/api/admin/users?page=1&per_page=25', () => world.people.admin.token, 3],
  // One more than the rest of the page: the warning time each team's status is measured with.
  ['GET /api/admin/teams, first page', '/api/admin/teams?page=1&per_page=25', () => world.people.admin.token, 7],
];

describe('queries per request', () => {
  it('stay within each endpoint’s budget and do not grow with the rows shown', async () => {
    // One of everything first (an empty list skips the queries that load what it names).
    await grow(1);
    const before = new Map<string, { count: number; sql: string[] }>();
    for (const [label, url, token, budget] of endpoints()) {
      const counted = await countQueries('GET', url, token());
      expect(counted.count, `${label} makes more queries than its budget:\n${counted.sql.join('\n')}`).toBeLessThanOrEqual(budget);
      before.set(label, counted);
    }
    await grow(4);
    const report: string[] = [];
    for (const [label, url, token] of endpoints()) {
      const after = await countQueries('GET', url, token());
      report.push(`${label}: ${before.get(label)!.count} → ${after.count}`);
      expect(after.count, `${label} grew with the data:\n${after.sql.join('\n')}`).toBe(before.get(label)!.count);
    }
    console.log(report.join('\n'));
  });
});
