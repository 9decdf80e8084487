import { z } from 'zod';
import { endDateField } from '../teams/membershipEnd.js';
import { paginationQuery } from '../http/pagination.js';
import { idField, idParam, MAX_ID, optionalLineText, optionalText, requiredMultilineText, requiredText } from '../http/schemas.js';
import { workspaceQuotaBody } from '../workspaces/quota.js';
import { MAX_WORKSPACE_NAME_LENGTH, WORKSPACE_NAME_PATTERN } from '../workspaces/naming.js';

export const JOINING_CATEGORIES = ['Research', 'Teaching', 'Other'] as const;

const httpUrl = (field: string) =>
  requiredText(field).refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
    } catch {
      return false;
    }
  }, 'Invalid URL');

const workspaceName = () =>
  requiredText('name', MAX_WORKSPACE_NAME_LENGTH).regex(WORKSPACE_NAME_PATTERN, 'Invalid name');

export const createTeamBody = z.object({
  fullname: requiredText('fullname'),
  shortname: requiredText('shortname', 100),
  affiliation: requiredText('affiliation'),
  country: requiredText('country'),
  url: httpUrl('url'),
  joining_reason: requiredMultilineText('joining_reason', 2000),
  joining_category: z.enum(JOINING_CATEGORIES, {
    error: (issue) =>
      issue.input === undefined || issue.input === null || issue.input === ''
        ? 'The joining_category field is required.'
        : 'The selected joining_category is invalid.',
  }),
  city: optionalLineText('city', 255),
  // Always derived from shortname; accepted (and ignored) because Laravel-era consoles send it.
  name: z.unknown().optional(),
});

export const joinTeamBody = z.object({ team_id: idField('team_id'), message: optionalText('message') });

export const createWorkspaceBody = z.object({
  label: requiredText('label'),
  name: workspaceName(),
  team_id: idField('team_id'),
  description: optionalText('description'),
  message: optionalText('message'),
});

export const joinWorkspaceBody = z.object({
  team_id: idField('team_id'),
  name: requiredText('name'),
  message: optionalText('message'),
});

export const decisionBody = z.object({
  action: z.enum(['approve', 'deny'], {
    error: (issue) =>
      issue.input === undefined || issue.input === null ? 'The action field is required.' : 'The selected action is invalid.',
  }),
  message: optionalText('message'),
  /** Approving a JoinTeam: when the membership it gives ends (null or absent: no end). */
  membership_expires_at: endDateField('membership_expires_at').optional(),
  /** Approving a QuotaIncrease beyond what the team has left: platform admins raise the team quota as much as it needs. */
  raise_team_quota: z.boolean({ error: 'The raise_team_quota field must be true or false.' }).optional(),
});

export const requestIdParams = z.object({ id: idParam() });

/** The longest renewal one request may ask for: ten years. */
export const MAX_RENEWAL_DAYS = 3650;

/** POST /api/requests/workspaces/{id}/renewal: `days` (1 to 3650) or `until` (a date-time ahead), and why. */
export const workspaceRenewalBody = z
  .object({
    days: z
      .number({ error: 'The days field must be a whole number of days.' })
      .int('The days field must be a whole number of days.')
      .min(1, 'The days field must be at least 1.')
      .max(MAX_RENEWAL_DAYS, `The days field must not be greater than ${MAX_RENEWAL_DAYS}.`)
      .optional(),
    until: z.iso.datetime({ offset: true, error: 'The until field must be an ISO 8601 date-time.' }).optional(),
    reason: requiredMultilineText('reason', 2000),
  })
  .superRefine((body, context) => {
    if (body.days === undefined && body.until === undefined) context.addIssue({ code: 'custom', message: 'The days field is required.', path: ['days'] });
    else if (body.days !== undefined && body.until !== undefined) context.addIssue({ code: 'custom', message: 'Give either days or until, not both.', path: ['days'] });
  });

/**
 * POST /api/requests/workspaces/{id}/quota: the values wanted (the workspace quota's fields and
 * messages), why, and optionally until when (then the former quota returns).
 */
export const quotaRequestBody = z.object({
  quota: workspaceQuotaBody.shape.quota,
  reason: requiredMultilineText('reason', 2000),
  until: z.iso.datetime({ offset: true, error: 'The until field must be an ISO 8601 date-time.' }).optional(),
});

/** POST /api/requests/teams/{id}/renewal. */
export const teamRenewalBody = z.object({ reason: requiredMultilineText('reason', 2000) });

const REQUEST_STATUSES = ['Pending', 'Approved', 'Denied', 'Error'] as const;
export const REQUEST_TYPES = ['CreateTeam', 'JoinTeam', 'CreateWorkspace', 'JoinWorkspace', 'RenewWorkspace', 'RenewTeam', 'QuotaIncrease'] as const;

const statusFilter = (field: string) => z.enum(REQUEST_STATUSES, { error: `The selected ${field} is invalid.` }).optional();

/**
 * GET /api/requests. `status` is the first console's spelling of `filter[status]` (the sidebar
 * badge still sends it); when both come, `filter[status]` wins.
 */
export const requestListQuery = z.object({
  ...paginationQuery,
  status: statusFilter('status'),
  'filter[status]': statusFilter('status filter'),
  'filter[type]': z.enum(REQUEST_TYPES, { error: 'The selected type filter is invalid.' }).optional(),
  'filter[team_id]': z
    .string({ error: 'The team_id filter must be an id.' })
    .regex(/^\d{1,10}$/, 'The team_id filter must be an id.')
    .transform(Number)
    .refine((value) => value <= MAX_ID, 'The team_id filter must be an id.')
    .optional(),
  q: z
    .string({ error: 'The q field must be a string.' })
    .trim()
    .max(255, 'The q field must not be greater than 255 characters.')
    .refine((value) => !value.includes('\u0000'), 'The q field contains an invalid character.')
    .optional(),
  // Only the date sorts: other orders would need an index each and nobody asked for them.
  sort: z.enum(['created_at'], { error: 'The selected sort is invalid. Sort by created_at.' }).default('created_at'),
  order: z.enum(['asc', 'desc'], { error: 'The order field must be asc or desc.' }).default('desc'),
});

/** How many requests one bulk call may decide: enough for a page of 100 five times over, small enough to answer in seconds. */
export const MAX_BULK_IDS = 500;

/** The list's filters (GET /api/requests `filter[...]` and `q`) as JSON, for a bulk decision over everything they match. */
export const bulkRequestFilter = z.object(
  {
    status: z.enum(REQUEST_STATUSES, { error: 'The selected filter.status is invalid.' }).optional(),
    type: z.enum(REQUEST_TYPES, { error: 'The selected filter.type is invalid.' }).optional(),
    team_id: idField('filter.team_id').optional(),
    q: z
      .string({ error: 'The filter.q field must be a string.' })
      .trim()
      .max(255, 'The filter.q field must not be greater than 255 characters.')
      .refine((value) => !value.includes('\u0000'), 'The filter.q field contains an invalid character.')
      .optional(),
  },
  { error: 'The filter field must be an object.' },
);

/**
 * POST /api/requests/bulk: `ids` (at most 500) or `filter` (no limit: everything it matches
 * on the server), exactly one of them.
 */
export const bulkDecisionBody = z
  .object({
    ids: z
      .array(idField('ids.*'), {
        error: (issue) => (issue.input === undefined || issue.input === null ? 'The ids field is required.' : 'The ids field must be an array.'),
      })
      .min(1, 'The ids field must have at least 1 item.')
      .max(MAX_BULK_IDS, `The ids field must not have more than ${MAX_BULK_IDS} items.`)
      .optional(),
    filter: bulkRequestFilter.optional(),
    action: decisionBody.shape.action,
    message: optionalText('message'),
    dry_run: z.boolean({ error: 'The dry_run field must be true or false.' }).optional(),
  })
  .superRefine((body, context) => {
    if (body.ids === undefined && body.filter === undefined) context.addIssue({ code: 'custom', message: 'The ids field is required.', path: ['ids'] });
    else if (body.ids !== undefined && body.filter !== undefined) context.addIssue({ code: 'custom', message: 'Give either ids or filter, not both.', path: ['ids'] });
  });

export const bulkDecisionSchema = z.object({
  results: z.array(
    z.object({
      id: z.number(),
      status: z.enum(['decided', 'forbidden', 'not_found', 'conflict']),
      http: z.union([z.literal(200), z.literal(403), z.literal(404), z.literal(409)]),
      request_status: z.enum(['Approved', 'Denied']).optional(),
      message: z.string().optional(),
    }),
  ),
  totals: z.object({
    requested: z.number(),
    decided: z.number(),
    forbidden: z.number(),
    not_found: z.number(),
    conflict: z.number(),
  }),
});
