import type { Identifier } from 'react-admin';
import type { TeamMemberRole } from '../../teams/types';

/** GET /api/admin/teams/{id} (docs/api-contract.md "Admin: teams and team members"). */
export interface AdminTeamDetail {
  id: number;
  name: string;
  fullname: string;
  shortname: string;
  affiliation: string | null;
  city: string | null;
  country: string | null;
  url: string | null;
  joining_category: string | null;
  joining_reason: string | null;
  enabled: boolean;
  created_at: string;
  updated_at: string;
  members: { id: number; name: string; email: string; role: TeamMemberRole; enabled: boolean; joined_at: string }[];
  workspaces: { id: number; name: string; label: string; namespace: string; cluster_state: string; created_at: string; member_count: number; quota: Record<string, string> }[];
  counts: { members: number; owners: number; managers: number; workspaces: number; workspace_members: number; pending_requests: number };
  activity: { id: number; description: string; properties: { severity?: string } & Record<string, unknown>; created_at: string }[];
  /** The team quota: per resource the cap in force (with the contributor credit), what workspaces hold, and the cap as set; null: none. */
  quota?: Record<'cpu' | 'memory' | 'pods' | 'storage', { hard: string; allocated: string; own?: string } | null> | null;
  /** CPU core-hours per calendar month; null: no allocation. */
  allocation_core_hours?: number | null;
  /** Since when this month's allocation is used up; null: it is not. */
  allocation_used_up_at?: string | null;
}

/**
 * Whether the record is the detail: coming from the list, react-admin first shows the list's
 * cached row (no members, counts…) while GET /api/admin/teams/{id} loads.
 */
export const isDetail = (record: Partial<AdminTeamDetail> | undefined): record is AdminTeamDetail =>
  !!record && Array.isArray(record.members) && record.counts !== undefined;

/** DELETE /api/admin/teams/{id}?cascade=1[&dry_run=1]: what is (or would be) deleted. */
export interface TeamDeletion {
  team: { id: number; name: string; fullname: string };
  workspaces: { id: number; name: string; namespace: string; member_count: number }[];
  namespaces: string[];
  counts: { workspaces: number; namespaces: number; team_members: number; workspace_members: number; pending_requests: number };
  dry_run: boolean;
  requires_cascade: boolean;
  deleted: boolean;
}

/** POST /api/admin/teams/bulk (docs/api-contract.md "Admin: teams and team members"): ids or the teams list's filter. */
export interface BulkTeamsRequest {
  ids?: Identifier[];
  filter?: { q?: string; from?: string; to?: string; has_workspaces?: boolean; expiring_within_days?: number; expired?: boolean };
  action: 'suspend' | 'enable';
  dry_run?: boolean;
}

export interface BulkTeamsAnswer {
  action: 'suspend' | 'enable';
  dry_run: boolean;
  matched: number;
  totals: { done: number; unchanged: number; not_found: number };
  reach: { members: number; workspaces: number; workspace_memberships: number };
  results: { id: number; status: 'done' | 'unchanged' | 'not_found'; message?: string }[];
}
