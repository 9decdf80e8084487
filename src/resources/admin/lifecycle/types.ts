import type { Identifier } from 'react-admin';

// The platform admins' side of end dates (docs/lifecycle.md, docs/api-contract.md "Admin lists"
// and "Admin: extending in bulk"): the lists' end columns, the bulk extension, the lifecycle
// settings and the preview of what ends next.

/** Where an end date stands: `expiring` from the warning time before it. */
export type EndStatus = 'active' | 'expiring' | 'expired';

/** GET /api/admin/settings: the settings as they hold now, and the environment's defaults. */
export interface LifecycleSettings {
  workspace_lifetime_days: number;
  team_review_days: number;
  warning_days: number;
  last_warning_hours: number;
  /** null: expired workspaces are never deleted. */
  retention_days: number | null;
  retention_notice_days: number;
  membership_warning_days: number;
  policy_validity_days: number;
  /** Contributor credit: the share of a Ready node's CPU and memory its team's caps gain (0: none). */
  credit_cpu_factor: number;
  credit_memory_factor: number;
  defaults: Record<string, number | null>;
}

export type LifecycleSettingKey = Exclude<keyof LifecycleSettings, 'defaults'>;

/** PATCH /api/admin/settings: any of them. */
export type LifecycleSettingsPatch = Partial<Pick<LifecycleSettings, LifecycleSettingKey>>;

export type NoticeKind = 'workspace_warning' | 'workspace_last_warning' | 'team_warning' | 'team_last_warning' | 'workspace_deletion';

/** GET /api/admin/lifecycle/preview?until=: what the pass will do from now until then. */
export interface LifecyclePreview {
  until: string;
  warnings: { kind: NoticeKind; subject_type: 'workspace' | 'team'; subject_id: number; label: string; team: string | null; date: string }[];
  suspensions: { workspace_id: number; label: string; team_id: number; date: string }[];
  deletions: { workspace_id: number; label: string; team: string; date: string }[];
  removals: { team_id: number; team: string; user_id: number; name: string; date: string }[];
}

/** POST /api/admin/{teams,workspaces}/bulk {action: 'extend'}: by ids or the list's filter. */
export interface BulkExtendRequest {
  ids?: Identifier[];
  filter?: Record<string, unknown>;
  action: 'extend';
  days: number;
  dry_run?: boolean;
}

export interface BulkExtendAnswer {
  action: 'extend';
  dry_run: boolean;
  days: number;
  matched: number;
  totals: { done: number; skipped: number; not_found: number };
  reach: { resumed_workspaces: number };
  results: {
    id: number;
    status: 'done' | 'skipped' | 'not_found';
    name?: string;
    namespace?: string;
    from?: string;
    to?: string;
    ends_at?: string | null;
    resumed?: boolean;
    resumed_workspaces?: number;
    message?: string;
  }[];
}
