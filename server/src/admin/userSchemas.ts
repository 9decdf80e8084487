import { z } from 'zod';
import { MAX_ID, idParam } from '../http/schemas.js';

// Request and answer shapes of the admin user routes (userRoutes.ts): docs/api-contract.md,
// "Admin: users". Flags are JSON booleans; anything else is a 422 on the field.

export const userIdParams = z.object({ id: idParam() });
export const userTokenParams = z.object({ id: idParam(), tokenId: idParam() });

const flag = (field: string) => z.boolean({ error: `The ${field} field must be true or false.` }).optional();

export const updateUserBody = z
  .object({ enabled: flag('enabled'), admin: flag('admin') })
  .refine((body) => body.enabled !== undefined || body.admin !== undefined, {
    message: 'Give enabled or admin.',
    path: ['enabled'],
  });

/** At most this many ids in one bulk request; a filter has no such limit. */
export const MAX_BULK_IDS = 10_000;

const bulkId = z
  .number({ error: 'Each id must be an integer.' })
  .int('Each id must be an integer.')
  .min(1, 'Each id must be an integer.')
  .max(MAX_ID, 'Each id must be an integer.');

/** The users list's filters (GET /api/admin/users `q` and `filter[...]`), as JSON. */
export const bulkFilter = z.object(
  {
    q: z.string({ error: 'The filter.q field must be a string.' }).trim().max(255, 'The filter.q field must not be greater than 255 characters.').optional(),
    admin: flag('filter.admin'),
    enabled: flag('filter.enabled'),
    verified: flag('filter.verified'),
    policy: flag('filter.policy'),
    team_id: bulkId.optional(),
    active_within_days: z
      .number({ error: 'The filter.active_within_days field must be a whole number of days from 1 to 3650.' })
      .int('The filter.active_within_days field must be a whole number of days from 1 to 3650.')
      .min(1, 'The filter.active_within_days field must be a whole number of days from 1 to 3650.')
      .max(3650, 'The filter.active_within_days field must be a whole number of days from 1 to 3650.')
      .optional(),
  },
  { error: 'The filter field must be an object.' },
);

export const bulkUsersBody = z
  .object({
    ids: z.array(bulkId, { error: 'The ids field must be a list of ids.' }).max(MAX_BULK_IDS, `The ids field must not have more than ${MAX_BULK_IDS} items.`).optional(),
    filter: bulkFilter.optional(),
    action: z.enum(['disable', 'enable'], { error: 'The action field must be disable or enable.' }),
    dry_run: z.boolean({ error: 'The dry_run field must be true or false.' }).optional(),
  })
  .refine((body) => (body.ids === undefined) !== (body.filter === undefined), { message: 'Give either ids or filter.', path: ['ids'] });

const itemStatus = z.enum(['done', 'unchanged', 'forbidden', 'not_found']);
const revoked = z.object({ sessions: z.number(), personal_tokens: z.number(), kubeconfigs: z.number() });

export const bulkUsersAnswer = z.object({
  action: z.enum(['disable', 'enable']),
  dry_run: z.boolean(),
  matched: z.number(),
  totals: z.object({ done: z.number(), unchanged: z.number(), forbidden: z.number(), not_found: z.number() }),
  revoked,
  results: z.array(z.object({ id: z.number(), status: itemStatus, message: z.string().optional() })),
});

export const revokedTokensAnswer = z.object({ message: z.string(), revoked: z.number() });

const activityEntry = z.object({
  id: z.number(),
  description: z.string(),
  subject_type: z.string().nullable(),
  subject_id: z.number().nullable(),
  properties: z.looseObject({ severity: z.enum(['info', 'warning', 'error']) }),
  created_at: z.string(),
});

export const adminUserDetailSchema = z.object({
  id: z.number(),
  name: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  email: z.string(),
  email_verified_at: z.string().nullable(),
  aup_accepted_at: z.string().nullable(),
  admin: z.boolean(),
  enabled: z.boolean(),
  authority: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  last_login_at: z.string().nullable(),
  last_login_source: z.literal('activity log'),
  teams: z.array(z.object({ id: z.number(), name: z.string(), fullname: z.string(), role: z.string(), enabled: z.boolean() })),
  workspaces: z.array(
    z.object({
      id: z.number(),
      name: z.string(),
      namespace: z.string(),
      team: z.object({ id: z.number(), name: z.string() }),
      role: z.string(),
      cluster_state: z.string(),
    }),
  ),
  tokens: z.array(
    z.object({ id: z.number(), name: z.string(), created_at: z.string(), last_used_at: z.string().nullable(), expires_at: z.string().nullable() }),
  ),
  nodes: z.array(
    z.object({
      id: z.number(),
      name: z.string().nullable(),
      hostname: z.string().nullable(),
      type: z.string(),
      status: z.string(),
      last_active_at: z.string().nullable(),
      created_at: z.string(),
    }),
  ),
  activity: z.array(activityEntry),
  counts: z.object({ sessions: z.number(), personal_tokens: z.number(), kubeconfigs: z.number(), nodes: z.number() }),
});
