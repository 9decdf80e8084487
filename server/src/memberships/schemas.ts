import { z } from 'zod';
import { idField } from '../http/schemas.js';
import { teamRoleField } from '../teams/roles.js';
import { endDateField } from '../teams/membershipEnd.js';

// Bodies and answers of the team member routes (memberRoutes.ts): a role change, bulk removal.

/**
 * A member's role (ours or the Laravel-era name, teams/roles.ts) and/or the membership's end
 * (`expires_at`: an ISO date-time in the future, or null for no end); at least one of them.
 */
export const roleBody = z
  .object({ role: teamRoleField().optional(), expires_at: endDateField('expires_at').optional() })
  .superRefine((body, context) => {
    if (body.role === undefined && body.expires_at === undefined) context.addIssue({ code: 'custom', path: ['role'], message: 'The role field is required.' });
  });

/** At most this many people in one bulk call (each is its own transaction). */
export const MAX_BULK_IDS = 1000;

export const bulkMembersBody = z.object({
  user_ids: z
    .array(idField('user_ids'), { error: 'The user_ids field must be a list of ids.' })
    .min(1, 'The user_ids field is required.')
    .max(MAX_BULK_IDS, `The user_ids field must not have more than ${MAX_BULK_IDS} items.`),
  action: z.enum(['remove'], {
    error: (issue) =>
      issue.input === undefined || issue.input === null ? 'The action field is required.' : 'The selected action is invalid.',
  }),
});

const teamRole = z.enum(['owner', 'manager', 'member']);

export const memberRoleAnswer = z.object({
  id: z.number(),
  team_id: z.number(),
  role: teamRole,
  previous: teamRole,
  /** The membership's end date (null: none). */
  expires_at: z.string().nullable(),
});

export const bulkMembersAnswer = z.object({
  results: z.array(z.object({ id: z.number(), status: z.enum(['done', 'forbidden', 'not_found', 'conflict']), message: z.string().nullable() })),
  totals: z.object({ done: z.number(), forbidden: z.number(), not_found: z.number(), conflict: z.number() }),
});
