import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database, Invitation } from '../db/schema.js';
import { emailField, idField, idParam } from '../http/schemas.js';
import { isExpired, MAX_INVITED_WORKSPACES, workspaceIdsOf } from './invitations.js';
import { grantStates, inviterCanGrant } from './rights.js';
import { endDateField } from '../teams/membershipEnd.js';
import { type BatchOutcome, MAX_BATCH_ADDRESSES } from './batch.js';

const teamRole = z.enum(['owner', 'manager', 'member']);

const isObject = (payload: { value: unknown }) => payload.value !== null && typeof payload.value === 'object';

/**
 * POST /api/tenants/{id}/invitations: one address (`email`) or many (`emails`, up to
 * MAX_BATCH_ADDRESSES), with what they all get. In `emails`, each address is checked on its own
 * (batch.ts): a string that is not an address is an outcome, not a refusal of the call.
 */
export const invitationBody = z
  .object({
    email: emailField().optional(),
    emails: z
      .array(z.string({ error: 'Each address in the emails field must be a string.' }), {
        error: 'The emails field must be a list of addresses.',
      })
      .min(1, 'The emails field must have at least 1 item.')
      .max(MAX_BATCH_ADDRESSES, `The emails field must not have more than ${MAX_BATCH_ADDRESSES} items.`)
      .optional(),
    role: z.enum(['owner', 'manager', 'member'], {
      error: (issue) => (issue.input === undefined || issue.input === null ? 'The role field is required.' : 'The selected role is invalid.'),
    }),
    workspace_ids: z
      .array(idField('workspace_ids'), { error: 'The workspace_ids field must be a list of workspace ids.' })
      .max(MAX_INVITED_WORKSPACES, `The workspace_ids field must not have more than ${MAX_INVITED_WORKSPACES} items.`)
      .nullish()
      .transform((value) => value ?? []),
    /** The mail's language (else the invitee's saved one, else the inviter's request language). */
    locale: z.enum(['en', 'fr'], { error: 'The selected locale is invalid.' }).optional(),
    /** When the membership it gives ends (a class until the end of term); null or absent: no end. */
    membership_expires_at: endDateField('membership_expires_at').optional(),
  })
  // Said even when other fields are refused too, so that a form shows every message at once.
  .refine((body) => body.email !== undefined || body.emails !== undefined, { message: 'The email field is required.', path: ['email'], when: isObject })
  .refine((body) => body.email === undefined || body.emails === undefined, { message: 'Give either email or emails, not both.', path: ['emails'], when: isObject });

export const teamParams = z.object({ team: idParam() });
export const invitationParams = z.object({ team: idParam(), invitation: idParam() });
/** Checked by invitationOfLink (a bad link is a 403, like a bad reset link). */
export const linkParams = z.object({ id: z.string(), token: z.string() });

const workspaceSummary = z.object({ id: z.number(), name: z.string(), label: z.string() });

/** An invitation as its team's owners and managers see it (never the token). */
export const invitationSchema = z.object({
  id: z.number(),
  team_id: z.number(),
  email: z.string(),
  role: teamRole,
  workspaces: z.array(workspaceSummary),
  status: z.enum(['pending', 'accepted', 'revoked']),
  /** Pending but past expires_at: it can only be resent or revoked. */
  expired: z.boolean(),
  invited_by: z.object({ id: z.number(), name: z.string() }).nullable(),
  /**
   * false: its inviter may no longer give its role in the team (demoted, removed, disabled, or
   * the account deleted), so it cannot be accepted until someone who may resends it.
   */
  inviter_can_grant: z.boolean(),
  /** When the membership it gives ends; null: no end. */
  membership_expires_at: z.string().nullable(),
  expires_at: z.string(),
  sent_at: z.string(),
  created_at: z.string(),
});

const BATCH_STATUSES = ['created', 'already_member', 'already_invited', 'invalid', 'limited'] as const;

/** The answer to many addresses: one outcome per distinct address, in the order sent, and the counts. */
export const batchAnswerSchema = z.object({
  results: z.array(
    z.object({
      email: z.string(),
      status: z.enum(BATCH_STATUSES),
      /** Why it was not invited: the one-address call's message (null when invited). */
      message: z.string().nullable(),
      invitation: invitationSchema.nullable(),
    }),
  ),
  totals: z.object({
    requested: z.number(),
    created: z.number(),
    already_member: z.number(),
    already_invited: z.number(),
    invalid: z.number(),
    limited: z.number(),
  }),
  /** When some were over a budget: the seconds until it allows more (else null). */
  retry_after: z.number().nullable(),
});

export async function presentBatch(db: Kysely<Database>, outcomes: BatchOutcome[], retryAfter: number | null): Promise<z.infer<typeof batchAnswerSchema>> {
  const created = outcomes.flatMap((outcome) => (outcome.invitation ? [outcome.invitation] : []));
  const presented = new Map((await presentInvitations(db, created)).map((invitation) => [invitation.id, invitation]));
  const count = (status: (typeof BATCH_STATUSES)[number]) => outcomes.filter((outcome) => outcome.status === status).length;
  return {
    results: outcomes.map((outcome) => ({
      email: outcome.email,
      status: outcome.status,
      message: outcome.message,
      invitation: outcome.invitation ? (presented.get(outcome.invitation.id) ?? null) : null,
    })),
    totals: {
      requested: outcomes.length,
      created: count('created'),
      already_member: count('already_member'),
      already_invited: count('already_invited'),
      invalid: count('invalid'),
      limited: count('limited'),
    },
    retry_after: retryAfter,
  };
}

/** What the holder of a valid link sees before accepting. */
export const invitationPreviewSchema = z.object({
  id: z.number(),
  email: z.string(),
  role: teamRole,
  team: z.object({ id: z.number(), name: z.string(), fullname: z.string() }),
  workspaces: z.array(workspaceSummary),
  invited_by: z.string().nullable(),
  membership_expires_at: z.string().nullable(),
  expires_at: z.string(),
});

export const acceptedSchema = z.object({
  message: z.string(),
  team: z.object({ id: z.number(), name: z.string(), fullname: z.string() }),
  role: teamRole,
  workspaces: z.array(workspaceSummary),
});

async function lookups(db: Kysely<Database>, invitations: Invitation[]) {
  const workspaceIds = [...new Set(invitations.flatMap(workspaceIdsOf))];
  const userIds = [...new Set(invitations.map((invitation) => invitation.invited_by).filter((id): id is number => id !== null))];
  const [workspaces, users] = await Promise.all([
    workspaceIds.length === 0
      ? []
      : db.selectFrom('workspaces').select(['id', 'name', 'label']).where('id', 'in', workspaceIds).execute(),
    userIds.length === 0 ? [] : db.selectFrom('users').select(['id', 'firstname', 'lastname']).where('id', 'in', userIds).execute(),
  ]);
  return {
    workspaces: new Map(workspaces.map((workspace) => [workspace.id, workspace])),
    users: new Map(users.map((user) => [user.id, { id: user.id, name: `${user.firstname} ${user.lastname}` }])),
  };
}

export async function presentInvitations(db: Kysely<Database>, invitations: Invitation[], now = new Date()): Promise<z.infer<typeof invitationSchema>[]> {
  const [{ workspaces, users }, grants] = await Promise.all([lookups(db, invitations), grantStates(db, invitations)]);
  return invitations.map((invitation) => ({
    id: invitation.id,
    team_id: invitation.team_id,
    email: invitation.email,
    role: invitation.role,
    workspaces: workspaceIdsOf(invitation).flatMap((id) => workspaces.get(id) ?? []),
    status: invitation.status,
    expired: invitation.status === 'pending' && isExpired(invitation, now),
    invited_by: invitation.invited_by === null ? null : (users.get(invitation.invited_by) ?? null),
    inviter_can_grant: inviterCanGrant(invitation.role, grants.get(invitation.id)!),
    membership_expires_at: invitation.membership_expires_at,
    expires_at: invitation.expires_at,
    sent_at: invitation.sent_at,
    created_at: invitation.created_at,
  }));
}

export async function presentPreview(db: Kysely<Database>, invitation: Invitation): Promise<z.infer<typeof invitationPreviewSchema>> {
  const team = await db.selectFrom('teams').select(['id', 'name', 'fullname']).where('id', '=', invitation.team_id).executeTakeFirstOrThrow();
  const { workspaces, users } = await lookups(db, [invitation]);
  return {
    id: invitation.id,
    email: invitation.email,
    role: invitation.role,
    team,
    workspaces: workspaceIdsOf(invitation).flatMap((id) => workspaces.get(id) ?? []),
    invited_by: invitation.invited_by === null ? null : (users.get(invitation.invited_by)?.name ?? null),
    membership_expires_at: invitation.membership_expires_at,
    expires_at: invitation.expires_at,
  };
}
