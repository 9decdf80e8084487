import type { Kysely } from 'kysely';
import type { Database, WorkspaceRole } from '../db/schema.js';

// Who is entitled to cluster access in a workspace right now, read from the database: the
// rules of access/access.ts, for the reconciler (which grants and revokes accordingly), for the
// kubeconfig route (which checks again after it has issued a token) and for the sweep of
// service accounts and role bindings that no membership justifies.
//
// Every way a right ends (removal from the workspace or the team, a disabled account, a
// suspended team, a suspended or deleted workspace) commits in the database first and only then has the
// reconciler revoke the service account. So whoever touches the cluster on a member's behalf
// and then finds the right still there in the database knows that a revocation will come
// after what it did; whoever finds it gone undoes what it did itself.

/** The columns entitlement depends on (team_enabled: null when the person is not in the team's members). */
export interface EntitlementRow {
  team_enabled: number | null;
  user_enabled: number;
  team_active: number;
  /** When the workspace was suspended (its end, or its team's, passed); null: it is not. */
  workspace_suspended: string | null;
}

/**
 * A membership gives cluster access while its user is enabled, the team is not suspended and
 * the person's team membership is not disabled (none at all counts as not disabled, as in
 * access/access.ts), and the workspace is not suspended (docs/lifecycle.md): a suspended
 * workspace entitles nobody until it is renewed.
 */
export const isEntitled = (row: EntitlementRow): boolean =>
  row.team_enabled !== 0 && row.user_enabled === 1 && row.team_active === 1 && row.workspace_suspended === null;

/** Workspace memberships with what their entitlement depends on. */
export function membershipRows(db: Kysely<Database>) {
  return db
    .selectFrom('workspace_members as wm')
    .innerJoin('workspaces as w', 'w.id', 'wm.workspace_id')
    .leftJoin('team_members as tm', (join) => join.onRef('tm.team_id', '=', 'w.team_id').onRef('tm.user_id', '=', 'wm.user_id'))
    .innerJoin('users as u', 'u.id', 'wm.user_id')
    .innerJoin('teams as t', 't.id', 'w.team_id')
    .select(['wm.id', 'wm.user_id', 'wm.role', 'wm.workspace_id', 'w.namespace', 'tm.enabled as team_enabled', 'u.enabled as user_enabled', 't.enabled as team_active', 'w.suspended_at as workspace_suspended']);
}

/** The role that entitles the user to cluster access in the workspace now, or null. */
export async function entitledRole(db: Kysely<Database>, workspaceId: number, userId: number): Promise<WorkspaceRole | null> {
  const row = await membershipRows(db).where('wm.workspace_id', '=', workspaceId).where('wm.user_id', '=', userId).executeTakeFirst();
  return row && isEntitled(row) ? row.role : null;
}

/** Key of a (workspace, user) pair. */
export const accessKey = (workspaceId: number, userId: number) => `${workspaceId}:${userId}`;

/** Every entitled membership, by accessKey (for the sweep). */
export async function entitledMemberships(db: Kysely<Database>): Promise<Map<string, { namespace: string; role: WorkspaceRole }>> {
  const entitled = new Map<string, { namespace: string; role: WorkspaceRole }>();
  for (const row of await membershipRows(db).execute()) {
    if (isEntitled(row)) entitled.set(accessKey(row.workspace_id, row.user_id), { namespace: row.namespace, role: row.role });
  }
  return entitled;
}
