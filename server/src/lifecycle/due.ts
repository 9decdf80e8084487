import type { Kysely } from 'kysely';
import { DAY_MS, HOUR_MS } from '../clock.js';
import type { LifecycleSettings } from '../config/config.js';
import { timestamp } from '../db/database.js';
import type { Database } from '../db/schema.js';
import type { NoticeKind } from './digestMail.js';

// What the lifecycle pass has to do at a given time, read from the database alone: warnings not
// yet recorded in `lifecycle_notices`, workspaces whose end (or their team's) passed and that are
// not yet suspended, suspended workspaces whose retention is over. Each query starts from an
// indexed date column and a bound, so a pass where nothing is due reads next to nothing. The
// pass acts on these at "now"; the admins' preview asks for a later date.

export interface DueNotice {
  kind: NoticeKind;
  subject_type: 'workspace' | 'team';
  subject_id: number;
  /** The date warned of (the end, the review date, the deletion): a renewal moves it, and warnings start afresh. */
  due_at: string;
  label: string;
  /** The workspace's team (full name), null for a team. */
  team: string | null;
}

const later = (now: Date, ms: number) => timestamp(new Date(now.getTime() + ms));

/**
 * The notices already recorded for these subjects at these dates (or later), as "kind:id:due_at".
 * Only dates from the earliest asked about are read: every warning ever sent stays in the table,
 * and a subject's earlier ends (before a renewal) are of no interest here. Served by the index
 * on (subject_type, subject_id, due_at) (migration 0018).
 */
async function recorded(db: Kysely<Database>, subjectType: 'workspace' | 'team', subjects: { id: number; due_at: string }[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let start = 0; start < subjects.length; start += 500) {
    const chunk = subjects.slice(start, start + 500);
    const rows = await db
      .selectFrom('lifecycle_notices')
      .select(['kind', 'subject_id', 'due_at'])
      .where('subject_type', '=', subjectType)
      .where('subject_id', 'in', chunk.map((subject) => subject.id))
      .where('due_at', '>=', chunk.reduce((earliest, subject) => (subject.due_at < earliest ? subject.due_at : earliest), chunk[0]!.due_at))
      .execute();
    for (const row of rows) found.add(`${row.kind}:${row.subject_id}:${row.due_at}`);
  }
  return found;
}

/**
 * The first or the last warning of each end within the warning time of `at`, unless recorded.
 * One whose last warning is already due gets only that one (after a downtime, the first would
 * arrive after the last and say less).
 */
function pickWarnings<T extends { id: number; expires_at: string | null }>(
  rows: T[],
  sent: Set<string>,
  settings: LifecycleSettings,
  at: Date,
  kinds: { first: NoticeKind; last: NoticeKind },
): { row: T; kind: NoticeKind; due_at: string }[] {
  const lastHorizon = later(at, settings.last_warning_hours * HOUR_MS);
  const picked: { row: T; kind: NoticeKind; due_at: string }[] = [];
  for (const row of rows) {
    const end = row.expires_at!;
    const lastSent = sent.has(`${kinds.last}:${row.id}:${end}`);
    if (end <= lastHorizon) {
      if (!lastSent) picked.push({ row, kind: kinds.last, due_at: end });
    } else if (!lastSent && !sent.has(`${kinds.first}:${row.id}:${end}`)) {
      picked.push({ row, kind: kinds.first, due_at: end });
    }
  }
  return picked;
}

/** Warnings and deletion notices due at `at` and not yet sent. */
export async function dueNotices(db: Kysely<Database>, settings: LifecycleSettings, at: Date): Promise<DueNotice[]> {
  const horizon = later(at, settings.warning_days * DAY_MS);
  const notices: DueNotice[] = [];

  // Workspaces: until they are suspended (the same pass suspends them after warning).
  const workspaces = await db
    .selectFrom('workspaces as w')
    .innerJoin('teams as t', 't.id', 'w.team_id')
    .select(['w.id', 'w.label', 'w.expires_at', 't.fullname as team'])
    .where('w.expires_at', '<=', horizon)
    .where('w.suspended_at', 'is', null)
    .execute();
  const workspaceSent = await recorded(db, 'workspace', workspaces.map((row) => ({ id: row.id, due_at: row.expires_at! })));
  for (const { row, kind, due_at } of pickWarnings(workspaces, workspaceSent, settings, at, { first: 'workspace_warning', last: 'workspace_last_warning' })) {
    notices.push({ kind, subject_type: 'workspace', subject_id: row.id, due_at, label: row.label, team: row.team });
  }

  // Teams: bounded below, so that teams long past their date are not read at every pass.
  const teams = await db
    .selectFrom('teams')
    .select(['id', 'fullname', 'expires_at'])
    .where('expires_at', '<=', horizon)
    .where('expires_at', '>', later(at, -settings.warning_days * DAY_MS))
    .execute();
  const teamSent = await recorded(db, 'team', teams.map((row) => ({ id: row.id, due_at: row.expires_at! })));
  for (const { row, kind, due_at } of pickWarnings(teams, teamSent, settings, at, { first: 'team_warning', last: 'team_last_warning' })) {
    notices.push({ kind, subject_type: 'team', subject_id: row.id, due_at, label: row.fullname, team: null });
  }

  // The last mail before a suspended workspace is deleted.
  if (settings.retention_days !== null) {
    const retentionMs = settings.retention_days * DAY_MS;
    const noticeFrom = later(at, -(retentionMs - settings.retention_notice_days * DAY_MS));
    const suspended = await db
      .selectFrom('workspaces as w')
      .innerJoin('teams as t', 't.id', 'w.team_id')
      .select(['w.id', 'w.label', 'w.suspended_at', 't.fullname as team'])
      .where('w.suspended_at', '<=', noticeFrom)
      .execute();
    const deletionOf = (row: { suspended_at: string | null }) => timestamp(new Date(new Date(row.suspended_at!).getTime() + retentionMs));
    const sent = await recorded(db, 'workspace', suspended.map((row) => ({ id: row.id, due_at: deletionOf(row) })));
    for (const row of suspended) {
      const deletionAt = deletionOf(row);
      // Already due (after a downtime): the deletion's own mail says it.
      if (deletionAt <= timestamp(at) || sent.has(`workspace_deletion:${row.id}:${deletionAt}`)) continue;
      notices.push({ kind: 'workspace_deletion', subject_type: 'workspace', subject_id: row.id, due_at: deletionAt, label: row.label, team: row.team });
    }
  }
  return notices;
}

/** Workspaces whose end, or whose team's review date, is at or before `at` and that are not suspended yet. */
export async function dueSuspensions(
  db: Kysely<Database>,
  at: Date,
): Promise<{ id: number; label: string; team_id: number; expires_at: string | null; team_expires_at: string | null }[]> {
  const when = timestamp(at);
  const columns = ['w.id', 'w.label', 'w.team_id', 'w.expires_at', 't.expires_at as team_expires_at'] as const;
  // Two indexed reads rather than one OR across two tables.
  const [own, byTeam] = await Promise.all([
    db.selectFrom('workspaces as w').innerJoin('teams as t', 't.id', 'w.team_id').select(columns).where('w.expires_at', '<=', when).where('w.suspended_at', 'is', null).execute(),
    db.selectFrom('workspaces as w').innerJoin('teams as t', 't.id', 'w.team_id').select(columns).where('t.expires_at', '<=', when).where('w.suspended_at', 'is', null).execute(),
  ]);
  const unique = new Map([...own, ...byTeam].map((row) => [row.id, row]));
  return [...unique.values()].sort((a, b) => a.id - b.id);
}

/** Suspended workspaces whose retention ends at or before `at` (none when retention is "never"). */
export async function dueDeletions(db: Kysely<Database>, settings: LifecycleSettings, at: Date) {
  if (settings.retention_days === null) return [];
  return db
    .selectFrom('workspaces as w')
    .innerJoin('teams as t', 't.id', 'w.team_id')
    .select(['w.id', 'w.label', 'w.suspended_at', 't.fullname as team'])
    .where('w.suspended_at', '<=', later(at, -settings.retention_days * DAY_MS))
    .orderBy('w.id')
    .execute();
}

/**
 * Team memberships whose end date is at or before `at`: the pass removes them then
 * (memberships/endingStep.ts reads the same rows, `team_members.expires_at` indexed).
 */
export async function dueMembershipEnds(db: Kysely<Database>, at: Date) {
  return db
    .selectFrom('team_members as tm')
    .innerJoin('teams as t', 't.id', 'tm.team_id')
    .innerJoin('users as u', 'u.id', 'tm.user_id')
    .select(['tm.team_id', 't.fullname as team', 'tm.user_id', 'u.firstname', 'u.lastname', 'tm.expires_at'])
    .where('tm.expires_at', 'is not', null)
    .where('tm.expires_at', '<=', timestamp(at))
    .orderBy('tm.expires_at')
    .orderBy('tm.id')
    .$narrowType<{ expires_at: string }>()
    .execute();
}
