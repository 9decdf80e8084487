/** GET /api/admin/workspaces/{id} (docs/api-contract.md, "Admin: workspaces"). */
export interface QuotaValues {
  cpu: string;
  memory: string;
  pods: number;
  storage: string;
}

export interface AdminWorkspaceDetail {
  id: number;
  name: string;
  label: string;
  description: string | null;
  namespace: string;
  created_at: string;
  updated_at: string;
  team: { id: number; name: string; fullname: string };
  users: { id: number; name: string; email: string; enabled: boolean; role: 'manager' | 'member'; cluster_state: string; joined_at: string }[];
  counts: { members: number; managers: number; pending_requests: number };
  quota: {
    values: QuotaValues;
    own: { cpu: string | null; memory: string | null; pods: number | null; storage: string | null };
    defaults: QuotaValues;
    cluster: { hard: Record<string, string>; used: Record<string, string> } | null;
  };
  pod_security: { enforce: string; warn: string; audit: string; version: string };
  cluster: { state: 'pending' | 'ready' | 'error'; error: string | null; synced_at: string | null };
  activity: {
    id: number;
    description: string;
    causer: { id: number; name: string } | null;
    properties: { severity: 'info' | 'warning' | 'error' };
    created_at: string;
  }[];
}

/**
 * Whether a record is the detail answer: react-admin first shows the row of the list (cached)
 * while GET /api/admin/workspaces/{id} loads, and that row has no counts or quota.
 */
export const isDetail = (record: Partial<AdminWorkspaceDetail> | undefined): record is AdminWorkspaceDetail =>
  record !== undefined && record.counts !== undefined && record.quota !== undefined;

/** POST /api/admin/workspaces/bulk {ids, action: 'delete', dry_run?}: what is (or would be) deleted, per id. */
export interface BulkWorkspacesAnswer {
  action: 'delete';
  dry_run: boolean;
  matched: number;
  totals: { done: number; not_found: number };
  reach: { workspaces: number; members: number; memberships: number };
  results: { id: number; status: 'done' | 'not_found'; name?: string; namespace?: string; members?: number; message?: string }[];
}
