import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helpers.js';
import { addTeamMember, addWorkspaceMember, createWorld, insertTeam, insertWorkspace, newPerson, submit, type World } from './teamFixtures.js';

let ctx: TestContext;
let world: World;
beforeAll(async () => {
  ctx = await createTestContext();
  world = await createWorld(ctx);
});
afterAll(() => ctx.close());

const endpoints = () =>
  [
    ['GET', '/api/tenants'],
    ['GET', `/api/tenants/${world.team.id}`],
    ['GET', `/api/subnamespaces/${world.workspace.id}`],
    ['POST', '/api/requests/teams'],
    ['PATCH', '/api/requests/teams'],
    ['POST', '/api/requests/workspaces'],
    ['PATCH', '/api/requests/workspaces/'],
    ['GET', '/api/requests'],
    ['PATCH', '/api/requests/1'],
    ['GET', '/api/admin/teams'],
    ['GET', '/api/admin/workspaces'],
    ['GET', '/api/admin/users'],
    ['GET', '/api/admin/activity'],
  ] as const;

describe('authentication and onboarding on every new endpoint', () => {
  it('answers 401 without a token and 403 (with the step) before onboarding', async () => {
    const notVerified = await ctx.createUser({ verified: false });
    const token = await ctx.login(notVerified.user.email);
    for (const [method, url] of endpoints()) {
      const anonymous = await ctx.inject(method, url, { body: method === 'GET' ? undefined : {} });
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
      expect(anonymous.json()).toEqual({ message: 'Unauthenticated.' });
      const early = await ctx.inject(method, url, { token, body: method === 'GET' ? undefined : {} });
      expect(early.statusCode, `${method} ${url}`).toBe(403);
      expect(early.json().onboarding).toBe('verify-email');
    }
  });

  it('keeps the admin lists to platform admins (403 {message} for everyone else)', async () => {
    for (const role of ['outsider', 'member', 'manager', 'owner', 'wsManager'] as const) {
      for (const list of ['teams', 'workspaces', 'users', 'activity']) {
        const response = await ctx.inject('GET', `/api/admin/${list}`, { token: world.people[role].token });
        expect(response.statusCode, `${role} ${list}`).toBe(403);
        expect(response.json()).toEqual({ message: 'This action is unauthorized.' });
      }
    }
    for (const list of ['teams', 'workspaces', 'users', 'activity']) {
      expect((await ctx.inject('GET', `/api/admin/${list}`, { token: world.people.admin.token })).statusCode).toBe(200);
    }
  });
});

describe('GET /api/tenants/{id-or-name}', () => {
  it.each([
    ['outsider', null, false],
    ['member', 'member', true],
    ['manager', 'manager', true],
    ['owner', 'owner', true],
    ['disabledManager', null, false],
    ['admin', null, true],
  ] as const)('as %s: role %s, members shown %s', async (who, role, full) => {
    const response = await ctx.inject('GET', `/api/tenants/${world.team.id}`, { token: world.people[who].token });
    expect(response.statusCode).toBe(200);
    const team = response.json();
    expect(team).toMatchObject({
      id: world.team.id,
      name: world.team.name,
      fullname: world.team.fullname,
      role,
      member: role !== null,
      workspaces: [{ id: world.workspace.id, name: world.workspace.name, label: world.workspace.label, namespace: world.workspace.namespace }],
    });
    expect(team.subnamespaces).toEqual(team.workspaces);
    expect(team.sub_namespaces).toEqual(team.workspaces);
    if (full) {
      expect(team.joining_reason).toBe('secret reason');
      const owner = team.users.find((user: { id: number }) => user.id === world.people.owner.user.id);
      expect(owner).toEqual({
        id: world.people.owner.user.id,
        name: 'Olivia Owner',
        firstname: 'Olivia',
        lastname: 'Owner',
        email: world.people.owner.user.email,
        enabled: true,
        pivot: { role: 'owner', expires_at: null },
      });
      const disabled = team.users.find((user: { id: number }) => user.id === world.people.disabledManager.user.id);
      expect(disabled.enabled).toBe(false);
    } else {
      // Always there, so that a client mapping over it does not break; empty.
      expect(team.users).toEqual([]);
      expect(team.joining_reason).toBeUndefined();
    }
  });

  it('finds a team by name, answers 404 for unknown ones, and shows the caller their pending join request', async () => {
    const requester = await newPerson(ctx, world, 'outsider');
    const request = (await submit(ctx, world, 'JoinTeam', requester.token)).json();
    const byName = (await ctx.inject('GET', `/api/tenants/${world.team.name}`, { token: requester.token })).json();
    expect(byName.id).toBe(world.team.id);
    expect(byName.pending_request).toMatchObject({ id: request.id, type: 'JoinTeam', status: 'Pending' });
    for (const missing of ['999999', 'no-such-team', '99999999999999999999', 'x'.repeat(300)]) {
      expect((await ctx.inject('GET', `/api/tenants/${missing}`, { token: requester.token })).statusCode).toBe(404);
    }
  });

  it('GET /api/tenants lists every team, public part only', async () => {
    const response = await ctx.inject('GET', '/api/tenants', { token: world.people.owner.token });
    expect(response.statusCode).toBe(200);
    const mine = response.json().find((team: { id: number }) => team.id === world.team.id);
    expect(mine).toMatchObject({ role: 'owner', member: true });
    expect(mine.users).toEqual([]);
  });
});

describe('GET /api/subnamespaces/{id}', () => {
  it.each([
    ['outsider', null, false, false],
    ['member', null, false, true],
    ['manager', null, true, true],
    ['owner', null, true, true],
    ['wsManager', 'manager', true, true],
    ['wsMember', 'member', false, true],
    ['disabledManager', null, false, false],
    ['admin', null, true, true],
  ] as const)('as %s: role %s, can_manage %s, emails %s', async (who, role, canManage, emails) => {
    const response = await ctx.inject('GET', `/api/subnamespaces/${world.workspace.id}`, { token: world.people[who].token });
    expect(response.statusCode).toBe(200);
    const workspace = response.json();
    expect(workspace).toMatchObject({
      id: world.workspace.id,
      name: world.workspace.name,
      namespace: world.workspace.namespace,
      team: { id: world.team.id, name: world.team.name, fullname: world.team.fullname },
      tenant: { id: world.team.id, name: world.team.name },
      role,
      member: role !== null,
      can_manage: canManage,
    });
    // Names for everyone; emails for those who see the team's members (its members, platform admins).
    expect(workspace.users).toContainEqual({
      id: world.people.wsManager.user.id,
      name: 'Wes Wsmanager',
      firstname: 'Wes',
      lastname: 'Wsmanager',
      email: emails ? world.people.wsManager.user.email : null,
      enabled: true,
      pivot: { role: 'manager' },
    });
    if (!emails) expect(JSON.stringify(workspace)).not.toContain('@example.org');
  });

  it('shows pending join requests to their requester and to those who may decide them', async () => {
    const requester = await newPerson(ctx, world, 'outsider');
    const request = (await submit(ctx, world, 'JoinWorkspace', requester.token)).json();
    const seen = async (token: string) =>
      ((await ctx.inject('GET', `/api/subnamespaces/${world.workspace.id}`, { token })).json().requests as { id: number }[]).some((entry) => entry.id === request.id);
    expect(await seen(requester.token)).toBe(true);
    expect(await seen(world.people.wsManager.token)).toBe(true);
    expect(await seen(world.people.owner.token)).toBe(true);
    expect(await seen(world.people.member.token)).toBe(false);
    expect(await seen(world.people.outsider.token)).toBe(false);
  });

  it('answers 404 for unknown or malformed ids', async () => {
    for (const id of ['999999', 'abc', '1.5', '99999999999999999999']) {
      expect((await ctx.inject('GET', `/api/subnamespaces/${id}`, { token: world.people.member.token })).statusCode).toBe(404);
    }
  });
});

describe('GET /user teams, workspaces and requests', () => {
  it('lists enabled memberships with roles and the own requests, newest first', async () => {
    const person = await ctx.signedInUser({ firstname: 'Grace', lastname: 'User' });
    const other = await insertTeam(ctx);
    const otherWorkspace = await insertWorkspace(ctx, other);
    await addTeamMember(ctx, world.team.id, person.user.id, 'manager');
    await addTeamMember(ctx, other.id, person.user.id, 'member', false);
    await addWorkspaceMember(ctx, world.workspace.id, person.user.id, 'member');
    await addWorkspaceMember(ctx, otherWorkspace.id, person.user.id, 'manager');
    const first = (await submit(ctx, world, 'CreateTeam', person.token)).json();
    const second = (await submit(ctx, world, 'CreateWorkspace', person.token)).json();

    const user = (await ctx.inject('GET', '/user', { token: person.token })).json();
    const teamWorkspaces = [
      { id: world.workspace.id, name: world.workspace.name, label: world.workspace.label, namespace: world.workspace.namespace, role: 'member' },
      expect.objectContaining({ id: second.object.id, role: 'manager' }),
    ];
    expect(user.teams).toEqual([
      {
        id: world.team.id,
        name: world.team.name,
        fullname: world.team.fullname,
        shortname: world.team.shortname,
        city: world.team.city,
        country: world.team.country,
        url: world.team.url,
        role: 'manager',
        // No review date: a team made directly in the database (docs/lifecycle.md).
        expires_at: null,
        status: 'active',
        // The team's workspaces (the user's, with their role), under its three names (docs/api-contract.md).
        workspaces: expect.arrayContaining(teamWorkspaces),
        sub_namespaces: expect.arrayContaining(teamWorkspaces),
        subnamespaces: expect.arrayContaining(teamWorkspaces),
      },
    ]);
    expect(user.teams[0].workspaces).toHaveLength(2);
    expect(user.tenants).toEqual(user.teams);
    // The workspace created at once (manager of the team) and the one joined; not the one of the disabled team.
    expect(user.workspaces).toEqual(
      expect.arrayContaining([
        {
          id: world.workspace.id,
          name: world.workspace.name,
          label: world.workspace.label,
          namespace: world.workspace.namespace,
          team: { id: world.team.id, name: world.team.name },
          tenant: { id: world.team.id, name: world.team.name },
          role: 'member',
          expires_at: null,
          ends_at: null,
          status: 'active',
        },
        expect.objectContaining({ id: second.object.id, role: 'manager', team: { id: world.team.id, name: world.team.name } }),
      ]),
    );
    expect(user.workspaces.some((workspace: { id: number }) => workspace.id === otherWorkspace.id)).toBe(false);
    expect(user.requests.map((request: { id: number }) => request.id)).toEqual([second.id, first.id]);
    expect(user.requests[1]).toMatchObject({ type: 'CreateTeam', status: 'Pending', can_decide: false, user: { id: person.user.id } });
  });
});
