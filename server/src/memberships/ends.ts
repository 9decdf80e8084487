import type { Kysely } from 'kysely';
import { recordActivity } from '../activity/log.js';
import { type Access } from '../access/access.js';
import type { Database } from '../db/schema.js';
import { ABOVE_OWN_ROLE_MESSAGE, managesTeamMembers, type MemberOutcome, NOT_A_MEMBER_MESSAGE, withinOwnRole } from './members.js';

// Memberships that end (docs/lifecycle.md, "Memberships that end"): a team membership may carry
// an end date, given on an invitation, on the approval of a join, or later by the team's owners
// and managers (with the same rights as a role change). The leader's pass (endingStep.ts) warns
// before it and removes the membership at it, the way a manager's removal does.

export type EndOutcome = { status: 'done'; expires_at: string | null; previous: string | null } | Exclude<MemberOutcome, { status: 'done' }>;

/**
 * Sets or clears the end of a membership (PATCH /api/tenants/{id}/users/{userId} {expires_at}):
 * by the team's owners and managers within their own role, and platform admins. `expiresAt`
 * has been checked (checkEndDate). A new date makes its warning due afresh.
 */
export async function setMembershipEnd(
  db: Kysely<Database>,
  input: { teamId: number; userId: number; expiresAt: string | null; access: Access },
): Promise<EndOutcome> {
  const { teamId, userId, expiresAt, access } = input;
  if (!managesTeamMembers(access, teamId)) return { status: 'forbidden', message: "Only the team's owners and managers can change roles." };
  return db.transaction().execute(async (trx): Promise<EndOutcome> => {
    const member = await trx
      .selectFrom('team_members')
      .select(['id', 'role', 'expires_at'])
      .where('team_id', '=', teamId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!member) return { status: 'not_found', message: NOT_A_MEMBER_MESSAGE };
    if (!withinOwnRole(access, teamId, member.role)) return { status: 'forbidden', message: ABOVE_OWN_ROLE_MESSAGE };
    if (member.expires_at === expiresAt) return { status: 'done', expires_at: expiresAt, previous: member.expires_at };
    await trx.updateTable('team_members').set({ expires_at: expiresAt }).where('id', '=', member.id).execute();
    await recordActivity(trx, {
      causerId: access.userId,
      description: 'team membership end changed',
      subject: { type: 'team', id: teamId },
      properties: { user_id: userId, from: member.expires_at, to: expiresAt },
    });
    return { status: 'done', expires_at: expiresAt, previous: member.expires_at };
  });
}
