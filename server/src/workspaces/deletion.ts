import type { Kysely } from 'kysely';
import { recordActivity } from '../activity/log.js';
import type { AppContext } from '../context.js';
import { timestamp } from '../db/database.js';
import type { Database, Workspace } from '../db/schema.js';
import { type AfterCommit, accessChanged } from '../effects/afterCommit.js';

// Deleting a workspace (platform admins: DELETE /api/admin/workspaces/{id}, and a team's
// cascade delete). The database forgets the workspace at once; the cluster follows through the
// reconciler (docs/cluster.md, "Reconciler"): a `cluster_deletions` row for the namespace and a
// `cluster_revocations` row per member, whose service accounts live outside the namespace and
// would otherwise keep their tokens valid if a namespace of the same name came back.

export interface DeletedWorkspace {
  id: number;
  name: string;
  namespace: string;
  team_id: number;
  /** Who was a member: their rights ended (rightsChanged), and callers may tell them. */
  member_ids: number[];
  /** What must follow the commit: the reconciler's pass and the members' rights re-check. */
  effects: AfterCommit;
}

/**
 * Deletes the workspace's rows inside the caller's transaction and leaves the cluster work for
 * the reconciler. Pending requests about the workspace are closed (Denied) rather than left
 * pointing at nothing. The caller applies the result's `effects` after the commit.
 */
/** `causerId` null: nobody asked (the end of a suspended workspace's retention period, lifecycle/retention.ts). */
export async function deleteWorkspaceInTransaction(trx: Kysely<Database>, workspace: Workspace, causerId: number | null): Promise<DeletedWorkspace> {
  const now = timestamp();
  const members = await trx.selectFrom('workspace_members').select(['user_id', 'role']).where('workspace_id', '=', workspace.id).execute();
  if (members.length > 0) {
    await trx
      .insertInto('cluster_revocations')
      .values(members.map((member) => ({ workspace_id: workspace.id, namespace: workspace.namespace, user_id: member.user_id, created_at: now })))
      .execute();
  }
  await trx.insertInto('cluster_deletions').values({ workspace_id: workspace.id, namespace: workspace.namespace, created_at: now }).execute();
  await trx
    .updateTable('requests')
    .set({ status: 'Denied', decision_message: 'The workspace was deleted.', decided_by: causerId, decided_at: now, updated_at: now })
    .where('workspace_id', '=', workspace.id)
    .where('status', '=', 'Pending')
    .execute();
  await trx.deleteFrom('workspace_members').where('workspace_id', '=', workspace.id).execute();
  await trx.deleteFrom('workspaces').where('id', '=', workspace.id).execute();
  await recordActivity(trx, {
    causerId,
    description: 'workspace deleted',
    subject: { type: 'workspace', id: workspace.id },
    severity: 'warning',
    properties: { name: workspace.name, namespace: workspace.namespace, team_id: workspace.team_id, members: members.length },
  });
  const memberIds = members.map((member) => member.user_id);
  return { id: workspace.id, name: workspace.name, namespace: workspace.namespace, team_id: workspace.team_id, member_ids: memberIds, effects: accessChanged(memberIds) };
}

/**
 * Deletes one workspace in its own transaction; the caller applies the result's `effects` (the
 * reconciler deletes the namespace and revokes the members' service accounts, the members'
 * realtime subscriptions end). Authorization is the caller's business. Null when there is no
 * such workspace. `inTransaction` runs in the deletion's transaction once the rows are gone (the
 * members' mails are written there).
 */
export async function deleteWorkspace(
  context: Pick<AppContext, 'db'>,
  workspaceId: number,
  actor: { id: number },
  inTransaction?: (trx: Kysely<Database>, deleted: DeletedWorkspace) => Promise<void>,
): Promise<DeletedWorkspace | null> {
  const deleted = await context.db.transaction().execute(async (trx) => {
    const workspace = await trx.selectFrom('workspaces').selectAll().where('id', '=', workspaceId).executeTakeFirst();
    if (!workspace) return null;
    const result = await deleteWorkspaceInTransaction(trx, workspace, actor.id);
    await inTransaction?.(trx, result);
    return result;
  });
  return deleted;
}
