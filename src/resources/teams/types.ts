/** Shapes of the teams API (GET /api/tenants[/{id}], members, invitations: docs/api-contract.md). */
import type { WorkspaceQuotaUsage } from '../workspaces/types';

/** A role in a team. */
export type TeamMemberRole = 'owner' | 'manager' | 'member';

/** GET /api/tenants/{id-or-name}: the team page's record (members see its users). */
export interface TeamRecord {
  id: number;
  name: string;
  fullname?: string | null;
  shortname?: string | null;
  affiliation?: string | null;
  city?: string | null;
  country?: string | null;
  url?: string | null;
  role?: string | null;
  member?: boolean;
  /** False while platform admins have suspended the team. */
  enabled?: boolean;
  /** The team's review date (null: none; docs/lifecycle.md). */
  expires_at?: string | null;
  /** `expiring` from the warning time before the review date, `expired` once it passed. */
  status?: 'active' | 'expiring' | 'expired';
  pending_request?: { id: number; status: string } | null;
  workspaces?: { id: number; name: string; label?: string | null; namespace?: string | null }[];
  /** The team quota (members and admins; null: none), with the credit its contributed nodes earn. */
  quota?: TeamQuotaCaps;
  credit?: TeamCredit;
  /** `pivot.expires_at`: when the membership ends (null: no end). */
  users?: { id: number; name: string; enabled?: boolean; pivot?: { role?: string | null; expires_at?: string | null } }[];
}

/** POST /api/tenants/{id}/users/bulk {action: 'remove', user_ids}: what happened to each member. */
export interface BulkRemoval {
  results: { id: number; status: 'done' | 'forbidden' | 'not_found' | 'conflict'; message: string | null }[];
  totals: { done: number; forbidden: number; not_found: number; conflict: number };
}

/** One pending invitation of GET /api/tenants/{id}/invitations. */
export interface Invitation {
  id: number;
  email: string;
  role: TeamMemberRole;
  workspaces: { id: number; name: string; label: string }[];
  expired: boolean;
  invited_by: { id: number; name: string } | null;
  /** false: its inviter may no longer give its role here; it cannot be accepted until resent. */
  inviter_can_grant?: boolean;
  /** When the membership it gives ends (null: no end). */
  membership_expires_at?: string | null;
  expires_at: string;
}

/** POST /api/tenants/{id}/invitations, one address. */
export interface InvitationRequest {
  email: string;
  role: TeamMemberRole;
  workspace_ids: number[];
  /** When the membership ends (ISO date-time); absent: no end. */
  membership_expires_at?: string;
}

/** POST /api/tenants/{id}/invitations, many addresses (at most 200). */
export interface InvitationBatchRequest extends Omit<InvitationRequest, 'email'> {
  emails: string[];
}

export type InvitationOutcome = 'created' | 'already_member' | 'already_invited' | 'invalid' | 'limited';

/** 200 answer to many addresses: one outcome per distinct address, in the order sent. */
export interface InvitationBatchAnswer {
  results: { email: string; status: InvitationOutcome; message: string | null; invitation: Invitation | null }[];
  totals: Record<InvitationOutcome | 'requested', number>;
  /** Seconds until a spent budget allows more (null: none was spent). */
  retry_after: number | null;
}

/** GET /api/tenants/{team}/quota: what the team's workspaces hold of their quotas and use of them. */
export interface TeamQuotaAnswer {
  total: WorkspaceQuotaUsage;
  workspaces: { id: number; name: string; label: string; quota: WorkspaceQuotaUsage }[];
  /** This month's CPU allocation (core-hours) and its use; null or absent: the team has none. */
  allocation?: { core_hours: number; used: number; period_start: string; period_end: string; used_up_at: string | null } | null;
}

/** One of GET /api/subnamespaces/near-limit: a workspace at 80 % of a limit or more. */
export interface NearLimitWorkspace {
  id: number;
  name: string;
  label: string;
  team: { id: number; name: string; fullname: string } | null;
  /** Fullest first; `share` is used / hard (0.8 and more). */
  resources: { resource: keyof WorkspaceQuotaUsage; hard: string; used: string; share: number }[];
}

/** `quota` of GET /api/tenants/{id}: per resource the cap in force, what the workspaces hold, the cap as set. */
export type TeamQuotaCaps = Record<'cpu' | 'memory' | 'pods' | 'storage', { hard: string; allocated: string; own?: string } | null> | null;

/** `credit` of GET /api/tenants/{id}: the team's Ready contributed nodes and what they add to its caps. */
export interface TeamCredit {
  nodes: number;
  cpu: string;
  memory: string;
}
