import { http, HttpResponse } from 'msw';
import { db } from './db';
import { authorized, record } from './http';

// The admin lists' bulk calls as the server answers them (docs/api-contract.md): POST
// /api/requests/bulk by ids or by filter (with dry_run), POST /api/admin/teams/bulk over
// `db.admin.teams` (`enabled` on each row; `member_count` and `workspace_count` are the reach)
// and POST /api/admin/workspaces/bulk over `db.admin.workspaces`. A test registers them with
// server.use(...adminBulkHandlers); msw's resetHandlers drops them after each test.

const unauthenticated = () => HttpResponse.json({ message: 'Unauthenticated.' }, { status: 401 });
const forbidden = () => HttpResponse.json({ message: 'This action is unauthorized.' }, { status: 403 });
const invalid = (field: string, message: string) => HttpResponse.json({ message, errors: { [field]: [message] } }, { status: 422 });
const contains = (value: unknown, q: string) => typeof value === 'string' && value.toLowerCase().includes(q);

type Filter = { status?: string; type?: string; team_id?: number; q?: string };

/** The requests GET /api/requests would list for these filters (tests/mocks/requests.ts), oldest first. */
const matchingRequests = (filter: Filter) =>
  db.toDecide
    .filter(
      (item) =>
        (!filter.status || item.status === filter.status) &&
        (!filter.type || item.type === filter.type) &&
        (filter.team_id === undefined || item.team?.id === filter.team_id) &&
        (!filter.q || [item.user?.name, item.user?.email, item.object?.name].some((value) => contains(value, filter.q!.toLowerCase()))),
    )
    .sort((a, b) => String(a.created_at).localeCompare(String(b.created_at)) || a.id - b.id);

export const adminBulkHandlers = [
  http.post('/api/requests/bulk', async ({ request }) => {
    const body = (await record(request)) as { ids?: number[]; filter?: Filter; action?: string; message?: string; dry_run?: boolean } | undefined;
    if (!authorized(request)) return unauthenticated();
    if ((body?.ids === undefined) === (body?.filter === undefined)) return invalid('ids', 'The ids field is required.');
    if (body?.action !== 'approve' && body?.action !== 'deny') return invalid('action', 'The selected action is invalid.');
    const ids = body.ids ? [...new Set(body.ids)] : matchingRequests(body.filter!).map((item) => item.id);
    const decidedStatus = body.action === 'approve' ? 'Approved' : 'Denied';
    const results = ids.map((id) => {
      const found = db.toDecide.find((item) => item.id === id);
      if (!found) return { id, status: 'not_found', http: 404, message: 'Not found.' };
      if (found.can_decide === false) return { id, status: 'forbidden', http: 403, message: 'You may not decide this request.' };
      if (found.status !== 'Pending') return { id, status: 'conflict', http: 409, message: 'This request has already been decided.' };
      if (!body.dry_run) {
        found.status = decidedStatus;
        found.decision_message = body.message ?? null;
      }
      return { id, status: 'decided', http: 200, request_status: decidedStatus };
    });
    const count = (status: string) => results.filter((item) => item.status === status).length;
    return HttpResponse.json({
      results,
      totals: { requested: results.length, decided: count('decided'), forbidden: count('forbidden'), not_found: count('not_found'), conflict: count('conflict') },
    });
  }),

  http.post('/api/admin/teams/bulk', async ({ request }) => {
    const body = (await record(request)) as { ids?: number[]; filter?: Record<string, unknown>; action?: string; dry_run?: boolean } | undefined;
    if (!authorized(request)) return unauthenticated();
    if (!db.user.admin) return forbidden();
    if ((body?.ids === undefined) === (body?.filter === undefined)) return invalid('ids', 'Give either ids or filter.');
    if (body?.action !== 'suspend' && body?.action !== 'enable') return invalid('action', 'The action field must be suspend or enable.');
    const enable = body.action === 'enable';
    const ids = body.ids ? [...new Set(body.ids)] : db.admin.teams!.map((team) => team.id as number);
    const reach = { members: 0, workspaces: 0, workspace_memberships: 0 };
    const results = ids.map((id) => {
      const team = db.admin.teams!.find((item) => item.id === id);
      if (!team) return { id, status: 'not_found', message: 'Not found.' };
      if ((team.enabled !== false) === enable) return { id, status: 'unchanged' };
      reach.members += team.member_count ?? 0;
      reach.workspaces += team.workspace_count ?? 0;
      reach.workspace_memberships += team.member_count ?? 0;
      if (!body.dry_run) team.enabled = enable;
      return { id, status: 'done' };
    });
    const count = (status: string) => results.filter((item) => item.status === status).length;
    return HttpResponse.json({
      action: body.action,
      dry_run: body.dry_run === true,
      matched: ids.length,
      totals: { done: count('done'), unchanged: count('unchanged'), not_found: count('not_found') },
      reach,
      results,
    });
  }),

  http.post('/api/admin/workspaces/bulk', async ({ request }) => {
    const body = (await record(request)) as { ids?: number[]; action?: string; dry_run?: boolean } | undefined;
    if (!authorized(request)) return unauthenticated();
    if (!db.user.admin) return forbidden();
    if (!Array.isArray(body?.ids) || body.ids.length === 0) return invalid('ids', 'The ids field is required.');
    if (body.action !== 'delete') return invalid('action', 'The action field must be delete.');
    const ids = [...new Set(body.ids)];
    const people = new Set<number>();
    let memberships = 0;
    const results = ids.map((id) => {
      const workspace = db.admin.workspaces!.find((item) => item.id === id);
      if (!workspace) return { id, status: 'not_found', message: 'Not found.' };
      const users = (workspace.users ?? []) as { id: number }[];
      for (const user of users) people.add(user.id);
      memberships += users.length;
      if (!body.dry_run) db.admin.workspaces = db.admin.workspaces!.filter((item) => item.id !== id);
      return { id, status: 'done', name: workspace.name, namespace: workspace.namespace, members: users.length };
    });
    const done = results.filter((item) => item.status === 'done').length;
    return HttpResponse.json({
      action: 'delete',
      dry_run: body.dry_run === true,
      matched: ids.length,
      totals: { done, not_found: ids.length - done },
      reach: { workspaces: done, members: people.size, memberships },
      results,
    });
  }),
];
