import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type SignedInUser, type TestContext } from './helpers.js';
import { addWorkspaceMember, createWorld, insertWorkspace, type World } from './teamFixtures.js';

// GET /user, which the console's sidebar is built from: a team suspended by platform
// admins is not among `teams` (nobody has a role in it), nor its workspaces among
// `workspaces`, and is listed apart in `suspended_teams` with the person's workspaces there, so
// that the sidebar marks them instead of losing them. Every kind of member; both databases.

let ctx: TestContext;
let world: World;
let onlyInWorkspace: SignedInUser;
let otherWorkspace: { id: number; name: string; label: string; namespace: string };

const me = async (person: SignedInUser) => {
  const response = await ctx.inject('GET', '/user', { token: person.token });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as {
    teams: { id: number }[];
    workspaces: { id: number }[];
    suspended_teams: { id: number; name: string; fullname: string; shortname: string; role: string | null; workspaces: { id: number; name: string; label: string; namespace: string }[] }[];
  };
};
const setEnabled = async (enabled: boolean) => {
  const response = await ctx.inject('PATCH', `/api/admin/teams/${world.team.id}`, { token: world.people.admin.token, body: { enabled } });
  expect(response.statusCode, response.body).toBe(200);
};

beforeAll(async () => {
  ctx = await createTestContext();
  world = await createWorld(ctx);
  // Someone in one of the team's workspaces without being in the team (a JoinWorkspace approved for a non-member).
  onlyInWorkspace = await ctx.signedInUser({ firstname: 'Wanda', lastname: 'Wsonly' });
  otherWorkspace = await insertWorkspace(ctx, world.team);
  await addWorkspaceMember(ctx, otherWorkspace.id, onlyInWorkspace.user.id, 'member');
  await addWorkspaceMember(ctx, otherWorkspace.id, world.people.wsMember.user.id, 'member');
}, 30_000);
afterAll(async () => {
  await ctx?.close();
});

describe('GET /user and a suspended team', () => {
  it('lists no suspended team while the team is enabled', async () => {
    for (const person of Object.values(world.people)) expect((await me(person)).suspended_teams).toEqual([]);
    expect((await me(world.people.wsMember)).workspaces.map((workspace) => workspace.id).sort()).toEqual([world.workspace.id, otherWorkspace.id].sort());
  });

  it('moves the team and its workspaces to suspended_teams, with each member’s role and workspaces there', async () => {
    await setEnabled(false);
    try {
      const { team, workspace, people } = world;
      const expected = (role: string | null, workspaces: { id: number; name: string; label: string; namespace: string }[]) => [
        { id: team.id, name: team.name, fullname: team.fullname, shortname: team.shortname, role, workspaces },
      ];
      const ws = { id: workspace.id, name: workspace.name, label: workspace.label, namespace: workspace.namespace };
      const other = { id: otherWorkspace.id, name: otherWorkspace.name, label: otherWorkspace.label, namespace: otherWorkspace.namespace };
      const byName = <T extends { name: string }>(list: T[]) => [...list].sort((a, b) => (a.name < b.name ? -1 : 1));

      for (const [person, role, workspaces] of [
        [people.owner, 'owner', []],
        [people.manager, 'manager', []],
        [people.member, 'member', []],
        [people.wsManager, 'member', [ws]],
        [people.wsMember, 'member', byName([ws, other])],
        [onlyInWorkspace, null, [other]],
      ] as const) {
        const answer = await me(person);
        expect(answer.suspended_teams, person.user.firstname).toEqual(expected(role, [...workspaces]));
        expect(answer.teams.map((item) => item.id)).not.toContain(team.id);
        expect(answer.workspaces).toEqual([]);
      }
      // A disabled membership gives nothing, suspended or not; outsiders and admins from outside see nothing.
      for (const person of [people.disabledManager, people.outsider, people.admin]) expect((await me(person)).suspended_teams).toEqual([]);
      // The other answers that carry the user say the same.
      const patched = await ctx.inject('PATCH', '/user', { token: people.owner.token, body: { firstname: 'Olivia', lastname: 'Owner' } });
      expect(patched.json().suspended_teams).toEqual(expected('owner', []));
    } finally {
      await setEnabled(true);
    }
  });

  it('gives everything back once the team is enabled again', async () => {
    const answer = await me(world.people.wsMember);
    expect(answer.suspended_teams).toEqual([]);
    expect(answer.teams.map((item) => item.id)).toContain(world.team.id);
    expect(answer.workspaces.map((workspace) => workspace.id).sort()).toEqual([world.workspace.id, otherWorkspace.id].sort());
  });

  it('is only ever about the caller: 401 without a token; a new account has none', async () => {
    expect((await ctx.inject('GET', '/user')).statusCode).toBe(401);
    const registered = await ctx.register();
    expect(registered.statusCode, registered.body).toBe(201);
    expect(registered.json().user.suspended_teams).toEqual([]);
  });
});
