/** Shapes of the teams API (GET /api/tenants[/{id}], members, invitations: docs/api-contract.md). */

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
  pending_request?: { id: number; status: string } | null;
  workspaces?: { id: number; name: string; label?: string | null; namespace?: string | null }[];
  users?: { id: number; name: string; enabled?: boolean; pivot?: { role?: string | null } }[];
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
  expires_at: string;
}

/** POST /api/tenants/{id}/invitations. */
export interface InvitationRequest {
  email: string;
  role: TeamMemberRole;
  workspace_ids: number[];
}
