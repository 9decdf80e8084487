import { http, HttpResponse } from 'msw';
import { db } from './db';
import { authorized, record } from './http';

// The admin lists' search and pickers as the server answers them (docs/api-contract.md,
// "Search"): GET /api/admin/{users,teams}?q= and GET /api/admin/{users,teams}/{id} over
// `db.admin`, so that the autocompletes of the filter bars find and show people and teams.
// The tests add them with server.use(...adminFilterHandlers).

const json = (body: unknown, status = 200) => HttpResponse.json(body as Record<string, unknown>, { status });

const matches = (row: Record<string, unknown>, q: string) =>
  ['name', 'fullname', 'email'].some((key) => String(row[key] ?? '').toLowerCase().includes(q.toLowerCase()));

export const adminFilterHandlers = ['users', 'teams'].flatMap((list) => [
  http.get(`/api/admin/${list}`, async ({ request }) => {
    await record(request);
    if (!authorized(request)) return json({ message: 'Unauthenticated.' }, 401);
    const url = new URL(request.url);
    const q = url.searchParams.get('q') ?? '';
    const rows = (db.admin[list] ?? []).filter((row) => matches(row, q));
    const perPage = Number(url.searchParams.get('per_page') ?? 25);
    return json({ data: rows.slice(0, perPage), meta: { current_page: 1, per_page: perPage, total: rows.length, last_page: 1 } });
  }),
  http.get(`/api/admin/${list}/:id`, async ({ request, params }) => {
    await record(request);
    const row = (db.admin[list] ?? []).find((candidate) => String(candidate.id) === params.id);
    return row ? json(row) : json({ message: 'Not found.' }, 404);
  }),
]);
