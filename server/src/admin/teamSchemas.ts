import { z } from 'zod';
import { workspaceQuotaBody } from '../workspaces/quota.js';
import { teamQuotaSchema } from '../teams/quota.js';
import { MAX_ALLOCATION_CORE_HOURS } from '../allocations/allocations.js';
import { adminTeamsQuery } from './schemas.js';
import { lineText, MAX_ID, requiredText } from '../http/schemas.js';
import { bulkEndFilters, bulkExtendAnswer, DAYS_REQUIRED, extendDays, extendHasDays } from './extendBulk.js';

// Request and answer schemas of the team administration routes (adminRoutes.ts, memberRoutes.ts).

const teamRole = z.enum(['owner', 'manager', 'member']);

/** An optional http(s) address; empty or null clears it. */
const optionalHttpUrl = (field: string) =>
  lineText(field)
    .refine((value) => {
      if (value === '') return true;
      try {
        const url = new URL(value);
        return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
      } catch {
        return false;
      }
    }, 'Invalid URL')
    .nullable()
    .optional()
    .transform((value) => (value === '' ? null : value));

/** An optional one-line field; empty or null clears it. */
const clearableText = (field: string) =>
  lineText(field)
    .nullable()
    .optional()
    .transform((value) => (value === '' ? null : value));

export const updateTeamBody = z.object({
  fullname: requiredText('fullname').optional(),
  url: optionalHttpUrl('url'),
  country: clearableText('country'),
  affiliation: clearableText('affiliation'),
  enabled: z.boolean({ error: 'The enabled field must be true or false.' }).optional(),
  /** The team quota: the workspace quota's fields and messages (null: no cap on that resource). */
  quota: workspaceQuotaBody.shape.quota.optional(),
  /** CPU core-hours per calendar month (docs/usage.md, "Allocations"); null: no allocation. */
  allocation_core_hours: z
    .number({ error: 'The allocation_core_hours field must be a number.' })
    .positive('The allocation_core_hours field must be greater than 0.')
    .max(MAX_ALLOCATION_CORE_HOURS, `The allocation_core_hours field must not be greater than ${MAX_ALLOCATION_CORE_HOURS}.`)
    .nullable()
    .optional(),
});

const queryFlag = (field: string) =>
  z
    .enum(['1', '0', 'true', 'false'], { error: `The ${field} field must be 1 or 0.` })
    .transform((value) => value === '1' || value === 'true')
    .optional();

export const deleteTeamQuery = z.object({ cascade: queryFlag('cascade'), dry_run: queryFlag('dry_run') });

const activityEntry = z.object({
  id: z.number(),
  description: z.string(),
  subject_type: z.string().nullable(),
  subject_id: z.number().nullable(),
  properties: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});

export const adminTeamDetailSchema = z.object({
  id: z.number(),
  name: z.string(),
  fullname: z.string(),
  shortname: z.string(),
  affiliation: z.string().nullable(),
  city: z.string().nullable(),
  country: z.string().nullable(),
  url: z.string().nullable(),
  joining_category: z.string().nullable(),
  joining_reason: z.string().nullable(),
  enabled: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
  members: z.array(z.object({ id: z.number(), name: z.string(), email: z.string(), role: teamRole, enabled: z.boolean(), joined_at: z.string() })),
  workspaces: z.array(
    z.object({
      id: z.number(),
      name: z.string(),
      label: z.string(),
      namespace: z.string(),
      cluster_state: z.string(),
      created_at: z.string(),
      member_count: z.number(),
      quota: z.record(z.string(), z.string()),
    }),
  ),
  counts: z.object({
    members: z.number(),
    owners: z.number(),
    managers: z.number(),
    workspaces: z.number(),
    workspace_members: z.number(),
    pending_requests: z.number(),
  }),
  activity: z.array(activityEntry),
  quota: teamQuotaSchema,
  /** CPU core-hours per calendar month; null: no allocation. */
  allocation_core_hours: z.number().nullable(),
  /** Since when this month's allocation is used up (no new pods); null: it is not. */
  allocation_used_up_at: z.string().nullable(),
});

export const teamDeletionSchema = z.object({
  team: z.object({ id: z.number(), name: z.string(), fullname: z.string() }),
  workspaces: z.array(z.object({ id: z.number(), name: z.string(), namespace: z.string(), member_count: z.number() })),
  namespaces: z.array(z.string()),
  counts: z.object({
    workspaces: z.number(),
    namespaces: z.number(),
    team_members: z.number(),
    workspace_members: z.number(),
    pending_requests: z.number(),
  }),
  /** True for ?dry_run=1: nothing was changed. */
  dry_run: z.boolean(),
  /** Whether the deletion needs ?cascade=1 (the team has workspaces). */
  requires_cascade: z.boolean(),
  deleted: z.boolean(),
});

/** At most this many ids in one bulk suspension; a filter has no such limit. */
export const MAX_BULK_TEAM_IDS = 10_000;

const bulkTeamId = z
  .number({ error: 'Each id must be an integer.' })
  .int('Each id must be an integer.')
  .min(1, 'Each id must be an integer.')
  .max(MAX_ID, 'Each id must be an integer.');

/** The admin teams list's filters (GET /api/admin/teams `q` and `filter[...]`), as JSON. */
export const bulkTeamsFilter = z.object(
  {
    q: z
      .string({ error: 'The filter.q field must be a string.' })
      .trim()
      .max(255, 'The filter.q field must not be greater than 255 characters.')
      .refine((value) => !value.includes('\u0000'), 'The filter.q field contains an invalid character.')
      .optional(),
    // The list's own date rules (ISO 8601 day or date-time with a zone; `to` takes in that day).
    from: adminTeamsQuery.shape['filter[from]'],
    to: adminTeamsQuery.shape['filter[to]'],
    has_workspaces: z.boolean({ error: 'The filter.has_workspaces field must be true or false.' }).optional(),
    ...bulkEndFilters,
  },
  { error: 'The filter field must be an object.' },
);

export const bulkTeamsBody = z
  .object({
    ids: z
      .array(bulkTeamId, { error: 'The ids field must be a list of ids.' })
      .min(1, 'The ids field must have at least 1 item.')
      .max(MAX_BULK_TEAM_IDS, `The ids field must not have more than ${MAX_BULK_TEAM_IDS} items.`)
      .optional(),
    filter: bulkTeamsFilter.optional(),
    action: z.enum(['suspend', 'enable', 'extend'], {
      error: (issue) =>
        issue.input === undefined || issue.input === null ? 'The action field is required.' : 'The action field must be suspend, enable or extend.',
    }),
    /** extend: by how many days (extendBulk.ts); ignored by the other actions. */
    days: extendDays,
    dry_run: z.boolean({ error: 'The dry_run field must be true or false.' }).optional(),
  })
  .refine((body) => (body.ids === undefined) !== (body.filter === undefined), { message: 'Give either ids or filter.', path: ['ids'] })
  .refine(extendHasDays, { message: DAYS_REQUIRED, path: ['days'] });

/** Suspending or enabling. */
const bulkTeamsEnabledAnswer = z.object({
  action: z.enum(['suspend', 'enable']),
  dry_run: z.boolean(),
  /** How many teams the ids or the filter named. */
  matched: z.number(),
  totals: z.object({ done: z.number(), unchanged: z.number(), not_found: z.number() }),
  /** Whom the change reaches (would reach, in a dry run): distinct people, workspaces, workspace memberships. */
  reach: z.object({ members: z.number(), workspaces: z.number(), workspace_memberships: z.number() }),
  results: z.array(z.object({ id: z.number(), status: z.enum(['done', 'unchanged', 'not_found']), message: z.string().optional() })),
});

export const bulkTeamsAnswer = z.discriminatedUnion('action', [bulkTeamsEnabledAnswer, bulkExtendAnswer]);
