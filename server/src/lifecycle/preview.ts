import type { Kysely } from 'kysely';
import { DAY_MS } from '../clock.js';
import type { LifecycleSettings } from '../config/config.js';
import { timestamp } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { dueDeletions, dueMembershipEnds, dueNotices, dueSuspensions } from './due.js';

// "What ends next" for platform admins (GET /api/admin/lifecycle/preview): what the leader's pass
// would do if it ran at `until`, read with the pass's own queries, so the preview and the pass
// cannot disagree. Deletions are those of workspaces already suspended now (one suspended later
// is deleted a retention period after that). Removals are the team memberships that end.

export async function lifecyclePreview(db: Kysely<Database>, settings: LifecycleSettings, until: Date) {
  const [warnings, suspensions, deletions, removals] = await Promise.all([
    dueNotices(db, settings, until),
    dueSuspensions(db, until),
    dueDeletions(db, settings, until),
    dueMembershipEnds(db, until),
  ]);
  return {
    until: timestamp(until),
    warnings: warnings.map((notice) => ({ kind: notice.kind, subject_type: notice.subject_type, subject_id: notice.subject_id, label: notice.label, team: notice.team, date: notice.due_at })),
    suspensions: suspensions.map((workspace) => {
      const ends = [workspace.expires_at, workspace.team_expires_at].filter((date): date is string => date !== null && date <= timestamp(until)).sort()[0]!;
      return { workspace_id: workspace.id, label: workspace.label, team_id: workspace.team_id, date: ends };
    }),
    deletions: deletions.map((workspace) => ({
      workspace_id: workspace.id,
      label: workspace.label,
      team: workspace.team,
      date: timestamp(new Date(new Date(workspace.suspended_at!).getTime() + (settings.retention_days ?? 0) * DAY_MS)),
    })),
    removals: removals.map((membership) => ({
      team_id: membership.team_id,
      team: membership.team,
      user_id: membership.user_id,
      name: `${membership.firstname} ${membership.lastname}`,
      date: membership.expires_at,
    })),
  };
}
