// The people the member-page scenarios act as, besides the platform admin: a seeded member with the
// most teams and workspaces who owns a team (GET /user, /api/tokens, the workspace page), with a
// few personal tokens, and pending requests to decide in that team (GET /api/requests).
// Seeded people cannot log in (no password), so their session tokens are issued here, directly
// in the database, before the server starts.
import { createDatabase, timestamp } from '../server/src/db/database.js';
import { issueSession, issueToken } from '../server/src/tokens/tokens.js';

export interface BenchPeople {
  memberId: number;
  /** Bearer token of the member (a team owner). */
  memberToken: string;
  /** A workspace the member is in. */
  workspaceId: number;
  teams: number;
  workspaces: number;
  pendingRequests: number;
}

const PERSONAL_TOKENS = 5;
const PENDING_REQUESTS = 40;

export async function preparePeople(url: string): Promise<BenchPeople> {
  const db = createDatabase(url);
  try {
    // An onboarded team owner with the most workspace memberships (ties: the smallest id).
    const member = await db
      .selectFrom('workspace_members as wm')
      .innerJoin('users as u', 'u.id', 'wm.user_id')
      .select(['wm.user_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('u.admin', '=', 0)
      .where('u.enabled', '=', 1)
      // Onboarded: the API refuses the others (403) until they verify and accept the policy.
      .where('u.email_verified_at', 'is not', null)
      .where('u.aup_accepted_at', 'is not', null)
      .where('wm.user_id', 'in', db.selectFrom('team_members').select('user_id').where('role', '=', 'owner').where('enabled', '=', 1))
      .groupBy('wm.user_id')
      .orderBy('n', 'desc')
      .orderBy('wm.user_id')
      .limit(1)
      .executeTakeFirstOrThrow();
    const userId = member.user_id;
    const workspace = await db.selectFrom('workspace_members').select('workspace_id').where('user_id', '=', userId).orderBy('workspace_id').limit(1).executeTakeFirstOrThrow();
    const team = await db.selectFrom('team_members').select('team_id').where('user_id', '=', userId).where('role', '=', 'owner').orderBy('team_id').limit(1).executeTakeFirstOrThrow();
    const teamName = (await db.selectFrom('teams').select('name').where('id', '=', team.team_id).executeTakeFirstOrThrow()).name;

    const session = await issueSession(db, userId);
    const existing = Number((await db.selectFrom('access_tokens').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).where('kind', '=', 'personal').executeTakeFirstOrThrow()).n);
    for (let i = existing; i < PERSONAL_TOKENS; i += 1) {
      await issueToken(db, { userId, kind: 'personal', name: `bench token ${i + 1}`, expiresAt: null });
    }

    // Pending JoinTeam requests from people outside the team (a reused database keeps its own).
    const pending = Number(
      (await db.selectFrom('requests').select((eb) => eb.fn.countAll<number>().as('n')).where('team_id', '=', team.team_id).where('status', '=', 'Pending').executeTakeFirstOrThrow()).n,
    );
    if (pending < PENDING_REQUESTS) {
      const outsiders = await db
        .selectFrom('users')
        .select('id')
        .where('admin', '=', 0)
        .where('id', 'not in', db.selectFrom('team_members').select('user_id').where('team_id', '=', team.team_id))
        .where('id', 'not in', db.selectFrom('requests').select('user_id').where('team_id', '=', team.team_id))
        .orderBy('id')
        .limit(PENDING_REQUESTS - pending)
        .execute();
      const now = timestamp();
      await db
        .insertInto('requests')
        .values(
          outsiders.map(({ id }) => ({
            type: 'JoinTeam' as const,
            status: 'Pending' as const,
            user_id: id,
            team_id: team.team_id,
            workspace_id: null,
            object_name: teamName,
            dedupe_key: `JoinTeam:${team.team_id}:${id}`,
            data: JSON.stringify({ team_id: team.team_id }),
            message: 'I would like to join for the bench.',
            decision_message: null,
            decided_by: null,
            decided_at: null,
            created_at: now,
            updated_at: now,
          })),
        )
        .execute();
    }
    const count = async (table: 'team_members' | 'workspace_members') =>
      Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow()).n);
    return {
      memberId: userId,
      memberToken: session.plainText,
      workspaceId: workspace.workspace_id,
      teams: await count('team_members'),
      workspaces: await count('workspace_members'),
      pendingRequests: Math.max(pending, PENDING_REQUESTS),
    };
  } finally {
    await db.destroy();
  }
}
