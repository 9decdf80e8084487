import { http, HttpResponse } from 'msw';
import { db } from './db';
import { authorized, record } from './http';

// GET /api/requests (paginator, filters, q, date sort) and POST /api/requests/bulk, as the
// server answers them (docs/api-contract.md), over `db.toDecide`. They come before the
// general handlers (tests/mocks/server.ts), which keep the plain PATCH /api/requests/{id}.

const unauthenticated = () => HttpResponse.json({ message: 'Unauthenticated.' }, { status: 401 });

const contains = (value: unknown, q: string) => typeof value === 'string' && value.toLowerCase().includes(q);

export const requestHandlers = [
  http.get('/api/requests', async ({ request }) => {
    await record(request);
    if (!authorized(request)) return unauthenticated();
    const url = new URL(request.url);
    const param = (name: string) => url.searchParams.get(name) || null;
    const status = param('filter[status]') ?? param('status');
    const type = param('filter[type]');
    const teamId = param('filter[team_id]');
    const q = param('q')?.toLowerCase();
    let rows = db.toDecide.filter(
      (item) =>
        (!status || item.status === status) &&
        (!type || item.type === type) &&
        (!teamId || String(item.team?.id) === teamId) &&
        (!q || [item.user?.name, item.user?.email, item.object?.name].some((value) => contains(value, q))),
    );
    const direction = param('order') === 'asc' ? 1 : -1;
    rows = [...rows].sort((a, b) => direction * (String(a.created_at).localeCompare(String(b.created_at)) || a.id - b.id));
    const page = param('page');
    if (!page) return HttpResponse.json(rows);
    const perPage = Number(param('per_page') ?? 25);
    const current = Number(page);
    return HttpResponse.json({
      data: rows.slice((current - 1) * perPage, current * perPage),
      meta: { current_page: current, per_page: perPage, total: rows.length, last_page: Math.max(1, Math.ceil(rows.length / perPage)) },
    });
  }),

  http.post('/api/requests/bulk', async ({ request }) => {
    const body = (await record(request)) as { ids?: number[]; action?: string; message?: string; dry_run?: boolean } | undefined;
    if (!authorized(request)) return unauthenticated();
    if (!Array.isArray(body?.ids) || body.ids.length === 0 || body.ids.length > 500) {
      return HttpResponse.json({ message: 'The ids field is required.', errors: { ids: ['The ids field is required.'] } }, { status: 422 });
    }
    if (body.action !== 'approve' && body.action !== 'deny') {
      return HttpResponse.json({ message: 'The selected action is invalid.', errors: { action: ['The selected action is invalid.'] } }, { status: 422 });
    }
    const results = [...new Set(body.ids)].map((id) => {
      const found = db.toDecide.find((item) => item.id === id);
      if (!found) return { id, status: 'not_found', http: 404, message: 'Not found.' };
      if (found.can_decide === false) return { id, status: 'forbidden', http: 403, message: 'You may not decide this request.' };
      if (found.status !== 'Pending') return { id, status: 'conflict', http: 409, message: 'This request has already been decided.' };
      const decided = body.action === 'approve' ? 'Approved' : 'Denied';
      // A dry run says what would happen and changes nothing.
      if (!body.dry_run) {
        found.status = decided;
        found.decision_message = body.message ?? null;
      }
      return { id, status: 'decided', http: 200, request_status: decided };
    });
    const count = (status: string) => results.filter((item) => item.status === status).length;
    return HttpResponse.json({
      results,
      totals: { requested: results.length, decided: count('decided'), forbidden: count('forbidden'), not_found: count('not_found'), conflict: count('conflict') },
    });
  }),
];
