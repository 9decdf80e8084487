import { http, HttpResponse } from 'msw';
import type { AdminTeamDetail } from '../../src/resources/admin/teams/types';
import { db } from './db';
import { authorized, record } from './http';

// The team administration routes (docs/api-contract.md "Admin: teams and team members") over
// `teamAdminDb.details` (GET/PATCH/DELETE /api/admin/teams/{id}) and `db.teams` (the member
// calls of /teams/{id}). The tests add them with server.use(...teamAdminHandlers) and reset the
// state with resetTeamAdminDb().

export const teamAdminDb: { details: Map<number, AdminTeamDetail> } = { details: new Map() };
export const resetTeamAdminDb = () => {
  teamAdminDb.details = new Map();
};

const NOW = '2026-11-20T08:05:00.000Z';

export const makeAdminTeamDetail = (overrides: Partial<AdminTeamDetail> = {}): AdminTeamDetail => ({
  id: 3,
  name: 'edgelab',
  fullname: 'Edge Computing Lab',
  shortname: 'Edge Lab',
  affiliation: 'University of X',
  city: null,
  country: 'FR',
  url: 'https://edgelab.example.org',
  joining_category: 'Research',
  joining_reason: 'Edges',
  enabled: true,
  created_at: NOW,
  updated_at: NOW,
  members: [
    { id: 1, name: 'Ada Lovelace', email: 'ada@example.org', role: 'owner', enabled: true, joined_at: NOW },
    { id: 5, name: 'Grace Hopper', email: 'grace@example.org', role: 'member', enabled: true, joined_at: NOW },
  ],
  workspaces: [
    { id: 7, name: 'vision', label: 'Vision', namespace: 'edgelab-vision', cluster_state: 'ready', created_at: NOW, member_count: 2, quota: { pods: '50' } },
    { id: 8, name: 'radio', label: 'Radio', namespace: 'edgelab-radio', cluster_state: 'ready', created_at: NOW, member_count: 1, quota: { pods: '50' } },
  ],
  counts: { members: 2, owners: 1, managers: 0, workspaces: 2, workspace_members: 3, pending_requests: 0 },
  activity: [{ id: 40, description: 'team created', properties: { severity: 'info' }, created_at: NOW }],
  ...overrides,
});

const json = (body: unknown, status = 200) => HttpResponse.json(body as Record<string, unknown>, { status });
const unauthenticated = () => json({ message: 'Unauthenticated.' }, 401);
const notFound = () => json({ message: 'Not found.' }, 404);
const LAST_OWNER = 'A team keeps at least one owner: make someone else an owner first.';

const teamOf = (id: unknown) => db.teams.find((team) => String(team.id) === String(id));

/** The member removal rules the server applies, as far as the console can meet them. */
const removeFrom = (team: Record<string, any>, userId: number): { status: 'done' | 'not_found' | 'conflict'; message: string | null } => {
  const users: { id: number; pivot?: { role?: string } }[] = team.users ?? [];
  const target = users.find((user) => user.id === userId);
  if (!target) return { status: 'not_found', message: 'This person is not a member of this team.' };
  if (target.pivot?.role === 'owner' && users.filter((user) => user.pivot?.role === 'owner').length === 1) return { status: 'conflict', message: LAST_OWNER };
  team.users = users.filter((user) => user.id !== userId);
  return { status: 'done', message: null };
};

export const teamAdminHandlers = [
  http.get('/api/admin/teams/:id', async ({ request, params }) => {
    await record(request);
    if (!authorized(request)) return unauthenticated();
    const team = teamAdminDb.details.get(Number(params.id));
    return team ? json(team) : notFound();
  }),

  http.patch('/api/admin/teams/:id', async ({ request, params }) => {
    const body = (await record(request)) ?? {};
    if (!authorized(request)) return unauthenticated();
    const team = teamAdminDb.details.get(Number(params.id));
    if (!team) return notFound();
    if (typeof body.url === 'string' && body.url !== '' && !/^https?:\/\/\S+$/.test(body.url)) {
      return json({ message: 'Invalid URL', errors: { url: ['Invalid URL'] } }, 422);
    }
    const updated = { ...team, ...body };
    teamAdminDb.details.set(team.id, updated);
    return json(updated);
  }),

  http.delete('/api/admin/teams/:id', async ({ request, params }) => {
    await record(request);
    if (!authorized(request)) return unauthenticated();
    const team = teamAdminDb.details.get(Number(params.id));
    if (!team) return notFound();
    const query = new URL(request.url).searchParams;
    const plan = {
      team: { id: team.id, name: team.name, fullname: team.fullname },
      workspaces: team.workspaces.map(({ id, name, namespace, member_count }) => ({ id, name, namespace, member_count })),
      namespaces: team.workspaces.map((workspace) => workspace.namespace),
      counts: { workspaces: team.workspaces.length, namespaces: team.workspaces.length, team_members: team.members.length, workspace_members: team.counts.workspace_members, pending_requests: 0 },
      requires_cascade: team.workspaces.length > 0,
    };
    if (query.get('dry_run') === '1') return json({ ...plan, dry_run: true, deleted: false });
    if (plan.requires_cascade && query.get('cascade') !== '1') return json({ message: 'The team still has workspaces.' }, 409);
    teamAdminDb.details.delete(team.id);
    return json({ ...plan, dry_run: false, deleted: true });
  }),

  http.post('/api/tenants/:id/users/bulk', async ({ request, params }) => {
    const body = (await record(request)) ?? {};
    if (!authorized(request)) return unauthenticated();
    const team = teamOf(params.id);
    if (!team) return notFound();
    const results = (body.user_ids as number[]).map((id) => ({ id, ...removeFrom(team, id) }));
    const totals = { done: 0, forbidden: 0, not_found: 0, conflict: 0 };
    for (const result of results) totals[result.status]++;
    return json({ results, totals });
  }),

  http.patch('/api/tenants/:id/users/:userId', async ({ request, params }) => {
    const body = (await record(request)) ?? {};
    if (!authorized(request)) return unauthenticated();
    const team = teamOf(params.id);
    const target = team?.users?.find((user: { id: number }) => String(user.id) === params.userId);
    if (!team || !target) return notFound();
    const owners = team.users.filter((user: { pivot?: { role?: string } }) => user.pivot?.role === 'owner');
    if (target.pivot?.role === 'owner' && body.role !== 'owner' && owners.length === 1) return json({ message: LAST_OWNER }, 409);
    const previous = target.pivot?.role;
    target.pivot = { role: body.role };
    return json({ id: target.id, team_id: team.id, role: body.role, previous });
  }),

  http.delete('/api/tenants/:id/users/:userId', async ({ request, params }) => {
    await record(request);
    if (!authorized(request)) return unauthenticated();
    const team = teamOf(params.id);
    if (!team) return notFound();
    const outcome = removeFrom(team, Number(params.userId));
    if (outcome.status === 'not_found') return json({ message: outcome.message }, 404);
    if (outcome.status === 'conflict') return json({ message: outcome.message }, 409);
    return new HttpResponse(null, { status: 204 });
  }),
];
