import { http, HttpResponse } from 'msw';
import { db } from './db';
import { authorized, record } from './http';

// End dates as the server answers them for platform admins (docs/api-contract.md, "Admin:
// extending in bulk"; docs/lifecycle.md): POST /api/admin/{teams,workspaces}/bulk with action
// "extend" over `db.admin.teams` / `db.admin.workspaces` (their `expires_at`; a row with
// `suspended: true` comes back, one with `team_ended: true` stays suspended), GET/PATCH
// /api/admin/settings over `lifecycleDb.settings` (PATCH refuses what `lifecycleDb.refuse`
// says, as the server's 422), and GET /api/admin/lifecycle/preview answering
// `lifecycleDb.preview`. A test registers them with server.use(...adminLifecycleHandlers).

const json = (body: unknown, status = 200) => HttpResponse.json(body as Record<string, unknown>, { status });
const DAY_MS = 86_400_000;

export const lifecycleDb: {
  settings: Record<string, number | null>;
  defaults: Record<string, number | null>;
  /** Field errors the next PATCH answers with a 422 (then cleared). */
  refuse: Record<string, string[]> | null;
  preview: Record<string, unknown>;
  /** The moment the mock server's clock reads. */
  now: string;
} = { settings: {}, defaults: {}, refuse: null, preview: {}, now: '' };

export const resetLifecycleDb = () => {
  lifecycleDb.defaults = {
    workspace_lifetime_days: 180,
    team_review_days: 365,
    warning_days: 30,
    last_warning_hours: 72,
    retention_days: 30,
    retention_notice_days: 7,
    membership_warning_days: 7,
    policy_validity_days: 365,
    credit_cpu_factor: 1.5,
    credit_memory_factor: 1.3,
  };
  lifecycleDb.settings = { ...lifecycleDb.defaults };
  lifecycleDb.refuse = null;
  lifecycleDb.now = '2026-11-22T10:15:00.000Z';
  lifecycleDb.preview = { until: '2026-12-22T10:15:00.000Z', warnings: [], suspensions: [], deletions: [], removals: [] };
};
resetLifecycleDb();

/** The answer of an extension over `rows`, changing them unless it is a dry run. */
function extend(rows: Record<string, any>[], body: { ids?: number[]; filter?: Record<string, unknown>; days: number; dry_run?: boolean }) {
  const now = new Date(lifecycleDb.now).getTime();
  const ids = body.ids ? [...new Set(body.ids)] : rows.filter((row) => body.filter?.expired !== true || row.status === 'expired').map((row) => row.id as number);
  let resumed = 0;
  const results = ids.map((id) => {
    const row = rows.find((item) => item.id === id);
    if (!row) return { id, status: 'not_found', message: 'Not found.' };
    if (!row.expires_at) return { id, status: 'skipped', name: row.name, message: 'No end date: it does not end, so there is nothing to extend.' };
    const from = row.expires_at as string;
    const to = new Date(Math.max(new Date(from).getTime(), now) + body.days * DAY_MS).toISOString();
    const comesBack = row.suspended === true && row.team_ended !== true;
    if (comesBack) resumed += 1;
    if (!body.dry_run) {
      row.expires_at = to;
      row.status = row.team_ended ? 'expired' : 'active';
      if (comesBack) row.suspended = false;
    }
    return {
      id,
      status: 'done',
      name: row.name,
      from,
      to,
      resumed: comesBack,
      ...(row.team_ended ? { message: "Its team's review date has passed: it stays suspended until the team is extended or renewed." } : {}),
    };
  });
  const count = (status: string) => results.filter((item) => item.status === status).length;
  return {
    action: 'extend',
    dry_run: body.dry_run === true,
    days: body.days,
    matched: ids.length,
    totals: { done: count('done'), skipped: count('skipped'), not_found: count('not_found') },
    reach: { resumed_workspaces: resumed },
    results,
  };
}

const extendHandler = (list: 'teams' | 'workspaces') =>
  http.post(`/api/admin/${list}/bulk`, async ({ request }) => {
    const peek = (await request.clone().json()) as { action?: string };
    // Other actions: the handlers registered before these (tests/mocks/adminBulk.ts).
    if (peek.action !== 'extend') return undefined;
    const body = (await record(request)) as { ids?: number[]; filter?: Record<string, unknown>; days?: number; dry_run?: boolean };
    if (!authorized(request)) return json({ message: 'Unauthenticated.' }, 401);
    if (!db.user.admin) return json({ message: 'This action is unauthorized.' }, 403);
    if (typeof body.days !== 'number' || !Number.isInteger(body.days) || body.days < 1 || body.days > 3650) {
      const message = 'The days field must be a whole number of days from 1 to 3650.';
      return json({ message, errors: { days: [message] } }, 422);
    }
    return json(extend(db.admin[list] ?? [], { ...body, days: body.days }));
  });

export const adminLifecycleHandlers = [
  extendHandler('teams'),
  extendHandler('workspaces'),

  http.get('/api/admin/settings', async ({ request }) => {
    await record(request);
    if (!authorized(request)) return json({ message: 'Unauthenticated.' }, 401);
    if (!db.user.admin) return json({ message: 'This action is unauthorized.' }, 403);
    return json({ ...lifecycleDb.settings, defaults: lifecycleDb.defaults });
  }),

  http.patch('/api/admin/settings', async ({ request }) => {
    const body = (await record(request)) as Record<string, number | null>;
    if (!authorized(request)) return json({ message: 'Unauthenticated.' }, 401);
    if (!db.user.admin) return json({ message: 'This action is unauthorized.' }, 403);
    if (lifecycleDb.refuse) {
      const errors = lifecycleDb.refuse;
      lifecycleDb.refuse = null;
      return json({ message: Object.values(errors)[0]![0], errors }, 422);
    }
    Object.assign(lifecycleDb.settings, body);
    return json({ ...lifecycleDb.settings, defaults: lifecycleDb.defaults });
  }),

  http.get('/api/admin/lifecycle/preview', async ({ request }) => {
    await record(request);
    if (!authorized(request)) return json({ message: 'Unauthenticated.' }, 401);
    if (!db.user.admin) return json({ message: 'This action is unauthorized.' }, 403);
    const until = new URL(request.url).searchParams.get('until');
    if (until && new Date(until).getTime() < new Date(lifecycleDb.now).getTime()) {
      const message = 'The until date must be in the future.';
      return json({ message, errors: { until: [message] } }, 422);
    }
    return json({ ...lifecycleDb.preview, until: until ?? lifecycleDb.preview.until });
  }),
];
