import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helpers.js';
import { createWorld, type World } from './teamFixtures.js';

// Contract test of the User the original console reads (GET /user; docs/api-contract.md), beside
// specShapes.test.ts (the other entities). Each named field, aliases included, on SQLite and,
// with DATABASE_URL, on PostgreSQL:
// - User: id, firstname, lastname, email, email_verified_at, aup_accepted_at, admin, enabled,
//   authority, name, teams (tenants) with role, workspaces, requests;
// - the user's team entry: the Team's fields (id, name, fullname, shortname, city, country, url)
//   with its role and its workspaces (sub_namespaces / subnamespaces): those the user can see in
//   that team, with their role (the sidebar groups the user's workspaces by team);
// - the user's workspace entry: id, name, namespace, team / tenant (id, name), role.

type Json = Record<string, any>;

let ctx: TestContext;
let world: World;

const me = async (token: string): Promise<Json> => {
  const response = await ctx.inject('GET', '/user', { token });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};

const expectFields = (object: Json, fields: string[], what: string) => {
  for (const field of fields) expect(object, `${what}.${field}`).toHaveProperty(field);
};

beforeAll(async () => {
  ctx = await createTestContext();
  world = await createWorld(ctx);
  await ctx.db.updateTable('teams').set({ city: 'Paris' }).where('id', '=', world.team.id).execute();
});
afterAll(() => ctx.close());

describe('GET /user', () => {
  it('has every field of the User, teams also as tenants', async () => {
    const user = await me(world.people.wsMember.token);
    expectFields(
      user,
      ['id', 'firstname', 'lastname', 'email', 'email_verified_at', 'aup_accepted_at', 'admin', 'enabled', 'authority', 'name', 'teams', 'tenants', 'workspaces', 'requests'],
      'user',
    );
    expect(user).toMatchObject({ id: world.people.wsMember.user.id, firstname: 'Will', lastname: 'Wsmember', name: 'Will Wsmember', admin: false, enabled: true });
    expect(user.tenants).toEqual(user.teams);
  });

  it("each team entry has the team's city, country and url, its role, and its workspaces (sub_namespaces / subnamespaces) with their role", async () => {
    for (const [who, role] of [
      ['wsMember', 'member'],
      ['wsManager', 'manager'],
    ] as const) {
      const user = await me(world.people[who].token);
      const entry = user.teams.find((team: Json) => team.id === world.team.id);
      expectFields(entry, ['id', 'name', 'fullname', 'shortname', 'city', 'country', 'url', 'role', 'workspaces', 'sub_namespaces', 'subnamespaces'], `${who}: teams[]`);
      expect(entry).toMatchObject({ name: world.team.name, fullname: world.team.fullname, city: 'Paris', country: 'FR', url: 'https://example.org', role: 'member' });
      expect(entry.workspaces).toContainEqual(expect.objectContaining({ id: world.workspace.id, name: world.workspace.name, role }));
      for (const workspace of entry.workspaces) expectFields(workspace, ['id', 'name', 'role'], `${who}: teams[].workspaces[]`);
      expect(entry.sub_namespaces).toEqual(entry.workspaces);
      expect(entry.subnamespaces).toEqual(entry.workspaces);
    }
  });

  it('each workspace entry has id, name, namespace, team / tenant (id, name) and role', async () => {
    const user = await me(world.people.wsManager.token);
    const entry = user.workspaces.find((workspace: Json) => workspace.id === world.workspace.id);
    expectFields(entry, ['id', 'name', 'namespace', 'team', 'tenant', 'role'], 'workspaces[]');
    expect(entry).toMatchObject({ namespace: world.workspace.namespace, role: 'manager', team: { id: world.team.id, name: world.team.name } });
    expect(entry.tenant).toEqual(entry.team);
  });

  it('a team entry for someone in none of its workspaces still has the lists, empty or not', async () => {
    const user = await me(world.people.member.token);
    const entry = user.teams.find((team: Json) => team.id === world.team.id);
    expectFields(entry, ['city', 'country', 'url', 'role', 'workspaces', 'sub_namespaces', 'subnamespaces'], 'member: teams[]');
    expect(Array.isArray(entry.workspaces)).toBe(true);
    expect(entry.role).toBe('member');
  });
});
