import type { Identifier } from 'react-admin';

/** GET /api/admin/users/{id} (docs/api-contract.md "Admin: users"). */
export interface AdminUserDetail {
  id: number;
  name: string;
  firstname: string;
  lastname: string;
  email: string;
  email_verified_at: string | null;
  aup_accepted_at: string | null;
  admin: boolean;
  enabled: boolean;
  created_at: string;
  last_login_at: string | null;
  last_login_source: 'activity log';
  teams: { id: number; name: string; fullname: string; role: string; enabled: boolean }[];
  workspaces: { id: number; name: string; namespace: string; team: { id: number; name: string }; role: string; cluster_state: string }[];
  tokens: { id: number; name: string; created_at: string; last_used_at: string | null; expires_at: string | null }[];
  nodes: { id: number; name: string | null; hostname: string | null; type: string; status: string; last_active_at: string | null; created_at: string }[];
  activity: { id: number; description: string; properties: { severity: string }; created_at: string }[];
  counts: { sessions: number; personal_tokens: number; kubeconfigs: number; nodes: number };
}

/** POST /api/admin/users/bulk (docs/api-contract.md "Admin: users"): ids or filter, not both. */
export interface BulkUsersRequest {
  ids?: Identifier[];
  filter?: { q?: string; admin?: boolean; enabled?: boolean; verified?: boolean; policy?: boolean; team_id?: number; active_within_days?: number };
  action: 'disable' | 'enable';
  dry_run?: boolean;
}

export interface BulkUsersAnswer {
  action: 'disable' | 'enable';
  dry_run: boolean;
  matched: number;
  totals: { done: number; unchanged: number; forbidden: number; not_found: number };
  revoked: { sessions: number; personal_tokens: number; kubeconfigs: number };
  results: { id: number; status: 'done' | 'unchanged' | 'forbidden' | 'not_found'; message?: string }[];
}
