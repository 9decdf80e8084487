import type { Kysely } from 'kysely';
import { recordActivity } from '../activity/log.js';
import { timestamp } from '../db/database.js';
import type { Database, Request, TeamRole } from '../db/schema.js';
import { type Access, managesTeam, TEAM_ROLE_RANK } from '../access/access.js';
import type { AppContext } from '../context.js';
import { type AfterCommit, mergeAfterCommit } from '../effects/afterCommit.js';
import { closeRequestsOfFormerMember, requestsClosedNotices } from './closedRequests.js';

// Managing a team's members (PATCH/DELETE /api/tenants/{id}/users/{userId} and the bulk
// removal): the team's owners and managers on their own team, platform admins anywhere. Rules:
// a team keeps at least one enabled owner; nobody but an admin acts on someone above their own
// role or gives a role above their own (a manager cannot make owners nor touch them). Removal
// also takes the person out of the team's workspaces and, through cluster_revocations, their
// cluster access, and closes their pending requests that only made sense as a member.

export type MemberOutcome =
  | { status: 'done'; role: TeamRole | null; previous: TeamRole; workspace_ids: number[]; closed_requests: Request[] }
  | { status: 'forbidden' | 'not_found' | 'conflict'; message: string };

export const LAST_OWNER_MESSAGE = 'A team keeps at least one owner: make someone else an owner first.';
export const NOT_A_MEMBER_MESSAGE = 'This person is not a member of this team.';
export const ABOVE_OWN_ROLE_MESSAGE = 'Only an owner can change or remove an owner, or make someone an owner.';

/** May manage the team's members at all: its enabled owners and managers, platform admins. */
export const managesTeamMembers = (access: Access, teamId: number) => access.admin || managesTeam(access, teamId);

/**
 * A team row write first: on PostgreSQL it locks the team, so two owners demoting each other at
 * the same moment are serialized and the second sees that the first is no longer an owner
 * (SQLite serializes writing transactions anyway).
 */
async function lockTeam(trx: Kysely<Database>, teamId: number): Promise<void> {
  await trx.updateTable('teams').set({ updated_at: timestamp() }).where('id', '=', teamId).execute();
}

async function otherEnabledOwners(trx: Kysely<Database>, teamId: number, userId: number): Promise<number> {
  const row = await trx
    .selectFrom('team_members')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('team_id', '=', teamId)
    .where('role', '=', 'owner')
    .where('enabled', '=', 1)
    .where('user_id', '!=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Whether the actor outranks, or equals, what they act on (platform admins always do). */
export const withinOwnRole = (access: Access, teamId: number, role: TeamRole) =>
  access.admin || TEAM_ROLE_RANK[role] <= TEAM_ROLE_RANK[access.teamRoles.get(teamId) ?? 'member'];

export async function changeTeamMemberRole(
  db: Kysely<Database>,
  input: { teamId: number; userId: number; role: TeamRole; access: Access },
): Promise<MemberOutcome> {
  const { teamId, userId, role, access } = input;
  if (!managesTeamMembers(access, teamId)) return { status: 'forbidden', message: "Only the team's owners and managers can change roles." };
  return db.transaction().execute(async (trx): Promise<MemberOutcome> => {
    await lockTeam(trx, teamId);
    const member = await trx.selectFrom('team_members').select(['id', 'role']).where('team_id', '=', teamId).where('user_id', '=', userId).executeTakeFirst();
    if (!member) return { status: 'not_found', message: NOT_A_MEMBER_MESSAGE };
    if (!withinOwnRole(access, teamId, member.role) || !withinOwnRole(access, teamId, role)) {
      return { status: 'forbidden', message: ABOVE_OWN_ROLE_MESSAGE };
    }
    if (member.role === role) return { status: 'done', role, previous: member.role, workspace_ids: [], closed_requests: [] };
    if (member.role === 'owner' && (await otherEnabledOwners(trx, teamId, userId)) === 0) return { status: 'conflict', message: LAST_OWNER_MESSAGE };
    await trx.updateTable('team_members').set({ role }).where('id', '=', member.id).execute();
    await recordActivity(trx, {
      causerId: access.userId,
      description: 'team member role changed',
      subject: { type: 'team', id: teamId },
      properties: { user_id: userId, from: member.role, to: role },
    });
    return { status: 'done', role, previous: member.role, workspace_ids: [], closed_requests: [] };
  });
}

/**
 * Removes the person from the team and from each of its workspaces, leaving a cluster
 * revocation per workspace membership (same transaction, as removeWorkspaceMember does), and
 * closes their pending JoinWorkspace and CreateWorkspace requests in the team (Denied, "You are
 * no longer a member of this team."). A member may also leave on their own. The caller asks for
 * a cluster pass, calls rightsChanged and tells about the closed requests after the commit.
 */
export async function removeTeamMember(
  db: Kysely<Database>,
  input: {
    teamId: number;
    userId: number;
    access: Access;
    /**
     * The membership reached its end date (the lifecycle pass, memberships/endingStep.ts):
     * removed only if its end date is still at or before `now` (not moved meanwhile), by
     * nobody, and recorded as "team membership ended".
     */
    ended?: { now: string };
  },
): Promise<MemberOutcome> {
  const { teamId, userId, access, ended } = input;
  const leaving = !ended && userId === access.userId && access.teamRoles.has(teamId);
  const causerId = ended ? null : access.userId;
  if (!leaving && !managesTeamMembers(access, teamId)) return { status: 'forbidden', message: "Only the team's owners and managers can remove members." };
  return db.transaction().execute(async (trx): Promise<MemberOutcome> => {
    await lockTeam(trx, teamId);
    const member = await trx
      .selectFrom('team_members')
      .select(['id', 'role', 'expires_at'])
      .where('team_id', '=', teamId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!member) return { status: 'not_found', message: NOT_A_MEMBER_MESSAGE };
    if (ended && (member.expires_at === null || member.expires_at > ended.now)) return { status: 'not_found', message: NOT_A_MEMBER_MESSAGE };
    if (!leaving && !withinOwnRole(access, teamId, member.role)) return { status: 'forbidden', message: ABOVE_OWN_ROLE_MESSAGE };
    if (member.role === 'owner' && (await otherEnabledOwners(trx, teamId, userId)) === 0) return { status: 'conflict', message: LAST_OWNER_MESSAGE };

    const memberships = await trx
      .selectFrom('workspace_members as wm')
      .innerJoin('workspaces as w', 'w.id', 'wm.workspace_id')
      .select(['wm.id', 'wm.workspace_id', 'wm.role', 'w.namespace'])
      .where('w.team_id', '=', teamId)
      .where('wm.user_id', '=', userId)
      .execute();
    const now = timestamp();
    for (const membership of memberships) {
      await trx.deleteFrom('workspace_members').where('id', '=', membership.id).execute();
      await trx
        .insertInto('cluster_revocations')
        .values({ workspace_id: membership.workspace_id, namespace: membership.namespace, user_id: userId, created_at: now })
        .execute();
      await recordActivity(trx, {
        causerId,
        description: leaving ? 'workspace left' : 'workspace member removed',
        subject: { type: 'workspace', id: membership.workspace_id },
        properties: { user_id: userId, role: membership.role, reason: 'team membership ended', ...(ended ? { cause: 'membership ended' } : {}) },
      });
    }
    await trx.deleteFrom('team_members').where('id', '=', member.id).execute();
    const closed = await closeRequestsOfFormerMember(trx, { teamId, userId, causerId });
    await recordActivity(trx, {
      causerId,
      description: ended ? 'team membership ended' : leaving ? 'team left' : 'team member removed',
      subject: { type: 'team', id: teamId },
      properties: {
        user_id: userId,
        role: member.role,
        ...(ended ? { cause: 'membership ended', expires_at: member.expires_at } : {}),
        workspaces: memberships.map((membership) => membership.workspace_id),
        closed_requests: closed.map((request) => request.id),
      },
    });
    return {
      status: 'done',
      role: null,
      previous: member.role,
      workspace_ids: memberships.map((membership) => membership.workspace_id),
      closed_requests: closed,
    };
  });
}

/**
 * What follows removals once they committed: the reconciler takes the cluster access away,
 * the realtime server re-checks the people's subscriptions, and the closed requests are announced.
 */
export function removalEffects(context: Pick<AppContext, 'db'>, removedUserIds: number[], closed: Request[]): AfterCommit {
  if (removedUserIds.length === 0) return {};
  return mergeAfterCommit({ clusterSync: true, rightsChanged: removedUserIds }, requestsClosedNotices(context, closed));
}

export interface BulkResult {
  results: { id: number; status: MemberOutcome['status']; message: string | null }[];
  totals: Record<MemberOutcome['status'], number>;
  /** The pending requests the removals closed (not part of the answer). */
  closed_requests: Request[];
}

/**
 * Removes each person by the same rules as one at a time, each in its own transaction, so one
 * refusal does not undo the others. Answers per id what happened, in the order asked.
 */
export async function removeTeamMembers(
  db: Kysely<Database>,
  input: { teamId: number; userIds: number[]; access: Access },
): Promise<BulkResult> {
  const result: BulkResult = { results: [], totals: { done: 0, forbidden: 0, not_found: 0, conflict: 0 }, closed_requests: [] };
  for (const userId of [...new Set(input.userIds)]) {
    const outcome = await removeTeamMember(db, { teamId: input.teamId, userId, access: input.access });
    result.results.push({ id: userId, status: outcome.status, message: outcome.status === 'done' ? null : outcome.message });
    result.totals[outcome.status]++;
    if (outcome.status === 'done') result.closed_requests.push(...outcome.closed_requests);
  }
  return result;
}
