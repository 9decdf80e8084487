import { DAY_MS } from '../clock.js';
import { timestamp } from '../db/database.js';

// A workspace's end (docs/lifecycle.md, "Workspaces"): its own `expires_at` and its team's review
// date, whichever comes first, end it. The leader's pass suspends it then (`suspended_at`), and the
// reconciler withdraws access and lets no pod run; until the cluster holds that, it is
// "suspending". These rules are plain functions: the presenters, the lists and the pass share them.

export type WorkspaceStatus = 'active' | 'expiring' | 'expired';
/** Where the suspension stands on the cluster: null while the workspace is not suspended. */
export type Suspension = 'suspending' | 'suspended' | null;

export interface EndRow {
  expires_at: string | null;
  suspended_at: string | null;
  /** The team's review date. */
  team_expires_at: string | null;
  cluster_state: string;
}

/** The earlier of two end dates (null: none). */
export function earlierEnd(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return a <= b ? a : b;
}

/** A new workspace's end: `lifetimeDays` from now, never past its team's review date. */
export function newWorkspaceEnd(now: Date, lifetimeDays: number, teamExpiresAt: string | null): string {
  return earlierEnd(timestamp(new Date(now.getTime() + lifetimeDays * DAY_MS)), teamExpiresAt)!;
}

/**
 * Where an end date stands at `now`: `expired` once it passed, `expiring` from `warningDays`
 * before, `active` otherwise or without an end. A team's status is this of its review date.
 */
export function endStatus(end: string | null, warningDays: number, now: Date): WorkspaceStatus {
  if (end === null) return 'active';
  if (end <= timestamp(now)) return 'expired';
  return end <= timestamp(new Date(now.getTime() + warningDays * DAY_MS)) ? 'expiring' : 'active';
}

export interface WorkspaceLifecycle {
  status: WorkspaceStatus;
  /** When it ends (or ended): the earlier of its own date and its team's; null: never. */
  ends_at: string | null;
  suspension: Suspension;
}

/**
 * `expired` once the end passed (or the pass suspended it); `expiring` from `warningDays` before;
 * `active` otherwise. An expired workspace is `suspending` until the reconciler has applied the
 * suspension (its cluster state back to ready), `suspended` after.
 */
export function workspaceLifecycle(row: EndRow, warningDays: number, now: Date): WorkspaceLifecycle {
  const ends = earlierEnd(row.expires_at, row.team_expires_at);
  const nowText = timestamp(now);
  const expired = row.suspended_at !== null || (ends !== null && ends <= nowText);
  if (expired) {
    const held = row.suspended_at !== null && row.cluster_state === 'ready';
    return { status: 'expired', ends_at: ends, suspension: held ? 'suspended' : 'suspending' };
  }
  const expiring = ends !== null && ends <= timestamp(new Date(now.getTime() + warningDays * DAY_MS));
  return { status: expiring ? 'expiring' : 'active', ends_at: ends, suspension: null };
}

/**
 * A team's status by its review date (null: none): `expiring` from `warningDays` before it,
 * `expired` once it passed (its workspaces are then suspended until the team is renewed).
 */
export function teamStatus(expiresAt: string | null, warningDays: number, now: Date): WorkspaceStatus {
  if (expiresAt === null) return 'active';
  if (expiresAt <= timestamp(now)) return 'expired';
  return expiresAt <= timestamp(new Date(now.getTime() + warningDays * DAY_MS)) ? 'expiring' : 'active';
}
