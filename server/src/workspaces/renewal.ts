import type { Kysely } from 'kysely';
import { recordActivity } from '../activity/log.js';
import { DAY_MS } from '../clock.js';
import { timestamp } from '../db/database.js';
import type { Database } from '../db/schema.js';

// Renewing a workspace or a team (docs/lifecycle.md, "Renewal"): a new end date, and a workspace
// suspended by the old one comes back at once: `suspended_at` cleared, the workspace and its
// memberships pending, so the reconciler restores its quota and its members' access.

/** A renewal's new end: `days` after the current end, or after now when that already passed. */
export function renewedEnd(current: string | null, now: Date, days: number): string {
  const base = current !== null && current > timestamp(now) ? new Date(current).getTime() : now.getTime();
  return timestamp(new Date(base + days * DAY_MS));
}

async function resume(trx: Kysely<Database>, workspaceIds: number[]): Promise<void> {
  if (workspaceIds.length === 0) return;
  await trx.updateTable('workspaces').set({ suspended_at: null, cluster_state: 'pending', cluster_error: null }).where('id', 'in', workspaceIds).execute();
  await trx.updateTable('workspace_members').set({ cluster_state: 'pending', cluster_error: null }).where('workspace_id', 'in', workspaceIds).execute();
}

/**
 * Sets a workspace's end date (a renewal, or a platform admin's change; null: no end) and, when
 * that end and its team's are both ahead, lifts its suspension. Answers whether it was suspended
 * and is no longer (the cluster must follow).
 */
export async function setWorkspaceEnd(
  trx: Kysely<Database>,
  input: { workspaceId: number; expiresAt: string | null; now: Date; causerId: number | null; cause: string; requestId?: number },
): Promise<{ resumed: boolean }> {
  const workspace = await trx
    .selectFrom('workspaces as w')
    .innerJoin('teams as t', 't.id', 'w.team_id')
    .select(['w.id', 'w.expires_at', 'w.suspended_at', 't.expires_at as team_expires_at'])
    .where('w.id', '=', input.workspaceId)
    .executeTakeFirst();
  if (!workspace) return { resumed: false };
  const now = timestamp(input.now);
  await trx.updateTable('workspaces').set({ expires_at: input.expiresAt }).where('id', '=', workspace.id).execute();
  const ahead = (date: string | null) => date === null || date > now;
  const resumed = workspace.suspended_at !== null && ahead(input.expiresAt) && ahead(workspace.team_expires_at);
  if (resumed) await resume(trx, [workspace.id]);
  await recordActivity(trx, {
    causerId: input.causerId,
    description: 'workspace end date changed',
    subject: { type: 'workspace', id: workspace.id },
    properties: { cause: input.cause, from: workspace.expires_at, to: input.expiresAt, resumed, request_id: input.requestId ?? null },
  });
  return { resumed };
}

/**
 * Sets a team's review date; its workspaces suspended only because the team's date had passed
 * (their own end still ahead) come back. Answers how many resumed.
 */
export async function setTeamEnd(
  trx: Kysely<Database>,
  input: { teamId: number; expiresAt: string | null; now: Date; causerId: number | null; cause: string; requestId?: number },
): Promise<{ resumed: number }> {
  const team = await trx.selectFrom('teams').select(['id', 'expires_at']).where('id', '=', input.teamId).executeTakeFirst();
  if (!team) return { resumed: 0 };
  const now = timestamp(input.now);
  await trx.updateTable('teams').set({ expires_at: input.expiresAt }).where('id', '=', team.id).execute();
  let resumed: number[] = [];
  if (input.expiresAt === null || input.expiresAt > now) {
    const rows = await trx
      .selectFrom('workspaces')
      .select('id')
      .where('team_id', '=', team.id)
      .where('suspended_at', 'is not', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .execute();
    resumed = rows.map((row) => row.id);
    await resume(trx, resumed);
  }
  await recordActivity(trx, {
    causerId: input.causerId,
    description: 'team review date changed',
    subject: { type: 'team', id: team.id },
    properties: { cause: input.cause, from: team.expires_at, to: input.expiresAt, resumed_workspaces: resumed, request_id: input.requestId ?? null },
  });
  return { resumed: resumed.length };
}
