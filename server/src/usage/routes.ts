import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { loadAccess, seesTeamMembers } from '../access/access.js';
import type { AppContext } from '../context.js';
import { currentUser, requireAdmin } from '../http/authenticate.js';
import { type CsvColumn, csvResponse, csvStream, sendCsv } from '../http/csvExport.js';
import { HttpError, notFound } from '../http/errors.js';
import { bearerAuth, idParam, MAX_TEXT_LENGTH } from '../http/schemas.js';
import { findTeamByIdOrName } from '../teams/teams.js';
import { findWorkspace } from '../workspaces/workspaces.js';
import { accountedUntil } from './accounting.js';
import { type GroupedUsageRow, groupedUsage, resolveRange, teamWorkspaceTotals, type UsageRange, usageSeries } from './report.js';
import { adminUsageQuery, adminUsageSchema, teamUsageSchema, usageQuery, usageSeriesSchema } from './schemas.js';

// Usage you can see (docs/usage.md, docs/api-contract.md "Usage"): a workspace's, a team's,
// and the platform's for its admins (JSON or CSV). Behind the onboarding gate.

const security = bearerAuth;
const tags = ['usage'];

/**
 * The answer's range part. `accounted` is read before the hours: a pass that commits meanwhile
 * makes the numbers newer than it says, never older.
 */
const rangeOf = (range: UsageRange, accounted: string | null) => ({
  from: range.from.toISOString(),
  to: range.to.toISOString(),
  granularity: range.granularity,
  accounted_until: accounted,
});

const csvColumns: CsvColumn<GroupedUsageRow>[] = [
  { header: 'id', value: (row) => row.id },
  { header: 'name', value: (row) => row.name },
  { header: 'start', value: (row) => row.start },
  { header: 'cpu_core_hours', value: (row) => row.cpu_core_hours },
  { header: 'memory_gib_hours', value: (row) => row.memory_gib_hours },
];

async function* once<T>(rows: T[]): AsyncGenerator<T[]> {
  yield rows;
}

export function usageRoutes(context: AppContext): FastifyPluginAsyncZod {
  const { db, clock } = context;
  const adminUsage = async (query: z.infer<typeof adminUsageQuery>) => {
    const range = resolveRange(query, clock.now());
    const accounted = await accountedUntil(db);
    return { range, accounted, data: await groupedUsage(db, query.group_by, range) };
  };
  return async (app) => {
    app.get(
      '/api/subnamespaces/:id/usage',
      {
        schema: {
          tags,
          summary: "A workspace's CPU core-hours and memory GiB-hours per hour, day or month (UTC), zero-filled; its members, its team's members and platform admins",
          security,
          params: z.object({ id: idParam() }),
          querystring: usageQuery,
          response: { 200: usageSeriesSchema },
        },
      },
      async (request) => {
        // What a workspace used over time is its people's business (and its team's, which answers
        // for it): not every onboarded user's, who may see the workspace's page.
        const workspace = await findWorkspace(db, request.params.id);
        if (!workspace) throw notFound();
        const access = await loadAccess(db, currentUser(request));
        if (!access.workspaceRoles.has(workspace.id) && !seesTeamMembers(access, workspace.team_id)) {
          throw new HttpError(403, "Only the workspace's members, its team's members and platform admins can see its usage.");
        }
        const range = resolveRange(request.query, clock.now());
        const accounted = await accountedUntil(db);
        const { series, total } = await usageSeries(db, { workspaceId: workspace.id }, range);
        return { ...rangeOf(range, accounted), series, total };
      },
    );

    app.get(
      '/api/tenants/:team/usage',
      {
        schema: {
          tags,
          summary: "A team's usage (deleted workspaces' included) per hour, day or month, and each workspace's total; its members and platform admins",
          security,
          params: z.object({ team: z.string().min(1).max(MAX_TEXT_LENGTH) }),
          querystring: usageQuery,
          response: { 200: teamUsageSchema },
        },
      },
      async (request) => {
        const team = await findTeamByIdOrName(db, request.params.team);
        if (!team) throw notFound();
        // Who sees the team's members (its enabled members and platform admins) sees its usage.
        if (!seesTeamMembers(await loadAccess(db, currentUser(request)), team.id)) {
          throw new HttpError(403, "Only the team's members and platform admins can see its usage.");
        }
        const range = resolveRange(request.query, clock.now());
        const accounted = await accountedUntil(db);
        const [{ series, total }, workspaces] = await Promise.all([usageSeries(db, { teamId: team.id }, range), teamWorkspaceTotals(db, team.id, range)]);
        return { ...rangeOf(range, accounted), series, total, workspaces };
      },
    );

    app.get(
      '/api/admin/usage',
      {
        schema: {
          tags: ['admin', ...tags],
          summary: 'The platform usage per team, workspace or person (group_by) and hour, day or month; format=csv answers CSV',
          security,
          querystring: adminUsageQuery,
          response: { 200: adminUsageSchema },
        },
        onRequest: requireAdmin,
      },
      async (request, reply) => {
        const { range, accounted, data } = await adminUsage(request.query);
        if (request.query.format === 'csv') return sendCsv(reply, `usage-by-${request.query.group_by}`, csvStream(csvColumns, once(data)));
        return { data, ...rangeOf(range, accounted) };
      },
    );

    app.get(
      '/api/admin/usage.csv',
      {
        schema: {
          tags: ['admin', ...tags],
          summary: 'The platform usage as CSV (same query as GET /api/admin/usage): id, name, start, cpu_core_hours, memory_gib_hours',
          security,
          querystring: adminUsageQuery.omit({ format: true }),
          ...csvResponse('CSV (header line; formula-like cells start with a single quote)'),
        },
        onRequest: requireAdmin,
      },
      async (request, reply) => {
        const { data } = await adminUsage({ ...request.query, format: 'csv' });
        return sendCsv(reply, `usage-by-${request.query.group_by}`, csvStream(csvColumns, once(data)));
      },
    );
  };
}
