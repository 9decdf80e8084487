import type { Kysely } from 'kysely';
import { recordActivity } from '../activity/log.js';
import { timestamp } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { dueSuspensions } from './due.js';
import type { LifecycleStep } from './runner.js';

// Suspending the workspaces that ended (docs/lifecycle.md, "Suspension"): `suspended_at` is set
// and the workspace and its memberships are marked pending, so that the reconciler sets the
// namespace's quota to no pods, deletes the running pods and revokes every member's access
// (cluster/entitlement.ts: a suspended workspace entitles nobody). Nothing else in the
// namespace is touched. A cluster that is down leaves the rows pending: the reconciler retries,
// and the console shows "suspending" until it holds.

/** Suspends every workspace due at `now`; answers the ids it suspended (not those another pass did). */
export async function suspendDueWorkspaces(db: Kysely<Database>, now: Date): Promise<number[]> {
  const due = await dueSuspensions(db, now);
  if (due.length === 0) return [];
  const at = timestamp(now);
  return db.transaction().execute(async (trx) => {
    const suspended: number[] = [];
    for (const workspace of due) {
      const updated = await trx
        .updateTable('workspaces')
        .set({ suspended_at: at, cluster_state: 'pending', cluster_error: null })
        .where('id', '=', workspace.id)
        .where('suspended_at', 'is', null)
        .returning('id')
        .executeTakeFirst();
      if (!updated) continue;
      suspended.push(workspace.id);
      await trx.updateTable('workspace_members').set({ cluster_state: 'pending', cluster_error: null }).where('workspace_id', '=', workspace.id).execute();
      const byTeam = workspace.team_expires_at !== null && workspace.team_expires_at <= at && (workspace.expires_at === null || workspace.team_expires_at < workspace.expires_at);
      await recordActivity(trx, {
        causerId: null,
        description: 'workspace suspended',
        subject: { type: 'workspace', id: workspace.id },
        severity: 'warning',
        properties: {
          cause: byTeam ? 'team review date passed' : 'workspace end date passed',
          expires_at: workspace.expires_at,
          team_id: workspace.team_id,
          team_expires_at: workspace.team_expires_at,
        },
      });
    }
    return suspended;
  });
}

export const suspensionStep: LifecycleStep = {
  name: 'suspensions',
  async run({ db, now }) {
    const suspended = await suspendDueWorkspaces(db, now);
    return { clusterSync: suspended.length > 0 };
  },
};
