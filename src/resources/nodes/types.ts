/** Shapes of the nodes API (docs/nodes-contract.md). */

/** The node types the server accepts (NODE_TYPES), in the order the form offers them. */
export const NODE_TYPES = ['raspberry-pi', 'jetson', 'x86-64', 'arm64', 'virtual-machine', 'other'] as const;
export type NodeType = (typeof NODE_TYPES)[number];

/** 'to install' | 'installing' | 'ok' | 'warning' | 'error' | 'unknown' | '' (= Disabled). */
export type NodeStatus = 'to install' | 'installing' | 'ok' | 'warning' | 'error' | 'unknown' | '';

export interface NodeRecord {
  id: number;
  /** The Kubernetes Node name, null until the node gets its bootstrap token. */
  name: string | null;
  type: string;
  dhcp?: boolean;
  hostname?: string | null;
  ip_v4?: string | null;
  ip_v6?: string | null;
  notes?: string | null;
  lastActive?: string | null;
  status?: NodeStatus | (string & {}) | null;
  info?: Record<string, unknown> | null;
  installation_url?: string | null;
  image_url?: string | null;
  /** The team the node counts for (contributor credit); null: none. */
  team_id?: number | null;
  owner?: { id: number; name: string } | null;
}

export interface NodeAddress {
  type: string;
  address: string;
}

export interface NodeCondition {
  type: string;
  status: string;
  reason?: string | null;
  message?: string | null;
  lastHeartbeatTime?: string | null;
}

/** GET /api/admin/nodes rows; the data provider sets id = name. */
export interface AdminNodeRecord {
  id: string;
  name: string;
  type?: string | null;
  owner?: { id: number; name: string } | null;
  node_id?: number | null;
  status?: {
    /** The spec's misspelt key (served as well as `addresses`). */
    addesses?: NodeAddress[] | null;
    addresses?: NodeAddress[] | null;
    capacity?: Record<string, string | number | null> | null;
    nodeInfo?: Record<string, string | null> | null;
    conditions?: NodeCondition[] | null;
    state?: string | null;
  } | null;
  unschedulable?: boolean;
  /** When the console last heard from the node's agent (ISO), null before its first call. */
  lastActive?: string | null;
  activity?: { id: number | string; created_at: string; description: string; properties?: { severity?: string | null } | null }[];
}

/** Statuses before the node has joined the cluster: the detail page shows the install panel only. */
export const isAwaitingInstall = (status: string | null | undefined): boolean => status == null || status === 'to install';

/** Statuses that change without the user doing anything soon: polled as a fallback to realtime. */
export const isInstalling = (status: string | null | undefined): boolean =>
  status == null || status === 'to install' || status === 'installing';

/** How often a node that is being installed is refetched (realtime is the main path). */
export const NODE_REFRESH_MS = 15_000;

/** One entry of GET /api/nodes/{id}/activity (docs/nodes-contract.md). */
export interface NodeActivityEntry {
  id: number | string;
  created_at: string;
  description: string;
  properties?: { severity?: string | null } | null;
}
