import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { timestamp } from '../src/db/database.js';
import { createTestContext, type SignedInUser, type TestContext, unique, uniqueEmail } from './helpers.js';
import { addTeamMember } from './teamFixtures.js';

// A member removed from a team (or leaving it) has their pending requests that only
// made sense as a member closed: JoinWorkspace and CreateWorkspace in that team are Denied with
// "You are no longer a member of this team.", recorded, the requester gets RequestDecided and
// the deciders RequestClosed (their badges drop it). Other requests stay. Every kind of caller;
// on SQLite, or PostgreSQL with DATABASE_URL.

const MESSAGE = 'You are no longer a member of this team.';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext({ config: { cluster: 'none' } });
}, 30_000);

afterAll(async () => {
  await ctx?.close();
});

beforeEach(() => {
  ctx.broadcasts.length = 0;
});

const db = () => ctx.db;

const person = (firstname: string, options: { admin?: boolean } = {}) =>
  ctx.signedInUser({ firstname, lastname: 'Tester', email: uniqueEmail(firstname.toLowerCase()), admin: options.admin ?? false });

async function insertTeam() {
  const name = unique('mr');
  const now = timestamp();
  return db()
    .insertInto('teams')
    .values({ name, fullname: `Team ${name}`, shortname: name, affiliation: 'Uni', city: null, country: 'FR', url: null, joining_reason: null, joining_category: 'Research', created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
}
async function insertWorkspace(team: { id: number; name: string }, name: string, managerId: number) {
  const now = timestamp();
  const workspace = await db()
    .insertInto('workspaces')
    .values({ team_id: team.id, name, label: name, description: null, namespace: `${team.name}-${name}`, created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  await db().insertInto('workspace_members').values({ workspace_id: workspace.id, user_id: managerId, role: 'manager', created_at: now }).execute();
  return workspace;
}

/**
 * A team with an owner, a manager, a workspace manager (a plain team member managing `lab`) and
 * two members who each have pending requests there (joining `lab`, a new workspace) and one in
 * another team; an outsider and a platform admin.
 */
async function world() {
  const [owner, manager, wsManager, member, other, outsider, admin] = await Promise.all([
    person('Olivia'),
    person('Manu'),
    person('Wes'),
    person('Mia'),
    person('Max'),
    person('Otto'),
    person('Ada', { admin: true }),
  ]);
  const team = await insertTeam();
  const elsewhere = await insertTeam();
  await addTeamMember(ctx, team.id, owner.user.id, 'owner');
  await addTeamMember(ctx, team.id, manager.user.id, 'manager');
  await addTeamMember(ctx, team.id, wsManager.user.id, 'member');
  await addTeamMember(ctx, elsewhere.id, owner.user.id, 'owner');
  const lab = await insertWorkspace(team, 'lab', wsManager.user.id);
  await insertWorkspace(elsewhere, 'far', owner.user.id);
  const requestsOf = async (someone: SignedInUser) => {
    await addTeamMember(ctx, team.id, someone.user.id, 'member');
    await addTeamMember(ctx, elsewhere.id, someone.user.id, 'member');
    const join = await ctx.inject('PATCH', '/api/requests/workspaces/', { token: someone.token, body: { team_id: team.id, name: 'lab' } });
    const create = await ctx.inject('POST', '/api/requests/workspaces', { token: someone.token, body: { team_id: team.id, label: 'New', name: unique('new') } });
    const far = await ctx.inject('PATCH', '/api/requests/workspaces/', { token: someone.token, body: { team_id: elsewhere.id, name: 'far' } });
    for (const response of [join, create, far]) expect(response.statusCode, response.body).toBe(201);
    for (const response of [join, create, far]) expect(response.json().status).toBe('Pending');
    return { join: join.json().id as number, create: create.json().id as number, far: far.json().id as number };
  };
  const requests = { member: await requestsOf(member), other: await requestsOf(other) };
  await ctx.idle();
  ctx.broadcasts.length = 0;
  return { team, lab, people: { owner, manager, wsManager, member, other, outsider, admin }, requests };
}
type World = Awaited<ReturnType<typeof world>>;

const request = (id: number) => db().selectFrom('requests').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const remove = (w: World, target: SignedInUser, caller: SignedInUser) => ctx.inject('DELETE', `/api/tenants/${w.team.id}/users/${target.user.id}`, { token: caller.token });
const pendingFor = async (someone: SignedInUser) =>
  ((await ctx.inject('GET', '/api/requests?status=Pending', { token: someone.token })).json() as { id: number }[]).map((item) => item.id);

/** The member's two requests in the team are closed, decided by `decider`; the one elsewhere and the other member's stay. */
async function expectClosed(w: World, whose: 'member' | 'other', decider: SignedInUser) {
  const mine = w.requests[whose];
  for (const id of [mine.join, mine.create]) {
    expect(await request(id)).toMatchObject({ status: 'Denied', decision_message: MESSAGE, decided_by: decider.user.id });
    const entries = await db().selectFrom('activity_log').select(['description', 'causer_id', 'properties']).where('subject_type', '=', 'request').where('subject_id', '=', id).orderBy('id').execute();
    expect(entries.at(-1)).toMatchObject({ description: 'request denied', causer_id: decider.user.id });
    expect(JSON.parse(entries.at(-1)!.properties)).toMatchObject({ severity: 'warning', status: 'Denied', automatic: true, reason: 'team membership ended', requester_id: w.people[whose].user.id });
  }
  expect((await request(mine.far)).status).toBe('Pending');
}

describe('removing a team member closes their pending requests in the team', () => {
  it('the owner removes a member: JoinWorkspace and CreateWorkspace there are Denied, recorded, told; the rest stays', async () => {
    const w = await world();
    const { owner, manager, wsManager, member } = w.people;
    expect(await pendingFor(owner)).toEqual(expect.arrayContaining([w.requests.member.join, w.requests.member.create]));
    const response = await remove(w, member, owner);
    expect(response.statusCode, response.body).toBe(204);
    await expectClosed(w, 'member', owner);
    expect((await request(w.requests.other.join)).status).toBe('Pending');
    expect((await request(w.requests.other.create)).status).toBe('Pending');

    const removal = await db().selectFrom('activity_log').select('properties').where('description', '=', 'team member removed').where('subject_id', '=', w.team.id).executeTakeFirstOrThrow();
    expect(JSON.parse(removal.properties).closed_requests).toEqual([w.requests.member.join, w.requests.member.create]);

    // The deciders' pending lists (and so their badges) no longer have them.
    for (const decider of [owner, manager]) {
      const pending = await pendingFor(decider);
      expect(pending).not.toContain(w.requests.member.join);
      expect(pending).not.toContain(w.requests.member.create);
      expect(pending).toContain(w.requests.other.join);
    }
    // The requester sees why, in their own requests.
    const own = (await ctx.inject('GET', '/user', { token: member.token })).json().requests as { id: number; status: string; decision_message: string | null }[];
    expect(own.find((item) => item.id === w.requests.member.join)).toMatchObject({ status: 'Denied', decision_message: MESSAGE });

    await ctx.idle();
    const decided = ctx.broadcasts.filter((entry) => entry.event === 'RequestDecided');
    expect(decided.map((entry) => [entry.userId, entry.payload.id]).sort()).toEqual(
      [[member.user.id, w.requests.member.join], [member.user.id, w.requests.member.create]].sort(),
    );
    expect(decided[0]!.payload).toMatchObject({ status: 'Denied', decision_message: MESSAGE, can_decide: false });
    const closed = ctx.broadcasts.filter((entry) => entry.event === 'RequestClosed');
    const told = (id: number) => closed.filter((entry) => entry.payload.id === id).map((entry) => entry.userId).sort();
    // JoinWorkspace: the team's owner and manager and the workspace's manager; CreateWorkspace: the team's.
    expect(told(w.requests.member.join)).toEqual([owner.user.id, manager.user.id, wsManager.user.id].sort());
    expect(told(w.requests.member.create)).toEqual([owner.user.id, manager.user.id].sort());
    expect(closed.every((entry) => entry.payload.status === 'Denied' && entry.payload.can_decide === false)).toBe(true);
    expect(closed.some((entry) => entry.userId === member.user.id)).toBe(false);

    // Once out, they may ask again (the closed request does not count as a pending duplicate).
    const again = await ctx.inject('PATCH', '/api/requests/workspaces/', { token: member.token, body: { team_id: w.team.id, name: 'lab' } });
    expect(again.statusCode, again.body).toBe(201);
  });

  it('a member who leaves closes their own; decided by themselves', async () => {
    const w = await world();
    const response = await remove(w, w.people.member, w.people.member);
    expect(response.statusCode, response.body).toBe(204);
    await expectClosed(w, 'member', w.people.member);
    expect((await request(w.requests.other.join)).status).toBe('Pending');
    const left = await db().selectFrom('activity_log').select('properties').where('description', '=', 'team left').where('subject_id', '=', w.team.id).executeTakeFirstOrThrow();
    expect(JSON.parse(left.properties).closed_requests).toHaveLength(2);
  });

  it('a platform admin removes a member; a manager removes several at once (bulk), and refused ones keep theirs', async () => {
    const w = await world();
    expect((await remove(w, w.people.other, w.people.admin)).statusCode).toBe(204);
    await expectClosed(w, 'other', w.people.admin);
    expect((await request(w.requests.member.join)).status).toBe('Pending');

    const v = await world();
    const bulk = await ctx.inject('POST', `/api/tenants/${v.team.id}/users/bulk`, {
      token: v.people.manager.token,
      body: { user_ids: [v.people.member.user.id, v.people.owner.user.id, v.people.other.user.id], action: 'remove' },
    });
    expect(bulk.statusCode, bulk.body).toBe(200);
    expect(bulk.json().totals).toEqual({ done: 2, forbidden: 1, not_found: 0, conflict: 0 });
    expect(bulk.json()).not.toHaveProperty('closed_requests');
    await expectClosed(v, 'member', v.people.manager);
    await expectClosed(v, 'other', v.people.manager);
    await ctx.idle();
    expect(ctx.broadcasts.filter((entry) => entry.event === 'RequestDecided')).toHaveLength(4);
    expect(ctx.broadcasts.filter((entry) => entry.event === 'RequestClosed' && entry.userId === v.people.owner.user.id)).toHaveLength(4);
  });

  it('a refused removal closes nothing: an outsider, a plain member, a workspace manager (403), anonymous (401)', async () => {
    const w = await world();
    const { member, outsider, other, wsManager } = w.people;
    for (const caller of [outsider, other, wsManager]) expect((await remove(w, member, caller)).statusCode).toBe(403);
    expect((await ctx.inject('DELETE', `/api/tenants/${w.team.id}/users/${member.user.id}`)).statusCode).toBe(401);
    const bulk = await ctx.inject('POST', `/api/tenants/${w.team.id}/users/bulk`, { token: other.token, body: { user_ids: [member.user.id], action: 'remove' } });
    expect(bulk.statusCode).toBe(403);
    for (const id of [w.requests.member.join, w.requests.member.create]) expect((await request(id)).status).toBe('Pending');
    await ctx.idle();
    expect(ctx.broadcasts).toEqual([]);
  });

  it('changing a role closes nothing', async () => {
    const w = await world();
    const response = await ctx.inject('PATCH', `/api/tenants/${w.team.id}/users/${w.people.member.user.id}`, { token: w.people.owner.token, body: { role: 'manager' } });
    expect(response.statusCode, response.body).toBe(200);
    expect((await request(w.requests.member.join)).status).toBe('Pending');
  });
});
