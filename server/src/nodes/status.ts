import type { Severity } from '../activity/log.js';
import type { ClusterNode } from '../cluster/gateway.js';
import type { NodeStatus } from '../db/schema.js';

// Node status from the cluster's Node object (docs/nodes-contract.md): pure functions, so the
// mapping is tested without a cluster.

/** A kubelet that has not posted a heartbeat for this long counts as gone ('unknown'). */
export const HEARTBEAT_STALE_MS = 5 * 60_000;

/** Conditions that, True on a Ready node, make it a 'warning'. */
export const PRESSURE_CONDITIONS = ['MemoryPressure', 'DiskPressure', 'PIDPressure', 'NetworkUnavailable'] as const;

/** Statuses the cluster decides (the others come from the agent's check-ins). */
export const CLUSTER_STATUSES: readonly NodeStatus[] = ['ok', 'warning', 'error', 'unknown'];

type NodeLike = Pick<ClusterNode, 'conditions' | 'unschedulable'>;

/**
 * Ready True → 'ok'; Ready True with a pressure condition True or cordoned → 'warning';
 * Ready False → 'error'; Ready Unknown, no Ready condition, or a Ready heartbeat older than
 * 5 minutes → 'unknown'.
 */
export function statusFromNode(node: NodeLike, now: Date = new Date()): NodeStatus {
  const ready = node.conditions.find((condition) => condition.type === 'Ready');
  if (!ready) return 'unknown';
  if (ready.lastHeartbeatTime) {
    const age = now.getTime() - new Date(ready.lastHeartbeatTime).getTime();
    if (age > HEARTBEAT_STALE_MS) return 'unknown';
  }
  if (ready.status === 'False') return 'error';
  if (ready.status !== 'True') return 'unknown';
  const pressure = node.conditions.some(
    (condition) => (PRESSURE_CONDITIONS as readonly string[]).includes(condition.type) && condition.status === 'True',
  );
  return pressure || node.unschedulable ? 'warning' : 'ok';
}

/** The newest heartbeat of any condition (the kubelet's last sign of life), or null. */
export function lastHeartbeat(node: Pick<ClusterNode, 'conditions'>): string | null {
  let newest: string | null = null;
  for (const condition of node.conditions) {
    if (condition.lastHeartbeatTime && (!newest || condition.lastHeartbeatTime > newest)) newest = condition.lastHeartbeatTime;
  }
  return newest;
}

/** A status as the console names it (NodeStatusBadge.tsx), for activity descriptions people read. */
export function statusWord(status: NodeStatus): string {
  const words: Partial<Record<NodeStatus, string>> = { ok: 'Running', warning: 'Warning', error: 'Error' };
  return words[status] ?? status;
}

/** How an activity entry about reaching `status` is flagged. */
export function severityOfStatus(status: NodeStatus): Severity {
  if (status === 'error') return 'error';
  if (status === 'warning' || status === 'unknown') return 'warning';
  return 'info';
}

/** The console's node type for a cluster Node it did not add (admin list). */
export function typeFromArchitecture(architecture: string): string {
  if (architecture === 'amd64') return 'x86-64';
  if (architecture === 'arm64') return 'arm64';
  return 'other';
}
