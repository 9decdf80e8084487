import { z } from 'zod';
import { paginationQuery } from '../http/pagination.js';
import { MAX_ID } from '../http/schemas.js';
import { exportIdsFilter } from '../http/csvExport.js';

// Query strings of the admin lists. `sort` takes only the listed columns and each filter only
// sensible values, so odd input is a 422 with a field message, never a database error.

const sortField = <T extends readonly [string, ...string[]]>(columns: T) =>
  z.enum(columns, { error: `The selected sort is invalid. Sort by ${columns.join(', ')}.` });

const common = {
  ...paginationQuery,
  order: z.enum(['asc', 'desc'], { error: 'The order field must be asc or desc.' }).optional(),
  q: z
    .string({ error: 'The q field must be a string.' })
    .trim()
    .max(255, 'The q field must not be greater than 255 characters.')
    .refine((value) => !value.includes('\u0000'), 'The q field contains an invalid character.')
    .optional(),
};

const flagFilter = (field: string) =>
  z
    .enum(['1', '0', 'true', 'false'], { error: `The ${field} filter must be true or false.` })
    .transform((value) => value === '1' || value === 'true')
    .optional();

const idFilter = (field: string) =>
  z
    .string({ error: `The ${field} filter must be an id.` })
    .regex(/^\d{1,10}$/, `The ${field} filter must be an id.`)
    .transform(Number)
    .refine((value) => value <= MAX_ID, `The ${field} filter must be an id.`)
    .optional();

/**
 * `filter[from]` / `filter[to]`: an ISO 8601 date (`2026-03-01`) or date and time with a
 * zone (`2026-03-01T12:00:00Z`), both inclusive: a date `to` takes in that whole (UTC) day.
 * Answered as the ISO text timestamps are stored in, `to` as an exclusive bound.
 */
const dateFilter = (field: 'from' | 'to') =>
  z
    .string({ error: `The ${field} filter must be a date.` })
    .regex(
      /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2}))?$/,
      `The ${field} filter must be an ISO 8601 date (YYYY-MM-DD, or a date and time with a time zone).`,
    )
    .transform((value, context) => {
      const date = new Date(value.length === 10 ? `${value}T00:00:00Z` : value);
      if (Number.isNaN(date.getTime()) || date.getUTCFullYear() > 9999 || (value.length === 10 && date.toISOString().slice(0, 10) !== value)) {
        context.addIssue({ code: 'custom', message: `The ${field} filter must be a valid date.` });
        return z.NEVER;
      }
      if (field === 'to') date.setTime(date.getTime() + (value.length === 10 ? 86_400_000 : 1));
      return date.toISOString();
    })
    .optional();

const dateFilters = { 'filter[from]': dateFilter('from'), 'filter[to]': dateFilter('to') };

/** The most days the end filters look ahead (ten years, as far as an end date may be set). */
export const MAX_FILTER_DAYS = 3650;
export const EXPIRING_MESSAGE = `The expiring_within_days filter must be a whole number of days from 1 to ${MAX_FILTER_DAYS}.`;

/**
 * `filter[expiring_within_days]=N`: ends from now to N days on (the app's clock); `filter[expired]`:
 * ended (true) or not (false). Read by the route at the app's clock (lists/common.ts, EndFilters).
 */
const endFilters = {
  'filter[expiring_within_days]': z
    .string({ error: EXPIRING_MESSAGE })
    .regex(/^\d{1,4}$/, EXPIRING_MESSAGE)
    .transform(Number)
    .refine((value) => value >= 1 && value <= MAX_FILTER_DAYS, EXPIRING_MESSAGE)
    .optional(),
  'filter[expired]': flagFilter('expired'),
};

export const TEAM_SORTS = ['name', 'fullname', 'created_at', 'expires_at'] as const;
export const WORKSPACE_SORTS = ['name', 'label', 'namespace', 'created_at', 'expires_at'] as const;
export const USER_SORTS = ['name', 'email', 'created_at'] as const;
export const ACTIVITY_SORTS = ['created_at', 'description'] as const;

export const adminTeamsQuery = z.object({
  ...common,
  sort: sortField(TEAM_SORTS).default('name'),
  ...dateFilters,
  'filter[has_workspaces]': flagFilter('has_workspaces'),
  ...endFilters,
});

export const adminWorkspacesQuery = z.object({
  ...common,
  sort: sortField(WORKSPACE_SORTS).default('name'),
  'filter[team_id]': idFilter('team_id'),
  ...dateFilters,
  ...endFilters,
});

/** The most days back the activity filter looks (the log and tokens are kept that long at most). */
export const MAX_ACTIVE_DAYS = 3650;
export const ACTIVE_MESSAGE = `The active_within_days filter must be a whole number of days from 1 to ${MAX_ACTIVE_DAYS}.`;

export const adminUsersQuery = z.object({
  ...common,
  sort: sortField(USER_SORTS).default('name'),
  'filter[admin]': flagFilter('admin'),
  'filter[enabled]': flagFilter('enabled'),
  'filter[verified]': flagFilter('verified'),
  'filter[policy]': flagFilter('policy'),
  'filter[team_id]': idFilter('team_id'),
  /** Active from now back N days (the app's clock): lists/users.ts, activeUserIds. */
  'filter[active_within_days]': z
    .string({ error: ACTIVE_MESSAGE })
    .regex(/^\d{1,4}$/, ACTIVE_MESSAGE)
    .transform(Number)
    .refine((value) => value >= 1 && value <= MAX_ACTIVE_DAYS, ACTIVE_MESSAGE)
    .optional(),
});

export const adminActivityQuery = z.object({
  ...common,
  sort: sortField(ACTIVITY_SORTS).default('created_at'),
  'filter[severity]': z.enum(['info', 'warning', 'error'], { error: 'The severity filter must be info, warning or error.' }).optional(),
  'filter[subject_type]': z.string().max(255, 'The subject_type filter is too long.').optional(),
  'filter[subject_id]': idFilter('subject_id'),
  'filter[causer_id]': idFilter('causer_id'),
  ...dateFilters,
});

/**
 * The query of a list's CSV export: the list's filters and search. Paging and sorting do not
 * apply (an export is the whole list, in id order) and are ignored if sent.
 */
const notExported = { page: true, per_page: true, sort: true, order: true } as const;

export const adminTeamsExportQuery = adminTeamsQuery.omit(notExported);
export const adminWorkspacesExportQuery = adminWorkspacesQuery.omit(notExported);
export const adminUsersExportQuery = adminUsersQuery.omit(notExported);
/** The activity export also takes `filter[ids]` (its list's "Export selected"). */
export const adminActivityExportQuery = adminActivityQuery.omit(notExported).extend({ 'filter[ids]': exportIdsFilter() });

/** A membership in a list: `pivot.role` is the spec's name for `role` (lists/aliases.ts). */
const member = z.object({ id: z.number(), name: z.string(), role: z.string(), pivot: z.object({ role: z.string() }) });
const workspaceRefs = z.array(z.object({ id: z.number(), name: z.string() }));
/** Where an end date stands (workspaces/expiry.ts): `expiring` from the warning time before it. */
const endStatus = z.enum(['active', 'expiring', 'expired']);

export const adminTeamSchema = z.object({
  id: z.number(),
  name: z.string(),
  fullname: z.string(),
  shortname: z.string(),
  country: z.string().nullable(),
  affiliation: z.string().nullable(),
  /** false: suspended by a platform admin. */
  enabled: z.boolean(),
  created_at: z.string(),
  /** The review date (null: none). */
  expires_at: z.string().nullable(),
  status: endStatus,
  member_count: z.number(),
  /**
   * The first members (owners, then managers, then members; at most USERS_PER_TEAM_ROW) with
   * their role: the specification's "users with role", bounded. `member_count` says how many
   * there are; the team's page lists them all.
   */
  users: z.array(z.object({ id: z.number(), name: z.string(), role: z.enum(['owner', 'manager', 'member']), pivot: z.object({ role: z.enum(['owner', 'manager', 'member']) }) })),
  workspace_count: z.number(),
  workspaces: workspaceRefs,
  /** The spec's names for `workspaces`. */
  sub_namespaces: workspaceRefs,
  subnamespaces: workspaceRefs,
});

export const adminWorkspaceSchema = z.object({
  id: z.number(),
  name: z.string(),
  label: z.string(),
  namespace: z.string(),
  created_at: z.string(),
  /** Its own end date (null: none), what an extension moves. */
  expires_at: z.string().nullable(),
  /** When it ends: the earlier of its own date and its team's review date. */
  ends_at: z.string().nullable(),
  status: endStatus,
  /** While expired: `suspending` until the cluster holds the suspension, then `suspended`. */
  suspension: z.enum(['suspending', 'suspended']).nullable(),
  team: z.object({ id: z.number(), name: z.string() }),
  /** The spec's name for `team`. */
  tenant: z.object({ id: z.number(), name: z.string() }),
  users: z.array(member),
});

export const adminUserSchema = z.object({
  id: z.number(),
  name: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  email: z.string(),
  admin: z.boolean(),
  enabled: z.boolean(),
  email_verified_at: z.string().nullable(),
  aup_accepted_at: z.string().nullable(),
  created_at: z.string(),
  teams: z.array(member),
  workspaces: z.array(member),
  /** The spec's names for `teams` and `workspaces`. */
  tenants: z.array(member),
  sub_namespaces: z.array(member),
  subnamespaces: z.array(member),
});

export const adminActivitySchema = z.object({
  id: z.number(),
  causer: z.object({ id: z.number(), name: z.string() }).nullable(),
  description: z.string(),
  subject: z.object({ id: z.number(), name: z.string() }).nullable(),
  subject_type: z.string().nullable(),
  subject_id: z.number().nullable(),
  properties: z.looseObject({ severity: z.enum(['info', 'warning', 'error']) }),
  created_at: z.string(),
});
