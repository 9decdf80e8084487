import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, eventually, type TestContext, unique } from './helpers.js';
import { FAST, nodeUser } from './nodesFixtures.js';

// Contract tests of the API shapes of docs/api-contract.md: every entity the contract names, loaded
// through the API as the console loads it (the calls it lists under "Calls"), with each field the
// contract gives it, under its names (aliases included) as well as ours. On SQLite, and on PostgreSQL with
// DATABASE_URL. GET /user (the User entity and the user's team entries) has its own file.
//
// The world is made through the API too: a team asked for with the new team form and approved
// by a platform admin, a workspace made with the workspace form, a member who joined both, an
// outsider's pending join request, a node added with the new node payload, a pod in the
// workspace's namespace of the sandbox cluster.

type Json = Record<string, any>;

let ctx: TestContext;
let admin: { user: { id: number }; token: string };
let owner: { user: { id: number; email: string }; token: string };
let member: { user: { id: number; email: string }; token: string };
let outsider: { user: { id: number }; token: string };
let team: Json;
let workspace: Json;
let createTeamRequest: Json;
let joinWorkspaceRequest: Json;
let node: Json;

const get = async (path: string, token: string) => {
  const response = await ctx.inject('GET', path, { token });
  expect(response.statusCode, `${path}: ${response.body}`).toBe(200);
  return response.json();
};
const send = async (method: 'POST' | 'PATCH', path: string, token: string, body: unknown, status = [200, 201]) => {
  const response = await ctx.inject(method, path, { token, body });
  expect(status, `${method} ${path}: ${response.body}`).toContain(response.statusCode);
  return response.json();
};

/** Each named field is there (null allowed: the spec names fields, not their values). */
const expectFields = (object: Json, fields: string[], what: string) => {
  for (const field of fields) expect(object, `${what}.${field}`).toHaveProperty(field);
};

const tag = unique('');

beforeAll(async () => {
  ctx = await createTestContext({ cluster: { timings: FAST }, reconciler: { pollIntervalMs: 100 } });
  admin = await nodeUser(ctx, { admin: true });
  owner = (await nodeUser(ctx, { firstname: 'Olivia' })) as typeof owner;
  member = (await nodeUser(ctx, { firstname: 'Mia' })) as typeof member;
  outsider = await nodeUser(ctx, { firstname: 'Oscar' });

  // New team form: fullname, shortname, affiliation, country, url, joining_reason, joining_category.
  createTeamRequest = await send('POST', '/api/requests/teams', owner.token, {
    fullname: `Edge Lab ${tag}`,
    shortname: `EL${tag}`,
    affiliation: 'University of X',
    country: 'FR',
    url: 'https://edgelab.example.org',
    joining_reason: 'Edge computing research',
    joining_category: 'Research',
  });
  const approved = await send('PATCH', `/api/requests/${createTeamRequest.id}`, admin.token, { action: 'approve' });
  expect(approved.status).toBe('Approved');
  const teamId = approved.object.id as number;

  // Workspace form: label, name, team_id (approved at once for the team's owner).
  const created = await send('POST', '/api/requests/workspaces', owner.token, { label: 'Vision', name: 'vision', team_id: teamId });
  expect(created.status).toBe('Approved');

  const joinTeam = await send('PATCH', '/api/requests/teams', member.token, { team_id: teamId });
  await send('PATCH', `/api/requests/${joinTeam.id}`, owner.token, { action: 'approve' });
  const joinWorkspace = await send('PATCH', '/api/requests/workspaces/', member.token, { team_id: teamId, name: 'vision' });
  await send('PATCH', `/api/requests/${joinWorkspace.id}`, owner.token, { action: 'approve' });
  const outsiderJoinsTeam = await send('PATCH', '/api/requests/teams', outsider.token, { team_id: teamId });
  await send('PATCH', `/api/requests/${outsiderJoinsTeam.id}`, owner.token, { action: 'approve' });
  joinWorkspaceRequest = await send('PATCH', '/api/requests/workspaces/', outsider.token, { team_id: teamId, name: 'vision' });
  expect(joinWorkspaceRequest.status).toBe('Pending');

  team = await get(`/api/tenants/${teamId}`, member.token);
  workspace = await get(`/api/subnamespaces/${created.object.id}`, member.token);

  // The namespace in the sandbox cluster, and a pod in it.
  await ctx.reconciler.reconcileOnce({ all: true });
  await ctx.cluster.kube().createNamespacedPod({
    namespace: workspace.namespace,
    body: { metadata: { name: 'web-1' }, spec: { containers: [{ name: 'main', image: 'nginx:1.27' }] } },
  });

  // New node payload: type, dhcp, hostname, ipv4, notes (code: below).
  node = await send('POST', '/api/nodes', owner.token, { type: 'raspberry-pi', dhcp: false, hostname: 'pi-lab-1', ipv4: '192.0.2.10', notes: 'on the shelf' });
}, 120_000);

afterAll(async () => {
  await ctx?.close();
});

describe('Team (tenant)', () => {
  it('GET /api/tenants/{id}: id, name, fullname, shortname, city, country, url, workspaces (sub_namespaces / subnamespaces), users (enabled, pivot.role), role', () => {
    expectFields(team, ['id', 'name', 'fullname', 'shortname', 'city', 'country', 'url', 'workspaces', 'sub_namespaces', 'subnamespaces', 'users', 'role'], 'team');
    expect(team).toMatchObject({ fullname: `Edge Lab ${tag}`, shortname: `EL${tag}`, country: 'FR', url: 'https://edgelab.example.org', city: null, role: 'member' });
    expect(team.workspaces).toEqual([expect.objectContaining({ id: workspace.id, name: 'vision' })]);
    expect(team.sub_namespaces).toEqual(team.workspaces);
    expect(team.subnamespaces).toEqual(team.workspaces);
    expect(team.users).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: owner.user.id, enabled: true, pivot: { role: 'owner', expires_at: null } }),
        expect.objectContaining({ id: member.user.id, enabled: true, pivot: { role: 'member', expires_at: null } }),
      ]),
    );
  });

  it('by name too (the sidebar links use names); for someone outside the team, users is an empty list', async () => {
    expect((await get(`/api/tenants/${team.name}`, member.token)).id).toBe(team.id);
    const stranger = await nodeUser(ctx, { firstname: 'Sam' });
    const seen = await get(`/api/tenants/${team.id}`, stranger.token);
    expectFields(seen, ['id', 'name', 'fullname', 'shortname', 'city', 'country', 'url', 'workspaces', 'sub_namespaces', 'subnamespaces', 'users', 'role'], 'team');
    expect(seen.users).toEqual([]);
    expect(seen.role).toBeNull();
    expect(JSON.stringify(seen)).not.toContain(member.user.email);
  });

  it('GET /api/tenants: every team with the same names', async () => {
    const listed = (await get('/api/tenants', member.token)).find((entry: Json) => entry.id === team.id);
    expectFields(listed, ['id', 'name', 'fullname', 'shortname', 'city', 'country', 'url', 'workspaces', 'sub_namespaces', 'subnamespaces', 'users', 'role'], 'tenants[]');
    expect(Array.isArray(listed.users)).toBe(true);
  });
});

describe('Workspace (sub-namespace)', () => {
  it('GET /api/subnamespaces/{id}: id, name, namespace, team/tenant (id, name), users (firstname, lastname, email, enabled, pivot.role), requests (user_id), role', () => {
    expectFields(workspace, ['id', 'name', 'namespace', 'team', 'tenant', 'users', 'requests', 'role'], 'workspace');
    expect(workspace.team).toMatchObject({ id: team.id, name: team.name });
    expect(workspace.tenant).toEqual(workspace.team);
    expect(workspace.role).toBe('member');
    const mia = workspace.users.find((user: Json) => user.id === member.user.id);
    expect(mia).toMatchObject({ firstname: 'Mia', lastname: 'Owner', email: member.user.email, enabled: true, pivot: { role: 'member' } });
    expect(workspace.users.find((user: Json) => user.id === owner.user.id).pivot).toEqual({ role: 'manager' });
    // The pending join request is seen by those who may decide it (the team's owner).
  });

  it('requests carry user_id (as those who may decide them see them)', async () => {
    const seen = await get(`/api/subnamespaces/${workspace.id}`, owner.token);
    expect(seen.requests).toEqual([expect.objectContaining({ id: joinWorkspaceRequest.id, user_id: outsider.user.id })]);
  });
});

describe('Request', () => {
  it('GET /api/requests: id, type, status, created_at, message, data, user (firstname), object (name for a workspace)', async () => {
    const requests = await get('/api/requests', owner.token);
    const join = requests.find((request: Json) => request.id === joinWorkspaceRequest.id);
    expectFields(join, ['id', 'type', 'status', 'created_at', 'message', 'data', 'user', 'object'], 'request');
    expect(join).toMatchObject({ type: 'JoinWorkspace', status: 'Pending', user: { id: outsider.user.id, firstname: 'Oscar' }, object: { name: 'vision' } });
  });

  it('a team request\'s object has fullname and shortname', async () => {
    const requests = await get('/api/requests', admin.token);
    const created = requests.find((request: Json) => request.id === createTeamRequest.id);
    expectFields(created, ['id', 'type', 'status', 'created_at', 'message', 'data', 'user', 'object'], 'request');
    expect(created).toMatchObject({ type: 'CreateTeam', status: 'Approved', user: { firstname: 'Olivia' } });
    expect(created.object).toMatchObject({ fullname: `Edge Lab ${tag}`, shortname: `EL${tag}` });
  });
});

describe('Token', () => {
  it('POST /api/tokens answers a token with plainTextToken; GET /api/tokens: id, name, abilities, created_at, expires_at', async () => {
    const created = await send('POST', '/api/tokens', member.token, { name: 'laptop' });
    expect(created.token.plainTextToken).toMatch(/^\d+\|\S+$/);
    const tokens = await get('/api/tokens', member.token);
    const laptop = tokens.find((token: Json) => token.name === 'laptop');
    expectFields(laptop, ['id', 'name', 'abilities', 'created_at', 'expires_at'], 'token');
    expect(laptop.abilities).toEqual(['*']);
  });
});

describe('Node, node activity, new node payload', () => {
  it('POST /api/nodes took the new node payload; GET /api/nodes and /api/nodes/{id}: id, name, type, ip_v4, ip_v6, lastActive, status, info (object), installation_url', async () => {
    const fields = ['id', 'name', 'type', 'ip_v4', 'ip_v6', 'lastActive', 'status', 'info', 'installation_url'];
    expectFields(node, fields, 'node');
    const one = await get(`/api/nodes/${node.id}`, owner.token);
    expectFields(one, fields, 'node');
    expect(one).toMatchObject({ id: node.id, type: 'raspberry-pi', ip_v4: '192.0.2.10' });
    expect(typeof one.info).toBe('object');
    expect(one.installation_url).toMatch(/^http/);
    const listed = (await get('/api/nodes', owner.token)).find((entry: Json) => entry.id === node.id);
    expectFields(listed, fields, 'nodes[]');
  });

  it('the payload\'s code is read (a wrong one is refused on its field)', async () => {
    const response = await ctx.inject('POST', '/api/nodes', { token: owner.token, body: { type: 'raspberry-pi', code: 'ZZZZZZ' } });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors)).toEqual(['code']);
  });

  it('GET /api/nodes/{id}/activity: id, created_at, description, properties.severity', async () => {
    const activity = await get(`/api/nodes/${node.id}/activity`, owner.token);
    expect(activity.length).toBeGreaterThan(0);
    for (const entry of activity) {
      expectFields(entry, ['id', 'created_at', 'description', 'properties.severity'], 'node activity');
      expect(['error', 'warning', 'info']).toContain(entry.properties.severity);
    }
  });
});

describe('Admin node view', () => {
  it('GET /api/admin/nodes: name, type, status.addesses (the spec\'s spelling), status.capacity, status.nodeInfo', async () => {
    const nodes = await get('/api/admin/nodes', admin.token);
    const joined = nodes.find((entry: Json) => entry.name === 'sandbox-node-1');
    expectFields(joined, ['name', 'type', 'status.addesses', 'status.capacity', 'status.nodeInfo'], 'admin node');
    expect(joined.status.addesses).toContainEqual({ type: 'InternalIP', address: expect.any(String) });
    expectFields(joined.status.capacity, ['cpu', 'memory', 'ephemeral-storage', 'pods'], 'status.capacity');
    expectFields(joined.status.nodeInfo, ['architecture', 'operatingSystem', 'osImage', 'kubeletVersion'], 'status.nodeInfo');
    expect(await get(`/api/admin/nodes/${joined.name}`, admin.token)).toMatchObject({ name: joined.name, status: { addesses: joined.status.addesses } });
  });
});

describe('Cluster and Pod', () => {
  it('GET /api/cluster: ca, server', async () => {
    const cluster = await get('/api/cluster', member.token);
    expect(cluster.ca).toMatch(/BEGIN CERTIFICATE/);
    expect(cluster.server).toMatch(/^https:/);
  });

  it('GET /api/pods?namespace=: name, status.podIP, status.hostIP, status.phase, status.startTime', async () => {
    const pod = await eventually(async () => {
      const pods = await get(`/api/pods?namespace=${workspace.namespace}`, member.token);
      return pods.find((entry: Json) => entry.name === 'web-1' && entry.status.phase === 'Running') ?? false;
    }, { what: 'the pod running' });
    expectFields(pod, ['name', 'status.podIP', 'status.hostIP', 'status.phase', 'status.startTime'], 'pod');
  });
});

describe('Admin activity', () => {
  it('GET /api/admin/activity: id, causer, description, subject, subject_type (workspace, team, node), properties.severity, created_at', async () => {
    const activity = await get('/api/admin/activity?page=1&per_page=100', admin.token);
    for (const entry of activity.data) {
      expectFields(entry, ['id', 'causer', 'description', 'subject', 'subject_type', 'properties.severity', 'created_at'], 'admin activity');
    }
    const types = new Set(activity.data.map((entry: Json) => entry.subject_type));
    for (const type of ['workspace', 'team', 'node']) expect(types).toContain(type);
  });
});

describe('Admin lists (/admin/teams, /admin/workspaces, /admin/users)', () => {
  it('teams: workspaces as sub_namespaces / subnamespaces too', async () => {
    const teams = await get(`/api/admin/teams?q=${encodeURIComponent(team.name)}`, admin.token);
    const entry = teams.find((candidate: Json) => candidate.id === team.id);
    expectFields(entry, ['id', 'name', 'fullname', 'shortname', 'workspaces', 'sub_namespaces', 'subnamespaces'], 'admin team');
    expect(entry.sub_namespaces).toEqual([{ id: workspace.id, name: 'vision' }]);
    expect(entry.subnamespaces).toEqual(entry.sub_namespaces);
  });

  it('workspaces: team as tenant too, users with pivot.role', async () => {
    const workspaces = await get(`/api/admin/workspaces?filter[team_id]=${team.id}`, admin.token);
    expect(workspaces).toHaveLength(1);
    const [entry] = workspaces;
    expectFields(entry, ['id', 'name', 'namespace', 'team', 'tenant', 'users'], 'admin workspace');
    expect(entry.tenant).toEqual({ id: team.id, name: team.name });
    expect(entry.users).toContainEqual(expect.objectContaining({ id: member.user.id, role: 'member', pivot: { role: 'member' } }));
    // The same as a page.
    const page = await get(`/api/admin/workspaces?page=1&filter[team_id]=${team.id}`, admin.token);
    expect(page.data[0].tenant).toEqual(entry.tenant);
  });

  it('users: teams as tenants, workspaces as sub_namespaces / subnamespaces, each with pivot.role', async () => {
    const users = await get(`/api/admin/users?page=1&q=${encodeURIComponent(member.user.email)}`, admin.token);
    const entry = users.data.find((candidate: Json) => candidate.id === member.user.id);
    expectFields(
      entry,
      ['id', 'firstname', 'lastname', 'email', 'email_verified_at', 'aup_accepted_at', 'admin', 'enabled', 'name', 'teams', 'tenants', 'workspaces', 'sub_namespaces', 'subnamespaces'],
      'admin user',
    );
    expect(entry.tenants).toEqual([{ id: team.id, name: team.name, role: 'member', pivot: { role: 'member' } }]);
    expect(entry.teams).toEqual(entry.tenants);
    expect(entry.sub_namespaces).toEqual([{ id: workspace.id, name: 'vision', role: 'member', pivot: { role: 'member' } }]);
    expect(entry.subnamespaces).toEqual(entry.sub_namespaces);
    expect(entry.workspaces).toEqual(entry.sub_namespaces);
  });
});

describe('Role names (docs/api-contract.md)', () => {
  it('a Laravel-era role sent by a client is taken as ours', async () => {
    const changed = await send('PATCH', `/api/tenants/${team.id}/users/${member.user.id}`, owner.token, { role: 'admin' });
    expect(changed).toMatchObject({ role: 'manager', previous: 'member' });
    await send('PATCH', `/api/tenants/${team.id}/users/${member.user.id}`, owner.token, { role: 'collaborator' });
    expect((await get(`/api/tenants/${team.id}`, member.token)).role).toBe('member');
  });
});
