import { useMemo } from 'react';
import type { Identifier } from 'react-admin';
import { createHttpClient } from '../../../httpClient';
import { useSettings } from '../../../settings';

// The team administration calls of docs/api-contract.md ("Admin: teams and team members") that
// are not plain react-admin CRUD: the deletion with its dry run and cascade, the list's bulk
// suspension, and the member management of /teams/{id}. (GET and PATCH /api/admin/teams/{id}
// go through the data provider.)

export type TeamRole = 'owner' | 'manager' | 'member';

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
  members: { id: number; name: string; email: string; role: TeamRole; enabled: boolean; joined_at: string }[];
  workspaces: { id: number; name: string; label: string; namespace: string; cluster_state: string; created_at: string; member_count: number; quota: Record<string, string> }[];
  counts: { members: number; owners: number; managers: number; workspaces: number; workspace_members: number; pending_requests: number };
  activity: { id: number; description: string; properties: { severity?: string } & Record<string, unknown>; created_at: string }[];
}

/**
 * Whether the record is the detail: coming from the list, react-admin first shows the list's
 * cached row (no members, counts…) while GET /api/admin/teams/{id} loads.
 */
export const isDetail = (record: Partial<AdminTeamDetail> | undefined): record is AdminTeamDetail =>
  !!record && Array.isArray(record.members) && record.counts !== undefined;

export interface TeamDeletion {
  team: { id: number; name: string; fullname: string };
  workspaces: { id: number; name: string; namespace: string; member_count: number }[];
  namespaces: string[];
  counts: { workspaces: number; namespaces: number; team_members: number; workspace_members: number; pending_requests: number };
  dry_run: boolean;
  requires_cascade: boolean;
  deleted: boolean;
}

export interface BulkRemoval {
  results: { id: number; status: 'done' | 'forbidden' | 'not_found' | 'conflict'; message: string | null }[];
  totals: { done: number; forbidden: number; not_found: number; conflict: number };
}

/** POST /api/admin/teams/bulk (docs/api-contract.md "Admin: teams and team members"): ids or the teams list's filter. */
export interface BulkTeamsRequest {
  ids?: Identifier[];
  filter?: { q?: string; from?: string; to?: string; has_workspaces?: boolean };
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

const teamPath = (teamId: number | string) => `/api/tenants/${encodeURIComponent(String(teamId))}/users`;

export const useTeamCalls = () => {
  const settings = useSettings();
  return useMemo(() => {
    const http = createHttpClient({ baseUrl: settings.apiUrl });
    return {
      /** DELETE /api/admin/teams/{id}?cascade=1[&dry_run=1]: what is (or would be) deleted. */
      async deleteTeam(teamId: number, options: { dryRun: boolean }): Promise<TeamDeletion> {
        const query = options.dryRun ? { cascade: 1, dry_run: 1 } : { cascade: 1 };
        return (await http<TeamDeletion>(`/api/admin/teams/${teamId}`, { method: 'DELETE', query })).json;
      },
      async changeRole(teamId: number, userId: number, role: TeamRole): Promise<void> {
        await http(`${teamPath(teamId)}/${userId}`, { method: 'PATCH', body: { role } });
      },
      async removeMember(teamId: number, userId: number): Promise<void> {
        await http(`${teamPath(teamId)}/${userId}`, { method: 'DELETE' });
      },
      /** POST /api/admin/teams/bulk: suspend or enable by ids or filter; with dry_run, what would happen. */
      async bulkTeams(body: BulkTeamsRequest): Promise<BulkTeamsAnswer> {
        return (await http<BulkTeamsAnswer>('/api/admin/teams/bulk', { method: 'POST', body })).json;
      },
      async removeMembers(teamId: number, userIds: number[]): Promise<BulkRemoval> {
        return (await http<BulkRemoval>(`${teamPath(teamId)}/bulk`, { method: 'POST', body: { action: 'remove', user_ids: userIds } })).json;
      },
    };
  }, [settings.apiUrl]);
};
