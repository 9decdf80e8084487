import { http, HttpResponse } from 'msw';
import type { AdminUserDetail } from '../../src/resources/admin/users/types';
import { db } from './db';
import { authorized, record } from './http';

// The admin user routes (docs/api-contract.md "Admin: users") over `adminUsersDb.details`
// (the show page) and `db.admin.users` (the list rows the bulk action works on). Registered
// before the generic handlers (tests/mocks/server.ts); reset by resetAdminUsersDb().

export const adminUsersDb: { details: Map<number, AdminUserDetail> } = { details: new Map() };

export const resetAdminUsersDb = () => {
  adminUsersDb.details = new Map();
};

const NOW = '2026-11-20T08:05:00.000Z';

export const makeAdminUserDetail = (overrides: Partial<AdminUserDetail> = {}): AdminUserDetail => ({
  id: 5,
  name: 'Grace Hopper',
  firstname: 'Grace',
  lastname: 'Hopper',
  email: 'grace@example.org',
  email_verified_at: NOW,
  aup_accepted_at: NOW,
  admin: false,
  enabled: true,
  created_at: NOW,
  last_login_at: NOW,
  last_login_source: 'activity log',
  teams: [{ id: 3, name: 'edgelab', fullname: 'Edge Computing Lab', role: 'member', enabled: true }],
  workspaces: [
    { id: 9, name: 'vision', namespace: 'edgelab-vision', team: { id: 3, name: 'edgelab' }, role: 'member', cluster_state: 'ready' },
    { id: 10, name: 'audio', namespace: 'edgelab-audio', team: { id: 3, name: 'edgelab' }, role: 'manager', cluster_state: 'ready' },
  ],
  tokens: [
    { id: 21, name: 'laptop', created_at: NOW, last_used_at: null, expires_at: null },
    { id: 22, name: 'ci', created_at: NOW, last_used_at: NOW, expires_at: null },
    { id: 23, name: 'notebook', created_at: NOW, last_used_at: null, expires_at: null },
  ],
  nodes: [{ id: 4, name: 'pi-4', hostname: 'pi', type: 'raspberry-pi', status: 'ok', last_active_at: NOW, created_at: NOW }],
  activity: [{ id: 1, description: 'logged in', properties: { severity: 'info' }, created_at: NOW }],
  counts: { sessions: 1, personal_tokens: 3, kubeconfigs: 2, nodes: 1 },
  ...overrides,
});

const json = (body: unknown, status = 200) => HttpResponse.json(body as any, { status });
const guard = (request: Request) => {
  if (!authorized(request)) return json({ message: 'Unauthenticated.' }, 401);
  if (!db.user.admin) return json({ message: 'This action is unauthorized.' }, 403);
  return null;
};
const notFound = () => json({ message: 'Not found.' }, 404);

type Row = Record<string, any>;
const matches = (row: Row, filter: Record<string, unknown>) =>
  (filter.q === undefined || `${row.name} ${row.email}`.toLowerCase().includes(String(filter.q).toLowerCase())) &&
  ['admin', 'enabled', 'verified', 'policy'].every((flag) => filter[flag] === undefined || Boolean(row[flag]) === filter[flag]);

export const adminUserHandlers = [
  http.get('/api/admin/users/:id', async ({ request, params }) => {
    await record(request);
    const refused = guard(request);
    if (refused) return refused;
    const user = adminUsersDb.details.get(Number(params.id));
    return user ? json(user) : notFound();
  }),

  http.patch('/api/admin/users/:id', async ({ request, params }) => {
    const body = (await record(request)) ?? {};
    const refused = guard(request);
    if (refused) return refused;
    const user = adminUsersDb.details.get(Number(params.id));
    if (!user) return notFound();
    if (user.id === db.user.id && body.enabled === false) {
      return json({ message: 'You cannot disable your own account.', errors: { enabled: ['You cannot disable your own account.'] } }, 422);
    }
    const changed: AdminUserDetail = { ...user, ...body };
    if (body.enabled === false) changed.counts = { ...user.counts, sessions: 0, personal_tokens: 0 };
    if (body.enabled === false) changed.tokens = [];
    adminUsersDb.details.set(user.id, changed);
    return json(changed);
  }),

  http.delete('/api/admin/users/:id/tokens/:tokenId', async ({ request, params }) => {
    await record(request);
    const refused = guard(request);
    if (refused) return refused;
    const user = adminUsersDb.details.get(Number(params.id));
    if (!user || !user.tokens.some((token) => token.id === Number(params.tokenId))) return notFound();
    const tokens = user.tokens.filter((token) => token.id !== Number(params.tokenId));
    adminUsersDb.details.set(user.id, { ...user, tokens, counts: { ...user.counts, personal_tokens: tokens.length } });
    return new HttpResponse(null, { status: 204 });
  }),

  http.delete('/api/admin/users/:id/tokens', async ({ request, params }) => {
    await record(request);
    const refused = guard(request);
    if (refused) return refused;
    const user = adminUsersDb.details.get(Number(params.id));
    if (!user) return notFound();
    adminUsersDb.details.set(user.id, { ...user, tokens: [], counts: { ...user.counts, personal_tokens: 0 } });
    return json({ message: `${user.tokens.length} personal access tokens revoked.`, revoked: user.tokens.length });
  }),

  // As the server: per id done / unchanged / forbidden (oneself) / not_found; a filter acts on
  // every row it matches; dry_run changes nothing. Each row counts one session and one token.
  http.post('/api/admin/users/bulk', async ({ request }) => {
    const body = (await record(request)) ?? {};
    const refused = guard(request);
    if (refused) return refused;
    const rows = db.admin.users;
    const ids: number[] = body.ids ?? rows.filter((row) => matches(row, body.filter ?? {})).map((row) => row.id);
    const enable = body.action === 'enable';
    const results = ids.map((id) => {
      const row = rows.find((item) => item.id === id);
      if (!row) return { id, status: 'not_found', message: 'Not found.' };
      if (!enable && id === db.user.id) return { id, status: 'forbidden', message: 'You cannot disable your own account.' };
      if (row.enabled === enable) return { id, status: 'unchanged' };
      if (!body.dry_run) row.enabled = enable;
      return { id, status: 'done' };
    });
    const totals = { done: 0, unchanged: 0, forbidden: 0, not_found: 0 } as Record<string, number>;
    for (const result of results) totals[result.status]++;
    const revoked = enable ? { sessions: 0, personal_tokens: 0, kubeconfigs: totals.done } : { sessions: totals.done, personal_tokens: totals.done, kubeconfigs: 0 };
    return json({ action: body.action, dry_run: Boolean(body.dry_run), matched: ids.length, totals, revoked, results });
  }),
];
