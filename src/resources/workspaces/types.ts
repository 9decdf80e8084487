/** Shapes of the workspaces API (GET /api/subnamespaces/{id}, the cluster calls: docs/api-contract.md). */

export type PodSecurityLevel = 'privileged' | 'baseline' | 'restricted';

/** The Pod Security Admission levels of a workspace's namespace. */
export interface PodSecurity {
  enforce: PodSecurityLevel;
  warn: PodSecurityLevel;
  audit?: PodSecurityLevel;
  version: string;
}

/** One quota resource: its limit and what the cluster counts (null: not known now). Kubernetes quantities. */
export interface QuotaResourceUsage {
  hard: string;
  used: string | null;
}

/** `quota` of GET /api/subnamespaces/{id}. */
export interface WorkspaceQuotaUsage {
  pods: QuotaResourceUsage;
  cpu: QuotaResourceUsage;
  memory: QuotaResourceUsage;
  storage: QuotaResourceUsage;
}

/** GET /api/subnamespaces/{id}: the workspace page's record. */
export interface WorkspaceRecord {
  id: number;
  name: string;
  label?: string | null;
  description?: string | null;
  namespace?: string | null;
  team?: { id: number; name: string; fullname?: string | null } | null;
  tenant?: { id: number; name: string; fullname?: string | null } | null;
  role?: string | null;
  member?: boolean;
  can_manage?: boolean;
  users?: { id: number; name: string; enabled?: boolean; pivot?: { role?: string | null } }[];
  requests?: { id: number; user_id: number; type: string; status: string; created_at?: string }[];
  /** The Pod Security Admission levels of the namespace. */
  pod_security?: PodSecurity | null;
  /** docs/lifecycle.md: `expiring` from the warning time before `ends_at`, `expired` after it. */
  status?: 'active' | 'expiring' | 'expired';
  expires_at?: string | null;
  ends_at?: string | null;
  suspension?: 'suspending' | 'suspended' | null;
  /** Each quota resource as used / hard. */
  quota?: WorkspaceQuotaUsage | null;
  /** Since when the team's CPU allocation for the month is used up (no new pods); null: it is not. */
  allocation_used_up_at?: string | null;
}

/** 201 answer of POST /api/subnamespaces/{id}/kubeconfig (docs/api-contract.md "Cluster"). */
export interface KubeconfigAnswer {
  kubeconfig: string;
  namespace: string;
  expires_at: string;
  filename: string;
}

/** One pod of GET /api/pods?namespace= (docs/api-contract.md "Cluster"). */
export interface Pod {
  name: string;
  namespace: string;
  status?: { phase?: string | null; podIP?: string | null; hostIP?: string | null; startTime?: string | null } | null;
}
