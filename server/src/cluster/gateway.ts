import type { ClusterMode } from '../config.js';
import type { WorkspaceRole } from '../db/schema.js';

// The one interface the server uses to act on the cluster (docs/cluster.md, "The gateway").
// Implementations: kubernetesGateway.ts (a real API server, or the sandbox, over HTTPS) and
// noneGateway.ts (CLUSTER=none).

export type ClusterErrorKind = 'unreachable' | 'forbidden' | 'not-found' | 'conflict' | 'invalid';

/** A failed cluster call, classified. `invalid` is permanent (the cluster refuses the object). */
export class ClusterError extends Error {
  constructor(
    readonly kind: ClusterErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ClusterError';
  }
}

/** CLUSTER=none: there is no cluster to act on. */
export class ClusterUnavailable extends Error {
  constructor() {
    super('No cluster is connected to this console.');
    this.name = 'ClusterUnavailable';
  }
}

/** Labels and names the console puts on what it creates. */
export const MANAGED_BY = { 'app.kubernetes.io/managed-by': 'testbed-console' } as const;
export const TEAM_LABEL = 'testbed.io/team';
export const WORKSPACE_LABEL = 'testbed.io/workspace';
export const USER_LABEL = 'testbed.io/user';
/** Where the per-user service accounts live. */
export const IDENTITY_NAMESPACE = 'testbed-identities';

export const serviceAccountName = (userId: number) => `user-${userId}`;
export const roleBindingName = (userId: number) => `testbed-user-${userId}`;

/** The ClusterRole a workspace role is bound to (predefined on every cluster). */
export const clusterRoleFor = (_role: WorkspaceRole) => 'edit';

/** Every workspace namespace gets these; the one place to change them. */
export const WORKSPACE_DEFAULTS = {
  quota: {
    'requests.cpu': '8',
    'requests.memory': '16Gi',
    'limits.cpu': '16',
    'limits.memory': '32Gi',
    pods: '50',
    services: '20',
    persistentvolumeclaims: '10',
    'requests.storage': '100Gi',
  },
  limitRange: {
    default: { cpu: '500m', memory: '512Mi' },
    defaultRequest: { cpu: '100m', memory: '128Mi' },
    max: { cpu: '4', memory: '8Gi' },
  },
  quotaName: 'testbed-quota',
  limitRangeName: 'testbed-limits',
  networkPolicyName: 'testbed-same-namespace',
} as const;

export interface WorkspaceTarget {
  namespace: string;
  teamName: string;
  workspaceName: string;
}

export interface PodSummary {
  name: string;
  namespace: string;
  status: { phase: string | null; podIP: string | null; hostIP: string | null; startTime: string | null };
}

export interface IssuedToken {
  token: string;
  /** ISO 8601 */
  expiresAt: string;
}

export interface ClusterGateway {
  readonly mode: ClusterMode;
  /** Namespace (labelled), ResourceQuota, LimitRange and a same-namespace-only NetworkPolicy. */
  ensureWorkspace(target: WorkspaceTarget): Promise<void>;
  /** The user's service account and a RoleBinding in the workspace namespace. */
  ensureMemberAccess(input: { namespace: string; userId: number; role: WorkspaceRole }): Promise<void>;
  /** Deletes the user's RoleBinding in the namespace (absent = fine). */
  revokeMemberAccess(input: { namespace: string; userId: number }): Promise<void>;
  /** A TokenRequest token for the user's service account. */
  issueKubeconfigToken(input: { userId: number; namespace: string; expirationSeconds: number }): Promise<IssuedToken>;
  listPods(namespace: string): Promise<PodSummary[]>;
  /** null without a cluster. */
  clusterInfo(): { ca: string; server: string } | null;
  /** Whether the API server answers (never throws). */
  health(): Promise<boolean>;
}
