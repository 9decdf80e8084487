import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDENTITY_NAMESPACE } from '../src/cluster/gateway.js';
import { timestamp } from '../src/db/database.js';
import { deleteWorkspace } from '../src/workspaces/deletion.js';
import { createTestContext, type SignedInUser, type TestContext, unique, uniqueEmail } from './helpers.js';
import { addTeamMember, addWorkspaceMember } from './teamFixtures.js';

// Teams and team members: GET/PATCH/DELETE /api/admin/teams/{id} and
// PATCH/DELETE /api/tenants/{id}/users/{userId}, POST /api/tenants/{id}/users/bulk, for every
// kind of caller, with their effects on the real sandbox cluster (over HTTPS, through the
// gateway and the reconciler) and on the realtime rights (a recording broadcaster).

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext({
    cluster: { timings: { scheduleMs: 30, startMs: 80, logIntervalMs: 150, heartbeatMs: 400, terminationMs: 100 } },
    // Not started: each test makes its passes with reconcileOnce, so what it sees is what it did.
    reconciler: true,
  });
});

afterAll(async () => {
  await ctx?.close();
});

const person = (firstname: string, options: { admin?: boolean } = {}) =>
  ctx.signedInUser({ firstname, lastname: 'Tester', email: uniqueEmail(firstname.toLowerCase()), admin: options.admin ?? false });

/** A team with an owner, a manager and two members, a workspace (in the cluster) that the members use; an outsider and an admin. */
async function world(options: { workspaces?: number } = {}) {
  const [owner, manager, member, other, outsider, admin] = await Promise.all([
    person('Olivia'),
    person('Manu'),
    person('Mia'),
    person('Max'),
    person('Otto'),
    person('Ada', { admin: true }),
  ]);
  const name = unique('ta');
  const now = timestamp();
  const team = await ctx.db
    .insertInto('teams')
    .values({ name, fullname: `Team ${name}`, shortname: name, affiliation: 'Uni', city: null, country: 'FR', url: 'https://example.org', joining_reason: 'why', joining_category: 'Research', created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  await addTeamMember(ctx, team.id, owner.user.id, 'owner');
  await addTeamMember(ctx, team.id, manager.user.id, 'manager');
  await addTeamMember(ctx, team.id, member.user.id, 'member');
  await addTeamMember(ctx, team.id, other.user.id, 'member');
  const workspaces = [];
  for (let index = 0; index < (options.workspaces ?? 1); index++) {
    const wsName = `ws${index}`;
    const workspace = await ctx.db
      .insertInto('workspaces')
      .values({ team_id: team.id, name: wsName, label: `Space ${index}`, description: null, namespace: `${name}-${wsName}`, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
    await addWorkspaceMember(ctx, workspace.id, member.user.id, 'member');
    await addWorkspaceMember(ctx, workspace.id, manager.user.id, 'manager');
    workspaces.push(workspace);
  }
  expect((await ctx.reconciler.reconcileOnce()).failed).toBe(0);
  return { team, workspaces, workspace: workspaces[0], people: { owner, manager, member, other, outsider, admin } };
}

const store = () => ctx.cluster.sandbox.store;
const serviceAccount = (userId: number, workspaceId: number) => store().get('serviceaccounts', IDENTITY_NAMESPACE, `member-w${workspaceId}-u${userId}`);
const binding = (namespace: string, userId: number) => store().get('rolebindings', namespace, `testbed-user-${userId}`);
const activity = (subjectType: string, subjectId: number) =>
  ctx.db.selectFrom('activity_log').select(['description', 'causer_id', 'properties']).where('subject_type', '=', subjectType).where('subject_id', '=', subjectId).orderBy('id').execute();
const teamRole = async (teamId: number, userId: number) =>
  (await ctx.db.selectFrom('team_members').select('role').where('team_id', '=', teamId).where('user_id', '=', userId).executeTakeFirst())?.role ?? null;

describe('GET /api/admin/teams/{id}', () => {
  it('shows an admin the team with members and roles, workspaces, quotas, counts and activity; 403 for everyone else, 401 anonymous, 404 unknown', async () => {
    const { team, workspace, people } = await world();
    const answer = await ctx.inject('GET', `/api/admin/teams/${team.id}`, { token: people.admin.token });
    expect(answer.statusCode).toBe(200);
    const body = answer.json();
    expect(body).toMatchObject({ id: team.id, name: team.name, enabled: true, counts: { members: 4, owners: 1, managers: 1, workspaces: 1, workspace_members: 2, pending_requests: 0 } });
    expect(body.members.map((member: { id: number; role: string }) => [member.id, member.role])).toEqual([
      [people.owner.user.id, 'owner'],
      [people.manager.user.id, 'manager'],
      [people.member.user.id, 'member'],
      [people.other.user.id, 'member'],
    ]);
    expect(body.workspaces).toEqual([expect.objectContaining({ id: workspace.id, namespace: workspace.namespace, member_count: 2, cluster_state: 'ready', quota: expect.objectContaining({ pods: '50' }) })]);
    for (const who of ['owner', 'manager', 'member', 'outsider'] as const) {
      expect((await ctx.inject('GET', `/api/admin/teams/${team.id}`, { token: people[who].token })).statusCode, who).toBe(403);
    }
    expect((await ctx.inject('GET', `/api/admin/teams/${team.id}`)).statusCode).toBe(401);
    expect((await ctx.inject('GET', '/api/admin/teams/999999', { token: people.admin.token })).statusCode).toBe(404);
  });
});

describe('PATCH /api/admin/teams/{id}', () => {
  it('lets an admin edit the fullname, url, country and affiliation (recorded); 422 with field messages; 403 for the team itself and outsiders', async () => {
    const { team, people } = await world({ workspaces: 0 });
    const changes = { fullname: 'Renamed Lab', url: 'https://renamed.example.org', country: 'DE', affiliation: 'Other Uni' };
    const answer = await ctx.inject('PATCH', `/api/admin/teams/${team.id}`, { token: people.admin.token, body: changes });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject(changes);
    expect(await activity('team', team.id)).toContainEqual(expect.objectContaining({ description: 'team updated', causer_id: people.admin.user.id }));

    const invalid = await ctx.inject('PATCH', `/api/admin/teams/${team.id}`, { token: people.admin.token, body: { fullname: '', url: 'ftp://x', enabled: 'yes' } });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().errors).toEqual({
      fullname: ['The fullname field is required.'],
      url: ['Invalid URL'],
      enabled: ['The enabled field must be true or false.'],
    });
    for (const who of ['owner', 'manager', 'member', 'outsider'] as const) {
      expect((await ctx.inject('PATCH', `/api/admin/teams/${team.id}`, { token: people[who].token, body: { fullname: 'Mine' } })).statusCode, who).toBe(403);
    }
    expect((await ctx.inject('PATCH', `/api/admin/teams/${team.id}`, { body: { fullname: 'Mine' } })).statusCode).toBe(401);
    expect((await ctx.db.selectFrom('teams').select('fullname').where('id', '=', team.id).executeTakeFirstOrThrow()).fullname).toBe('Renamed Lab');
  });

  it('suspending a team revokes its members’ cluster access and rights until it is enabled again', async () => {
    const { team, workspace, people } = await world();
    const { member, manager } = people;
    expect(binding(workspace.namespace, member.user.id)).toBeDefined();
    expect((await ctx.inject('POST', `/api/subnamespaces/${workspace.id}/kubeconfig`, { token: member.token })).statusCode).toBe(201);

    ctx.rightsChanges.length = 0;
    const suspended = await ctx.inject('PATCH', `/api/admin/teams/${team.id}`, { token: people.admin.token, body: { enabled: false } });
    expect(suspended.statusCode).toBe(200);
    expect(suspended.json().enabled).toBe(false);
    // The admin teams list says so too.
    const listed = (await ctx.inject('GET', `/api/admin/teams?q=${encodeURIComponent(team.name)}`, { token: people.admin.token })).json();
    // (Without ?page the list answers a plain array, as the spec's first console reads it.)
    expect(listed.find((row: { id: number }) => row.id === team.id)).toMatchObject({ enabled: false });
    expect(ctx.rightsChanges.flat()).toEqual(expect.arrayContaining([member.user.id, manager.user.id, people.owner.user.id]));
    // No rights in the suspended team: no kubeconfig, no member management.
    expect((await ctx.inject('POST', `/api/subnamespaces/${workspace.id}/kubeconfig`, { token: member.token })).statusCode).toBe(403);
    expect((await ctx.inject('PATCH', `/api/tenants/${team.id}/users/${member.user.id}`, { token: people.owner.token, body: { role: 'manager' } })).statusCode).toBe(403);
    expect((await ctx.inject('GET', `/api/tenants/${team.id}`, { token: member.token })).json()).toMatchObject({ enabled: false, role: null, member: false });
    expect((await ctx.reconciler.reconcileOnce()).failed).toBe(0);
    expect(binding(workspace.namespace, member.user.id)).toBeUndefined();
    expect(binding(workspace.namespace, manager.user.id)).toBeUndefined();
    expect(await activity('team', team.id)).toContainEqual(expect.objectContaining({ description: 'team suspended' }));

    const enabled = await ctx.inject('PATCH', `/api/admin/teams/${team.id}`, { token: people.admin.token, body: { enabled: true } });
    expect(enabled.json().enabled).toBe(true);
    expect((await ctx.reconciler.reconcileOnce()).failed).toBe(0);
    expect(binding(workspace.namespace, member.user.id)?.roleRef.name).toBe('testbed-workspace-member');
    expect(binding(workspace.namespace, manager.user.id)?.roleRef.name).toBe('testbed-workspace-manager');
    expect((await ctx.inject('POST', `/api/subnamespaces/${workspace.id}/kubeconfig`, { token: member.token })).statusCode).toBe(201);
    expect(await activity('team', team.id)).toContainEqual(expect.objectContaining({ description: 'team enabled' }));
  });
});

describe('DELETE /api/admin/teams/{id}', () => {
  it('is refused while the team has workspaces, says what a cascade would delete (dry run, nothing changed), then deletes the namespaces through the reconciler', async () => {
    const { team, workspaces, people } = await world({ workspaces: 3 });
    const names = workspaces.map((workspace) => workspace.name).sort();
    const refused = await ctx.inject('DELETE', `/api/admin/teams/${team.id}`, { token: people.admin.token });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(`The team Team ${team.name} still has 3 workspaces: ${names.join(', ')}. Delete them first, or delete the team with its workspaces.`);

    const dryRun = await ctx.inject('DELETE', `/api/admin/teams/${team.id}?cascade=1&dry_run=1`, { token: people.admin.token });
    expect(dryRun.statusCode).toBe(200);
    expect(dryRun.json()).toMatchObject({
      dry_run: true,
      deleted: false,
      requires_cascade: true,
      namespaces: workspaces.map((workspace) => workspace.namespace).sort(),
      counts: { workspaces: 3, namespaces: 3, team_members: 4, workspace_members: 6 },
    });
    expect(await ctx.db.selectFrom('teams').select('id').where('id', '=', team.id).executeTakeFirst()).toBeDefined();
    for (const workspace of workspaces) expect(store().get('namespaces', undefined, workspace.namespace)).toBeDefined();

    for (const who of ['owner', 'manager', 'member', 'outsider'] as const) {
      expect((await ctx.inject('DELETE', `/api/admin/teams/${team.id}?cascade=1`, { token: people[who].token })).statusCode, who).toBe(403);
    }
    expect((await ctx.inject('DELETE', `/api/admin/teams/${team.id}?cascade=1`)).statusCode).toBe(401);
    expect((await ctx.inject('DELETE', `/api/admin/teams/${team.id}?cascade=maybe`, { token: people.admin.token })).statusCode).toBe(422);

    ctx.rightsChanges.length = 0;
    const deleted = await ctx.inject('DELETE', `/api/admin/teams/${team.id}?cascade=1`, { token: people.admin.token });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toMatchObject({ deleted: true, counts: { workspaces: 3 } });
    expect(ctx.rightsChanges.flat()).toEqual(expect.arrayContaining([people.member.user.id, people.owner.user.id]));
    expect(await ctx.db.selectFrom('teams').select('id').where('id', '=', team.id).executeTakeFirst()).toBeUndefined();
    expect(await ctx.db.selectFrom('workspaces').select('id').where('team_id', '=', team.id).execute()).toEqual([]);
    expect(await activity('team', team.id)).toContainEqual(expect.objectContaining({ description: 'team deleted', causer_id: people.admin.user.id }));
    expect(await activity('workspace', workspaces[0].id)).toContainEqual(expect.objectContaining({ description: 'workspace deleted' }));

    expect((await ctx.reconciler.reconcileOnce()).failed).toBe(0);
    for (const workspace of workspaces) {
      expect(store().get('namespaces', undefined, workspace.namespace)).toBeUndefined();
      expect(serviceAccount(people.member.user.id, workspace.id)).toBeUndefined();
    }
    expect(await ctx.db.selectFrom('cluster_deletions').select('id').execute()).toEqual([]);
    expect((await ctx.inject('DELETE', `/api/admin/teams/${team.id}`, { token: people.admin.token })).statusCode).toBe(404);
  });

  it('deletes a team without workspaces at once; a namespace the console did not make is left in place and said so', async () => {
    const { team, people } = await world({ workspaces: 0 });
    expect((await ctx.inject('DELETE', `/api/admin/teams/${team.id}`, { token: people.admin.token })).json()).toMatchObject({ deleted: true, requires_cascade: false });

    // deleteWorkspace (used by DELETE /api/admin/workspaces/{id}) on a namespace made by hand.
    const other = await world();
    store().modify('namespaces', undefined, other.workspace.namespace, (object) => {
      object.metadata.labels = { 'kubernetes.io/metadata.name': other.workspace.namespace };
    });
    const result = await deleteWorkspace({ db: ctx.db }, other.workspace.id, other.people.admin.user);
    expect(result).toMatchObject({ id: other.workspace.id, namespace: other.workspace.namespace });
    expect(result?.member_ids.sort()).toEqual([other.people.member.user.id, other.people.manager.user.id].sort());
    expect(await ctx.reconciler.reconcileOnce()).toMatchObject({ failed: 1 });
    expect(store().get('namespaces', undefined, other.workspace.namespace)).toBeDefined();
    expect(await activity('workspace', other.workspace.id)).toContainEqual(expect.objectContaining({ description: 'namespace deletion refused by the cluster' }));
    expect(await deleteWorkspace({ db: ctx.db }, other.workspace.id, other.people.admin.user)).toBeNull();
  });
});

describe('PATCH /api/tenants/{id}/users/{userId}', () => {
  it('owners, managers (up to their own role) and admins change roles; a team keeps an owner', async () => {
    const { team, people } = await world({ workspaces: 0 });
    const { owner, manager, member, other, outsider, admin } = people;
    const patch = (who: SignedInUser | undefined, userId: number, role: unknown) => ctx.inject('PATCH', `/api/tenants/${team.id}/users/${userId}`, { token: who?.token, body: { role } });

    const promoted = await patch(owner, member.user.id, 'manager');
    expect(promoted.statusCode).toBe(200);
    expect(promoted.json()).toEqual({ id: member.user.id, team_id: team.id, role: 'manager', previous: 'member', expires_at: null });
    expect(await activity('team', team.id)).toContainEqual(expect.objectContaining({ description: 'team member role changed', causer_id: owner.user.id }));

    // A manager may not give a role above their own, nor touch an owner.
    const ceiling = await patch(manager, other.user.id, 'owner');
    expect(ceiling.statusCode).toBe(403);
    expect(ceiling.json().message).toBe('Only an owner can change or remove an owner, or make someone an owner.');
    expect((await patch(manager, owner.user.id, 'member')).statusCode).toBe(403);
    expect((await patch(other, member.user.id, 'member')).statusCode).toBe(403); // a plain member
    expect((await patch(manager, other.user.id, 'manager')).statusCode).toBe(200);
    expect((await patch(outsider, member.user.id, 'member')).statusCode).toBe(403);
    expect((await patch(undefined, member.user.id, 'member')).statusCode).toBe(401);
    expect(await teamRole(team.id, member.user.id)).toBe('manager');

    const lastOwner = await patch(owner, owner.user.id, 'manager');
    expect(lastOwner.statusCode).toBe(409);
    expect(lastOwner.json().message).toBe('A team keeps at least one owner: make someone else an owner first.');
    expect((await patch(admin, member.user.id, 'owner')).statusCode).toBe(200);
    expect((await patch(owner, owner.user.id, 'manager')).statusCode).toBe(200);
    expect(await teamRole(team.id, owner.user.id)).toBe('manager');

    const invalid = await patch(admin, member.user.id, 'boss');
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().errors).toEqual({ role: ['The selected role is invalid.'] });
    expect((await patch(admin, outsider.user.id, 'member')).statusCode).toBe(404);
    expect((await ctx.inject('PATCH', `/api/tenants/999999/users/${member.user.id}`, { token: admin.token, body: { role: 'member' } })).statusCode).toBe(404);
    for (const missing of [undefined, null]) {
      expect((await patch(admin, member.user.id, missing)).json().errors).toEqual({ role: ['The role field is required.'] });
    }
  });

  it.each([
    ['admin', 'manager'],
    ['collaborator', 'member'],
    ['user', 'member'],
    ['owner', 'owner'],
  ] as const)('takes the Laravel-era role %s as %s, and answers ours', async (laravel, ours) => {
    const { team, people } = await world({ workspaces: 0 });
    const changed = await ctx.inject('PATCH', `/api/tenants/${team.id}/users/${people.other.user.id}`, { token: people.owner.token, body: { role: laravel } });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ role: ours, previous: 'member' });
    expect(await teamRole(team.id, people.other.user.id)).toBe(ours);
  });
});

describe('DELETE /api/tenants/{id}/users/{userId}', () => {
  it('removes the person from the team and its workspaces; their service accounts go from the cluster', async () => {
    const { team, workspace, people } = await world();
    const { owner, manager, member, other, outsider } = people;
    const remove = (who: SignedInUser | undefined, userId: number) => ctx.inject('DELETE', `/api/tenants/${team.id}/users/${userId}`, { token: who?.token });
    expect(serviceAccount(member.user.id, workspace.id)).toBeDefined();

    for (const who of [other, outsider]) expect((await remove(who, member.user.id)).statusCode).toBe(403);
    expect((await remove(undefined, member.user.id)).statusCode).toBe(401);
    expect((await remove(manager, owner.user.id)).statusCode).toBe(403);
    const lastOwner = await remove(owner, owner.user.id);
    expect(lastOwner.statusCode).toBe(409);

    ctx.rightsChanges.length = 0;
    expect((await remove(manager, member.user.id)).statusCode).toBe(204);
    expect(ctx.rightsChanges).toEqual([[member.user.id]]);
    expect(await teamRole(team.id, member.user.id)).toBeNull();
    expect(await ctx.db.selectFrom('workspace_members').select('id').where('user_id', '=', member.user.id).execute()).toEqual([]);
    expect(await activity('team', team.id)).toContainEqual(expect.objectContaining({ description: 'team member removed', causer_id: manager.user.id }));
    expect((await ctx.reconciler.reconcileOnce()).failed).toBe(0);
    expect(serviceAccount(member.user.id, workspace.id)).toBeUndefined();
    expect(binding(workspace.namespace, member.user.id)).toBeUndefined();
    expect(binding(workspace.namespace, manager.user.id)).toBeDefined();
    expect((await remove(owner, member.user.id)).statusCode).toBe(404);

    // A member may leave on their own.
    expect((await remove(other, other.user.id)).statusCode).toBe(204);
    expect(await activity('team', team.id)).toContainEqual(expect.objectContaining({ description: 'team left', causer_id: other.user.id }));
  });
});

describe('POST /api/tenants/{id}/users/bulk', () => {
  it('removes each person by the one-at-a-time rules and answers per id what happened, with totals', async () => {
    const { team, workspace, people } = await world();
    const { owner, manager, member, other, outsider, admin } = people;
    const bulk = (who: SignedInUser | undefined, body: unknown) => ctx.inject('POST', `/api/tenants/${team.id}/users/bulk`, { token: who?.token, body });

    const answer = await bulk(manager, { action: 'remove', user_ids: [member.user.id, owner.user.id, outsider.user.id, other.user.id] });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({
      results: [
        { id: member.user.id, status: 'done', message: null },
        { id: owner.user.id, status: 'forbidden', message: 'Only an owner can change or remove an owner, or make someone an owner.' },
        { id: outsider.user.id, status: 'not_found', message: 'This person is not a member of this team.' },
        { id: other.user.id, status: 'done', message: null },
      ],
      totals: { done: 2, forbidden: 1, not_found: 1, conflict: 0 },
    });
    const lastOwner = await bulk(admin, { action: 'remove', user_ids: [owner.user.id] });
    expect(lastOwner.json().results).toEqual([{ id: owner.user.id, status: 'conflict', message: 'A team keeps at least one owner: make someone else an owner first.' }]);

    expect((await ctx.reconciler.reconcileOnce()).failed).toBe(0);
    expect(serviceAccount(member.user.id, workspace.id)).toBeUndefined();

    expect((await bulk(outsider, { action: 'remove', user_ids: [manager.user.id] })).statusCode).toBe(403);
    expect((await bulk(undefined, { action: 'remove', user_ids: [manager.user.id] })).statusCode).toBe(401);
    const invalid = await bulk(owner, { action: 'promote', user_ids: [] });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().errors).toEqual({ action: ['The selected action is invalid.'], user_ids: ['The user_ids field is required.'] });
    expect(await teamRole(team.id, manager.user.id)).toBe('manager');
  });
});
