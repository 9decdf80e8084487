import type { ClusterMode } from '../config/config.js';
import type { WorkspaceRole } from '../db/schema.js';
import type { WorkspaceQuota } from './quota.js';

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
export const WORKSPACE_ID_LABEL = 'testbed.io/workspace-id';
/** Where the members' service accounts live: a namespace no member can act in. */
export const IDENTITY_NAMESPACE = 'testbed-identities';

/**
 * One service account per user and workspace, so a kubeconfig works in its own workspace and
 * nowhere else (even for a user who belongs to several), and removing the member deletes the
 * account, which voids every token issued for it. At most 8 + 2 × 9 digits: far below 63.
 */
export const serviceAccountName = (userId: number, workspaceId: number) => `member-w${workspaceId}-u${userId}`;
export const roleBindingName = (userId: number) => `testbed-user-${userId}`;

/** The ClusterRole a workspace role is bound to; the console installs these (WORKSPACE_CLUSTER_ROLES). */
export const clusterRoleFor = (role: WorkspaceRole) => `testbed-workspace-${role}`;

const READ = ['get', 'list', 'watch'];
const WRITE = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const MEMBER_RULES = [
  { apiGroups: [''], resources: ['pods', 'services', 'endpoints', 'configmaps', 'secrets', 'persistentvolumeclaims'], verbs: WRITE },
  { apiGroups: [''], resources: ['pods/exec', 'pods/attach', 'pods/portforward'], verbs: ['create', 'get'] },
  { apiGroups: [''], resources: ['pods/log', 'pods/status', 'events', 'resourcequotas', 'limitranges', 'serviceaccounts'], verbs: READ },
  { apiGroups: ['apps'], resources: ['deployments', 'replicasets', 'statefulsets', 'daemonsets', 'deployments/scale', 'statefulsets/scale'], verbs: WRITE },
  { apiGroups: ['batch'], resources: ['jobs', 'cronjobs'], verbs: WRITE },
  { apiGroups: ['autoscaling'], resources: ['horizontalpodautoscalers'], verbs: WRITE },
  { apiGroups: ['networking.k8s.io'], resources: ['ingresses'], verbs: WRITE },
  { apiGroups: ['networking.k8s.io'], resources: ['networkpolicies'], verbs: READ },
];

/**
 * What workspace roles may do in their namespace. Neither may touch the quota, the limit range,
 * the isolating network policy or RBAC, which the console owns; managers may in addition run
 * workloads under their own service accounts and read who is bound to what.
 */
export const WORKSPACE_CLUSTER_ROLES: Record<WorkspaceRole, { apiGroups: string[]; resources: string[]; verbs: string[] }[]> = {
  member: MEMBER_RULES,
  manager: [
    ...MEMBER_RULES,
    { apiGroups: [''], resources: ['serviceaccounts'], verbs: WRITE },
    { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles', 'rolebindings'], verbs: READ },
  ],
};

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
  /**
   * The second ResourceQuota of a workspace whose team used up this month's CPU allocation:
   * `pods: 0`. Kubernetes names the quota that refuses a pod, and nothing else, so its name is
   * the message: `exceeded quota: cpu-allocation-used-up.ask-for-more-on-the-team-page, …`.
   */
  allocationQuotaName: 'cpu-allocation-used-up.ask-for-more-on-the-team-page',
  limitRangeName: 'testbed-limits',
  networkPolicyName: 'testbed-same-namespace',
} as const;

/**
 * Pod Security Admission levels of every workspace namespace (docs/cluster.md, "Pod Security"),
 * the one place to change them. Members are not trusted with the nodes people contribute:
 * `baseline` refuses what reaches the host (host namespaces, privileged containers, hostPath
 * volumes, host ports, added capabilities …); `restricted` is what we nudge towards, as
 * warnings and audit entries. The version is pinned so that a cluster upgrade cannot change
 * the rules under running workspaces.
 */
export const POD_SECURITY = { enforce: 'baseline', warn: 'restricted', audit: 'restricted', version: 'v1.34' } as const;

/** The namespace labels that apply POD_SECURITY. */
export const POD_SECURITY_LABELS: Readonly<Record<string, string>> = Object.fromEntries(
  (['enforce', 'warn', 'audit'] as const).flatMap((mode) => [
    [`pod-security.kubernetes.io/${mode}`, POD_SECURITY[mode]],
    [`pod-security.kubernetes.io/${mode}-version`, POD_SECURITY.version],
  ]),
);

export interface WorkspaceTarget {
  namespace: string;
  teamName: string;
  workspaceName: string;
  /** The workspace's own quota values (quota.ts); absent or null values: the defaults. */
  quota?: WorkspaceQuota;
  /**
   * The workspace ended (docs/lifecycle.md): its ResourceQuota allows no pods and its running
   * pods are deleted; everything else in the namespace is kept for a renewal.
   */
  suspended?: boolean;
  /**
   * The team used up this month's CPU allocation (docs/usage.md): a second ResourceQuota
   * (WORKSPACE_DEFAULTS.allocationQuotaName) admits no new pod, but the running ones stay
   * (nobody's work is killed for a number).
   */
  allocationUsedUp?: boolean;
}

/** A namespace's ResourceQuota as the cluster has it: limits and, where the cluster counts it, usage. */
export interface QuotaStatus {
  hard: Record<string, string>;
  used: Record<string, string>;
}

export interface MemberTarget {
  namespace: string;
  workspaceId: number;
  userId: number;
}

export interface PodSummary {
  name: string;
  namespace: string;
  status: { phase: string | null; podIP: string | null; hostIP: string | null; startTime: string | null };
}

/**
 * The namespaces of workspaces: what ensureWorkspace labels (the console's managed-by label and
 * the workspace label; testbed-identities has the first only). A label selector on namespaces:
 * pods do not carry their namespace's labels.
 */
export const WORKSPACE_NAMESPACE_SELECTOR = `app.kubernetes.io/managed-by=${MANAGED_BY['app.kubernetes.io/managed-by']},${WORKSPACE_LABEL}`;

/** What one container asks for and may use: CPU in cores, memory in bytes; null when not set. */
export interface AccountedResources {
  requests: { cpu: number | null; memory: number | null };
  limits: { cpu: number | null; memory: number | null };
}

/** A running pod of a workspace namespace, as usage accounting reads it (docs/usage.md). */
export interface AccountedPod {
  namespace: string;
  name: string;
  phase: string | null;
  /** ISO 8601: when the kubelet took the pod on (`status.startTime`); null before that. */
  startTime: string | null;
  /** Its containers (not init containers), quantities parsed. */
  containers: AccountedResources[];
}

export interface Stoppable {
  stop(): void;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface PodWatchHandlers {
  onChange(type: WatchEventType, pod: PodSummary): void;
  onEnd(error?: ClusterError): void;
}

export interface PodLogHandlers {
  /** One line of the log, without its line break, and when the container wrote it (RFC 3339, if known). */
  onLine(text: string, time: string | null): void;
  onEnd(error?: ClusterError): void;
}

/**
 * A ServiceAccount (in IDENTITY_NAMESPACE) or RoleBinding (in a workspace namespace) that may
 * give someone access to a workspace: what the console makes for members, and anything else
 * named, labelled or bound like it. `workspaceId` and `userId` are read from the console's names
 * (serviceAccountName, roleBindingName and the binding's subject); null when they say nothing.
 */
export interface MemberAccessObject {
  kind: 'ServiceAccount' | 'RoleBinding';
  namespace: string;
  name: string;
  workspaceId: number | null;
  userId: number | null;
}

/** The ids in a member service account's name (serviceAccountName), or null. */
export function parseServiceAccountName(name: string): { workspaceId: number; userId: number } | null {
  const match = /^member-w(\d+)-u(\d+)$/.exec(name);
  return match ? { workspaceId: Number(match[1]), userId: Number(match[2]) } : null;
}

/** The user id in a member role binding's name (roleBindingName), or null. */
export function parseRoleBindingName(name: string): number | null {
  const match = /^testbed-user-(\d+)$/.exec(name);
  return match ? Number(match[1]) : null;
}

export interface IssuedToken {
  token: string;
  /** ISO 8601 */
  expiresAt: string;
}

export interface ClusterGateway {
  readonly mode: ClusterMode;
  /**
   * Namespace (labelled, with POD_SECURITY_LABELS), ResourceQuota, LimitRange and a same-namespace-only NetworkPolicy;
   * for a suspended workspace, a quota of no pods and its pods deleted.
   */
  ensureWorkspace(target: WorkspaceTarget): Promise<void>;
  /** The console's ClusterRoles (WORKSPACE_CLUSTER_ROLES), created or brought back in line. */
  ensureClusterRoles(): Promise<void>;
  /**
   * The member's service account for this workspace and its RoleBinding in the workspace
   * namespace (the ClusterRoles must exist: ensureClusterRoles first).
   */
  ensureMemberAccess(input: MemberTarget & { role: WorkspaceRole }): Promise<void>;
  /** Deletes the RoleBinding and the service account (which voids its tokens); absent = fine. */
  revokeMemberAccess(input: MemberTarget): Promise<void>;
  /**
   * Deletes a deleted workspace's namespace and everything in it (its bindings included);
   * absent = fine. Members' service accounts live elsewhere: revokeMemberAccess takes those.
   */
  deleteWorkspaceNamespace(namespace: string): Promise<void>;
  /**
   * Every member-access object (MemberAccessObject): the service accounts of IDENTITY_NAMESPACE
   * and the role bindings of these namespaces (an absent namespace has none).
   */
  listMemberAccess(namespaces: readonly string[]): Promise<MemberAccessObject[]>;
  /** Deletes one object listMemberAccess answered (a deleted service account voids its tokens); absent = fine. */
  deleteMemberAccessObject(object: Pick<MemberAccessObject, 'kind' | 'namespace' | 'name'>): Promise<void>;
  /** A TokenRequest token for the member's service account of this workspace. */
  issueKubeconfigToken(input: MemberTarget & { expirationSeconds: number }): Promise<IssuedToken>;
  listPods(namespace: string): Promise<PodSummary[]>;
  /**
   * The Running pods of every workspace namespace (WORKSPACE_NAMESPACE_SELECTOR), cluster-wide,
   * read in pages: the leader's usage accounting (docs/usage.md).
   */
  listWorkspacePods(): Promise<AccountedPod[]>;
  /**
   * Watches the namespace's pods from now on: `onChange` for each ADDED/MODIFIED/DELETED, `onEnd`
   * once when the watch ends (error: it failed; none: the server closed it; not after stop()).
   */
  watchPods(namespace: string, handlers: PodWatchHandlers): Promise<Stoppable>;
  /**
   * Follows a pod's log (its first container): the last `tailLines` lines, then new ones as
   * they are written. `onEnd` once when the stream ends (not after stop()).
   */
  streamPodLogs(input: { namespace: string; pod: string; tailLines: number }, handlers: PodLogHandlers): Promise<Stoppable>;
  /** The workspace ResourceQuota (`testbed-quota`) of a namespace; null when it has none (yet). */
  readWorkspaceQuota(namespace: string): Promise<QuotaStatus | null>;
  /** null without a cluster. */
  clusterInfo(): { ca: string; server: string } | null;
  /** Whether the API server answers (never throws). */
  health(): Promise<boolean>;

  // Nodes (docs/nodes-contract.md)
  /** Every Node of the cluster. */
  listNodes(): Promise<ClusterNode[]>;
  /** One Node, or null when the cluster has none of that name. */
  readNode(name: string): Promise<ClusterNode | null>;
  /**
   * Watches every Node: first an ADDED for each current Node, then each change. `onEnd` once
   * when the watch ends (error: it failed; none: the server closed it; not after stop()).
   */
  watchNodes(handlers: NodeWatchHandlers): Promise<Stoppable>;
  /** A kubeadm bootstrap token (Secret `bootstrap-token-<id>` in kube-system) and how to join with it. */
  createBootstrapToken(input: { ttlSeconds: number; description: string }): Promise<BootstrapToken>;
  /** Cordons (true) or uncordons (false) a Node; answers the Node as it is then. */
  setNodeUnschedulable(name: string, unschedulable: boolean): Promise<ClusterNode>;
}

// Nodes (docs/nodes-contract.md)

export interface ClusterNodeCondition {
  type: string;
  status: string;
  reason: string | null;
  message: string | null;
  /** ISO 8601, or null when the kubelet never posted one. */
  lastHeartbeatTime: string | null;
}

/** What the console needs of a Kubernetes Node. */
export interface ClusterNode {
  name: string;
  labels: Record<string, string>;
  unschedulable: boolean;
  /** ISO 8601 */
  createdAt: string | null;
  addresses: { type: string; address: string }[];
  capacity: Record<string, string>;
  nodeInfo: {
    architecture: string;
    operatingSystem: string;
    osImage: string;
    kubeletVersion: string;
    kernelVersion: string;
    containerRuntimeVersion: string;
  };
  conditions: ClusterNodeCondition[];
}

export interface NodeWatchHandlers {
  onChange(type: WatchEventType, node: ClusterNode): void;
  onEnd(error?: ClusterError): void;
}

/** What `kubeadm join` needs: `<apiServer> --token <token> --discovery-token-ca-cert-hash <caCertHash>`. */
export interface BootstrapToken {
  /** `<token-id>.<token-secret>`: [a-z0-9]{6}.[a-z0-9]{16} */
  token: string;
  /** `sha256:<hex>` of the cluster CA's SubjectPublicKeyInfo (DER). */
  caCertHash: string;
  /** host:port of the API server. */
  apiServer: string;
  /** ISO 8601 */
  expiresAt: string;
}

/** The group kubeadm gives its node bootstrap tokens (`kubeadm token create` defaults). */
export const BOOTSTRAP_TOKEN_GROUP = 'system:bootstrappers:kubeadm:default-node-token';
