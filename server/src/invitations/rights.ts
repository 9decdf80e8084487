import type { Kysely } from 'kysely';
import type { Database, Invitation, TeamRole } from '../db/schema.js';
import { isTeamManagerRole, TEAM_ROLE_RANK } from '../access/access.js';

// An invitation grants a role in a team on its inviter's word, so it holds only while that word
// still could: when it is accepted (and when its link is shown), the team must be enabled, and
// its inviter must still be allowed to give the role there (an enabled account that is a platform
// admin, or an enabled owner or manager of the team whose role is at least the invitation's).
// A demoted, removed or disabled inviter's invitations, and a suspended team's, are refused, not
// voided: they stay pending, listed on the team page with `inviter_can_grant: false`, so that an
// owner or manager who may grant the role resends them (becoming their inviter) or revokes them;
// a team enabled again, or an inviter's rights given back, makes them acceptable again (until
// they expire). A deleted team takes its invitations with it (their links answer as unknown).

export const TEAM_SUSPENDED = 'This team is suspended: its invitations cannot be accepted until it is enabled again.';
export const INVITER_CANNOT_GRANT =
  'The person who sent this invitation can no longer invite people to this team with this role. Ask the team to send it again.';
export const TEAM_GONE = 'This team no longer exists.';

/** What the rule needs to know, as it is now. */
export interface GrantState {
  /** null: the team was deleted. */
  team: { enabled: boolean } | null;
  /** null: the inviter's account was deleted. */
  inviter: { admin: boolean; enabled: boolean } | null;
  /** The inviter's team role when their membership is enabled, else null. */
  inviterRole: TeamRole | null;
}

/** Whether the inviter may (still) give `role` in the team, the team's state aside. */
export function inviterCanGrant(role: TeamRole, state: Pick<GrantState, 'inviter' | 'inviterRole'>): boolean {
  const { inviter, inviterRole } = state;
  if (!inviter || !inviter.enabled) return false;
  if (inviter.admin) return true;
  return isTeamManagerRole(inviterRole) && TEAM_ROLE_RANK[role] <= TEAM_ROLE_RANK[inviterRole!];
}

/** Why the invitation cannot be accepted now that its grant is looked at again, or null. */
export function grantRefusal(role: TeamRole, state: GrantState): string | null {
  if (!state.team) return TEAM_GONE;
  if (!state.team.enabled) return TEAM_SUSPENDED;
  return inviterCanGrant(role, state) ? null : INVITER_CANNOT_GRANT;
}

/** The grant state of each invitation, by id (three queries whatever their number). */
export async function grantStates(db: Kysely<Database>, invitations: readonly Invitation[]): Promise<Map<number, GrantState>> {
  const result = new Map<number, GrantState>();
  if (invitations.length === 0) return result;
  const teamIds = [...new Set(invitations.map((invitation) => invitation.team_id))];
  const inviterIds = [...new Set(invitations.map((invitation) => invitation.invited_by).filter((id): id is number => id !== null))];
  const [teams, inviters, memberships] = await Promise.all([
    db.selectFrom('teams').select(['id', 'enabled']).where('id', 'in', teamIds).execute(),
    inviterIds.length === 0 ? [] : db.selectFrom('users').select(['id', 'admin', 'enabled']).where('id', 'in', inviterIds).execute(),
    inviterIds.length === 0
      ? []
      : db
          .selectFrom('team_members')
          .select(['team_id', 'user_id', 'role'])
          .where('team_id', 'in', teamIds)
          .where('user_id', 'in', inviterIds)
          .where('enabled', '=', 1)
          .execute(),
  ]);
  const teamOf = new Map(teams.map((team) => [team.id, { enabled: team.enabled === 1 }]));
  const inviterOf = new Map(inviters.map((user) => [user.id, { admin: user.admin === 1, enabled: user.enabled === 1 }]));
  const roleOf = new Map(memberships.map((membership) => [`${membership.team_id}:${membership.user_id}`, membership.role]));
  for (const invitation of invitations) {
    const inviterId = invitation.invited_by;
    result.set(invitation.id, {
      team: teamOf.get(invitation.team_id) ?? null,
      inviter: inviterId === null ? null : (inviterOf.get(inviterId) ?? null),
      inviterRole: inviterId === null ? null : (roleOf.get(`${invitation.team_id}:${inviterId}`) ?? null),
    });
  }
  return result;
}

/** Why this invitation cannot be accepted now for its grant's sake, or null (read through `db`, a transaction's too). */
export async function invitationGrantRefusal(db: Kysely<Database>, invitation: Invitation): Promise<string | null> {
  const state = (await grantStates(db, [invitation])).get(invitation.id)!;
  return grantRefusal(invitation.role, state);
}
