import type { Kysely } from 'kysely';
import { DAY_MS } from '../clock.js';
import type { LifecycleSettings } from '../config/config.js';
import { timestamp } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { dueDeletions, dueNotices, dueSuspensions } from './due.js';

// "What ends next" for platform admins (GET /api/admin/lifecycle/preview): what the leader's pass
// would do if it ran at `until`, read with the pass's own queries, so the preview and the pass
// cannot disagree. Deletions are those of workspaces already suspended now (one suspended later
// is deleted a retention period after that).

export async function lifecyclePreview(db: Kysely<Database>, settings: LifecycleSettings, until: Date) {
  const [warnings, suspensions, deletions] = await Promise.all([dueNotices(db, settings, until), dueSuspensions(db, until), dueDeletions(db, settings, until)]);
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
  };
}
