import { http, HttpResponse, type JsonBodyType } from 'msw';
import type { NearLimitWorkspace, TeamQuotaAnswer } from '../../src/resources/teams/types';
import type { AdminUsageAnswer, UsageAnswer } from '../../src/types';
import { authorized, record } from './http';

// Usage over time and quotas seen from a team or the home (docs/api-contract.md, "Usage").
// Registered with the generic handlers (server.ts): the workspace, team and home pages call them
// on every render. Tests arrange `usageDb`; it is reset before each test.

const zero = { hard: '0', used: '0' };

export const emptyUsage = (): UsageAnswer => ({
  from: '2026-10-28T00:00:00.000Z',
  // By day, the server's range ends at the coming midnight.
  to: '2026-11-28T00:00:00.000Z',
  granularity: 'day',
  accounted_until: null,
  series: [],
  total: { cpu_core_hours: 0, memory_gib_hours: 0 },
});

export const usageDb: {
  /** By 'workspace:7' or 'team:3' (the id or name in the path); absent: an empty answer. */
  usage: Record<string, UsageAnswer | 'error'>;
  /** By the team's id or name; absent: no workspaces. */
  teamQuota: Record<string, TeamQuotaAnswer>;
  nearLimit: NearLimitWorkspace[];
  /** GET /api/admin/usage's rows, whatever the query (the server's range checks are mimicked). */
  admin: AdminUsageAnswer['data'];
} = { usage: {}, teamQuota: {}, nearLimit: [], admin: [] };

export const resetUsageDb = () => {
  usageDb.usage = {};
  usageDb.teamQuota = {};
  usageDb.nearLimit = [];
  usageDb.admin = [];
};

const json = (value: unknown, status = 200) => HttpResponse.json(value as JsonBodyType, { status });
const unauthenticated = () => json({ message: 'Unauthenticated.' }, 401);

function usageOf(key: string) {
  const answer = usageDb.usage[key] ?? emptyUsage();
  return answer === 'error' ? json({ message: 'The cluster cannot be reached.' }, 503) : json(answer);
}

export const usageHandlers = [
  http.get('/api/subnamespaces/near-limit', async ({ request }) => {
    await record(request);
    if (!authorized(request)) return unauthenticated();
    return json({ data: usageDb.nearLimit });
  }),
  http.get('/api/admin/usage', async ({ request }) => {
    await record(request);
    if (!authorized(request)) return unauthenticated();
    const url = new URL(request.url);
    const from = url.searchParams.get('from') ?? '';
    const to = url.searchParams.get('to') ?? '';
    if (from && to && to < from) return json({ message: 'The to field must be a date after or equal to from.', errors: { to: ['The to field must be a date after or equal to from.'] } }, 422);
    return json({ from, to, granularity: url.searchParams.get('granularity') ?? 'day', accounted_until: '2026-11-27T11:59:00.000Z', data: usageDb.admin });
  }),
  http.get('/api/admin/usage.csv', async ({ request }) => {
    await record(request);
    if (!authorized(request)) return unauthenticated();
    return new HttpResponse('id,name,start,cpu_core_hours,memory_gib_hours\n', { headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="usage-team-2026-11-27.csv"' } });
  }),
  http.get('/api/subnamespaces/:id/usage', async ({ request, params }) => {
    await record(request);
    if (!authorized(request)) return unauthenticated();
    return usageOf(`workspace:${String(params.id)}`);
  }),
  http.get('/api/tenants/:id/usage', async ({ request, params }) => {
    await record(request);
    if (!authorized(request)) return unauthenticated();
    return usageOf(`team:${String(params.id)}`);
  }),
  http.get('/api/tenants/:id/quota', async ({ request, params }) => {
    await record(request);
    if (!authorized(request)) return unauthenticated();
    const quota: TeamQuotaAnswer = usageDb.teamQuota[String(params.id)] ?? { total: { pods: zero, cpu: zero, memory: zero, storage: zero }, workspaces: [] };
    return json(quota);
  }),
];
