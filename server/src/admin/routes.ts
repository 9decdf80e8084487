import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { AppContext } from '../context.js';
import { requireAdmin } from '../http/authenticate.js';
import { listSchema, paginated } from '../http/pagination.js';
import { bearerAuth } from '../http/schemas.js';
import { csvResponse, sendCsv } from '../http/csvExport.js';
import { exportActivity, exportTeams, exportUsers, exportWorkspaces } from './exports.js';
import { listActivity, listTeams, listUsers, listWorkspaces } from './lists.js';
import { withTeamAliases, withUserAliases, withWorkspaceAliases } from './lists/aliases.js';
import { lifecycleSettings } from '../lifecycle/settings.js';
import {
  adminActivityExportQuery,
  adminActivityQuery,
  adminActivitySchema,
  adminTeamSchema,
  adminTeamsExportQuery,
  adminTeamsQuery,
  adminUserSchema,
  adminUsersExportQuery,
  adminUsersQuery,
  adminWorkspaceSchema,
  adminWorkspacesExportQuery,
  adminWorkspacesQuery,
} from './schemas.js';

const tags = ['admin'];
const security = bearerAuth;

/** An array, or the paginator when the query named a page. */
const answer = <T>(query: { page?: number; per_page: number }, result: { rows: T[]; total: number }) =>
  query.page === undefined ? result.rows : paginated(result.rows, result.total, { page: query.page, perPage: query.per_page });

/** The page's rows with the spec's names beside ours (lists/aliases.ts). */
const aliased = <T, U>(result: { rows: T[]; total: number }, alias: (row: T) => U) => ({ total: result.total, rows: result.rows.map(alias) });

/** The users list's `filter[...]` (the list and its export share them); activity is read at `now`. */
const userFilters = (query: z.infer<typeof adminUsersExportQuery>, now: Date) => ({
  admin: query['filter[admin]'],
  enabled: query['filter[enabled]'],
  verified: query['filter[verified]'],
  policy: query['filter[policy]'],
  teamId: query['filter[team_id]'],
  activeWithinDays: query['filter[active_within_days]'],
  now,
});

/**
 * The teams, workspaces and activity lists' `filter[...]` (each list and its export share them).
 * The end filters are read at `now`, the app's clock.
 */
const teamFilters = (query: z.infer<typeof adminTeamsExportQuery>, now: Date) => ({
  from: query['filter[from]'],
  to: query['filter[to]'],
  hasWorkspaces: query['filter[has_workspaces]'],
  expiringWithinDays: query['filter[expiring_within_days]'],
  expired: query['filter[expired]'],
  now,
});
const workspaceFilters = (query: z.infer<typeof adminWorkspacesExportQuery>, now: Date) => ({
  teamId: query['filter[team_id]'],
  from: query['filter[from]'],
  to: query['filter[to]'],
  expiringWithinDays: query['filter[expiring_within_days]'],
  expired: query['filter[expired]'],
  now,
});
const activityFilters = (query: z.infer<typeof adminActivityExportQuery>) => ({
  severity: query['filter[severity]'],
  subjectType: query['filter[subject_type]'],
  subjectId: query['filter[subject_id]'],
  causerId: query['filter[causer_id]'],
  from: query['filter[from]'],
  to: query['filter[to]'],
});

/** The platform admins' lists and their CSV exports (403 for everyone else; behind the onboarding gate first). */
export function adminRoutes({ db, clock, config }: AppContext): FastifyPluginAsyncZod {
  /** When the teams' and workspaces' statuses are measured: now, with the warning time in force. */
  const statusTime = async () => ({ now: clock.now(), warningDays: (await lifecycleSettings(db, config.lifecycleDefaults)).warning_days });
  return async (app) => {
    app.get(
      '/api/admin/teams',
      {
        schema: { tags, summary: 'Every team with its member and workspace counts', security, querystring: adminTeamsQuery, response: { 200: listSchema(adminTeamSchema) } },
        onRequest: requireAdmin,
      },
      async (request) => {
        const { query } = request;
        const at = await statusTime();
        return answer(query, aliased(await listTeams(db, { ...query, perPage: query.per_page, ...teamFilters(query, at.now) }, at), withTeamAliases));
      },
    );

    app.get(
      '/api/admin/workspaces',
      {
        schema: {
          tags,
          summary: 'Every workspace with its team and users',
          security,
          querystring: adminWorkspacesQuery,
          response: { 200: listSchema(adminWorkspaceSchema) },
        },
        onRequest: requireAdmin,
      },
      async (request) => {
        const { query } = request;
        const at = await statusTime();
        return answer(
          query,
          aliased(await listWorkspaces(db, { ...query, perPage: query.per_page, ...workspaceFilters(query, at.now) }, at), withWorkspaceAliases),
        );
      },
    );

    app.get(
      '/api/admin/users',
      {
        schema: {
          tags,
          summary: 'Every user with their teams and workspaces',
          security,
          querystring: adminUsersQuery,
          response: { 200: listSchema(adminUserSchema) },
        },
        onRequest: requireAdmin,
      },
      async (request) => {
        const { query } = request;
        return answer(
          query,
          aliased(await listUsers(db, { ...query, perPage: query.per_page, ...userFilters(query, clock.now()) }), withUserAliases),
        );
      },
    );

    app.get(
      '/api/admin/activity',
      {
        schema: {
          tags,
          summary: 'The audit log, newest first',
          security,
          querystring: adminActivityQuery,
          response: { 200: listSchema(adminActivitySchema) },
        },
        onRequest: requireAdmin,
      },
      async (request) => {
        const { query } = request;
        return answer(
          query,
          await listActivity(db, { ...query, perPage: query.per_page, ...activityFilters(query) }),
        );
      },
    );

    // CSV exports: the same filters as the lists above, the whole list streamed (csvExport.ts).
    app.get(
      '/api/admin/teams.csv',
      {
        schema: {
          tags,
          summary: 'The teams of the list (same search) as CSV: one line per team, members as a count and a joined column',
          security,
          querystring: adminTeamsExportQuery,
          ...csvResponse('CSV (header line; formula-like cells start with a single quote)'),
        },
        onRequest: requireAdmin,
      },
      async (request, reply) => sendCsv(reply, 'teams', exportTeams(db, { ...request.query, ...teamFilters(request.query, clock.now()) })),
    );

    app.get(
      '/api/admin/workspaces.csv',
      {
        schema: {
          tags,
          summary: 'The workspaces of the list (same filters) as CSV: one line per workspace with its team and member count',
          security,
          querystring: adminWorkspacesExportQuery,
          ...csvResponse('CSV (header line; formula-like cells start with a single quote)'),
        },
        onRequest: requireAdmin,
      },
      async (request, reply) => {
        const { query } = request;
        return sendCsv(reply, 'workspaces', exportWorkspaces(db, { ...query, ...workspaceFilters(query, clock.now()) }));
      },
    );

    app.get(
      '/api/admin/users.csv',
      {
        schema: {
          tags,
          summary: 'The users of the list (same filters) as CSV: one line per user, teams and workspaces as counts and joined columns',
          security,
          querystring: adminUsersExportQuery,
          ...csvResponse('CSV (header line; formula-like cells start with a single quote)'),
        },
        onRequest: requireAdmin,
      },
      async (request, reply) => {
        const { query } = request;
        return sendCsv(reply, 'users', exportUsers(db, { ...query, ...userFilters(query, clock.now()) }));
      },
    );

    app.get(
      '/api/admin/activity.csv',
      {
        schema: {
          tags,
          summary: 'The audit log of the list (same filters) as CSV, newest first',
          security,
          querystring: adminActivityExportQuery,
          ...csvResponse('CSV (header line; formula-like cells start with a single quote)'),
        },
        onRequest: requireAdmin,
      },
      async (request, reply) => {
        const { query } = request;
        return sendCsv(
          reply,
          'activity',
          exportActivity(db, { ...query, ...activityFilters(query), ids: query['filter[ids]'] }),
        );
      },
    );
  };
}
