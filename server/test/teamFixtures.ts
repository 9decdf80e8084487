import { timestamp } from '../src/db/database.js';
import type { TeamRole, WorkspaceRole } from '../src/db/schema.js';
import { type SignedInUser, type TestContext, unique } from './helpers.js';

// A small world for the team, workspace and request tests: one team with an owner, a manager,
// a member, a workspace manager (a team member managing the workspace), a manager whose
// membership is disabled; an outsider and a platform admin. Records are made directly in the
// database; the people log in through the API.

export async function insertTeam(ctx: TestContext, name = unique('team')) {
  const now = timestamp();
  return ctx.db
    .insertInto('teams')
    .values({
      name,
      fullname: `Team ${name}`,
      shortname: name,
      affiliation: 'University of X',
      city: null,
      country: 'FR',
      url: 'https://example.org',
      joining_reason: 'secret reason',
      joining_category: 'Research',
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function insertWorkspace(ctx: TestContext, team: { id: number; name: string }, name = unique('ws')) {
  const now = timestamp();
  return ctx.db
    .insertInto('workspaces')
    .values({ team_id: team.id, name, label: `Label ${name}`, description: 'A workspace', namespace: `${team.name}-${name}`, created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function addTeamMember(ctx: TestContext, teamId: number, userId: number, role: TeamRole, enabled = true) {
  await ctx.db
    .insertInto('team_members')
    .values({ team_id: teamId, user_id: userId, role, enabled: enabled ? 1 : 0, created_at: timestamp() })
    .execute();
}

export async function addWorkspaceMember(ctx: TestContext, workspaceId: number, userId: number, role: WorkspaceRole) {
  await ctx.db.insertInto('workspace_members').values({ workspace_id: workspaceId, user_id: userId, role, created_at: timestamp() }).execute();
}

export type World = Awaited<ReturnType<typeof createWorld>>;

export async function createWorld(ctx: TestContext) {
  const team = await insertTeam(ctx);
  const workspace = await insertWorkspace(ctx, team);
  const [owner, manager, member, wsManager, wsMember, disabledManager, outsider, admin] = await Promise.all([
    ctx.signedInUser({ firstname: 'Olivia', lastname: 'Owner' }),
    ctx.signedInUser({ firstname: 'Manu', lastname: 'Manager' }),
    ctx.signedInUser({ firstname: 'Mia', lastname: 'Member' }),
    ctx.signedInUser({ firstname: 'Wes', lastname: 'Wsmanager' }),
    ctx.signedInUser({ firstname: 'Will', lastname: 'Wsmember' }),
    ctx.signedInUser({ firstname: 'Dan', lastname: 'Disabled' }),
    ctx.signedInUser({ firstname: 'Otto', lastname: 'Outsider' }),
    ctx.signedInUser({ firstname: 'Ada', lastname: 'Admin', admin: true }),
  ]);
  await addTeamMember(ctx, team.id, owner.user.id, 'owner');
  await addTeamMember(ctx, team.id, manager.user.id, 'manager');
  await addTeamMember(ctx, team.id, member.user.id, 'member');
  await addTeamMember(ctx, team.id, wsManager.user.id, 'member');
  await addTeamMember(ctx, team.id, wsMember.user.id, 'member');
  await addTeamMember(ctx, team.id, disabledManager.user.id, 'manager', false);
  await addWorkspaceMember(ctx, workspace.id, wsManager.user.id, 'manager');
  await addWorkspaceMember(ctx, workspace.id, wsMember.user.id, 'member');
  await addWorkspaceMember(ctx, workspace.id, disabledManager.user.id, 'manager');
  const people = { owner, manager, member, wsManager, wsMember, disabledManager, outsider, admin };
  return { team, workspace, people };
}

export type RequesterRole = 'outsider' | 'member' | 'manager' | 'owner' | 'admin';

/** A new person with `role` in the world's team (a fresh one each time, so requests never collide). */
export async function newPerson(ctx: TestContext, world: World, role: RequesterRole): Promise<SignedInUser> {
  const person = await ctx.signedInUser({ firstname: `New${role}`, lastname: 'Person', admin: role === 'admin' });
  if (role === 'member' || role === 'manager' || role === 'owner') await addTeamMember(ctx, world.team.id, person.user.id, role);
  return person;
}

export type RequestType = 'CreateTeam' | 'JoinTeam' | 'CreateWorkspace' | 'JoinWorkspace';

/** Makes a request of `type` about the world's team or workspace (new names for the Create ones). */
export function submit(ctx: TestContext, world: World, type: RequestType, token: string) {
  switch (type) {
    case 'CreateTeam': {
      const shortname = unique('New Team ');
      return ctx.inject('POST', '/api/requests/teams', {
        token,
        body: {
          fullname: `Full ${shortname}`,
          shortname,
          affiliation: 'Uni',
          country: 'FR',
          url: 'https://team.example.org',
          joining_reason: 'Research on edges',
          joining_category: 'Research',
        },
      });
    }
    case 'JoinTeam':
      return ctx.inject('PATCH', '/api/requests/teams', { token, body: { team_id: world.team.id, message: 'Let me in' } });
    case 'CreateWorkspace':
      return ctx.inject('POST', '/api/requests/workspaces', {
        token,
        body: { label: 'New space', name: unique('space-'), team_id: world.team.id },
      });
    case 'JoinWorkspace':
      return ctx.inject('PATCH', '/api/requests/workspaces/', { token, body: { team_id: world.team.id, name: world.workspace.name } });
  }
}

/** Whether the request's approval took effect: the membership it grants exists. */
export async function membershipFor(ctx: TestContext, request: { type: RequestType; object: { name: string }; user: { id: number } }, world: World) {
  const userId = request.user.id;
  switch (request.type) {
    case 'CreateTeam': {
      const row = await ctx.db
        .selectFrom('team_members as tm')
        .innerJoin('teams as t', 't.id', 'tm.team_id')
        .select('tm.role')
        .where('t.name', '=', request.object.name)
        .where('tm.user_id', '=', userId)
        .executeTakeFirst();
      return row?.role ?? null;
    }
    case 'JoinTeam': {
      const row = await ctx.db.selectFrom('team_members').select('role').where('team_id', '=', world.team.id).where('user_id', '=', userId).executeTakeFirst();
      return row?.role ?? null;
    }
    case 'CreateWorkspace': {
      const row = await ctx.db
        .selectFrom('workspace_members as wm')
        .innerJoin('workspaces as w', 'w.id', 'wm.workspace_id')
        .select('wm.role')
        .where('w.team_id', '=', world.team.id)
        .where('w.name', '=', request.object.name)
        .where('wm.user_id', '=', userId)
        .executeTakeFirst();
      return row?.role ?? null;
    }
    case 'JoinWorkspace': {
      const row = await ctx.db
        .selectFrom('workspace_members')
        .select('role')
        .where('workspace_id', '=', world.workspace.id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row?.role ?? null;
    }
  }
}
