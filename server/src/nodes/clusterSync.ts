import type { Kysely } from 'kysely';
import type { ClusterNode } from '../cluster/gateway.js';
import type { Database, NodeRecord, NodeStatus } from '../db/schema.js';
import { parseInfo } from './presenter.js';
import { changeNode, hasJoined, type NodeChanges, type NodeServices } from './records.js';
import { isIpv4 } from './schemas.js';
import { lastHeartbeat, statusFromNode } from './status.js';

// The cluster's view of the console nodes (docs/nodes-contract.md): what the node watcher
// (watcher.ts) applies for every Node it lists or hears about, and what the agent's "joined"
// report applies at once (agent.ts), so that a node's status, last activity and facts follow
// its kubelet.

/** last_active_at moves at most this often from cluster heartbeats (fewer writes). */
const LAST_ACTIVE_RESOLUTION_MS = 30_000;

const clusterFacts = (cluster: ClusterNode) => ({
  nodeInfo: cluster.nodeInfo,
  capacity: cluster.capacity,
  addresses: cluster.addresses,
});

/**
 * Brings a console node in line with its cluster Node (`null`: the cluster has none of that
 * name): status from the Node's conditions, lastActive from its heartbeats, and its facts
 * in `info.cluster`. A node that was running and whose Node is gone becomes 'unknown'.
 */
export async function applyClusterNode(
  services: NodeServices,
  nodeId: number,
  cluster: ClusterNode | null,
  now: Date = new Date(),
): Promise<NodeRecord | undefined> {
  return changeNode(services, nodeId, (current) => {
    if (!current.name) return null;
    if (!cluster) {
      if (current.status === 'unknown' || !hasJoined(current)) return null;
      return { changes: { status: 'unknown' }, activity: [{ causerId: null, description: 'the node is no longer in the cluster', severity: 'warning' }] };
    }
    const changes: NodeChanges = {};
    // Cordoned by the console's disable: that is not a problem of the node.
    let status: NodeStatus = statusFromNode({ ...cluster, unschedulable: cluster.unschedulable && !current.disabled_at }, now);
    // A freshly joined Node is NotReady until its kubelet is up: that is still 'installing'
    // (spec: installing while joining), not an error. A failed install is reported by the agent.
    if (current.status === 'installing' && (status === 'error' || status === 'unknown')) status = 'installing';
    if (status !== current.status) changes.status = status;
    const heartbeat = lastHeartbeat(cluster);
    if (heartbeat && (!current.last_active_at || Date.parse(heartbeat) - Date.parse(current.last_active_at) >= LAST_ACTIVE_RESOLUTION_MS)) {
      changes.last_active_at = heartbeat;
    }
    const info = parseInfo(current);
    const facts = clusterFacts(cluster);
    if (JSON.stringify(info.cluster) !== JSON.stringify(facts)) changes.info = JSON.stringify({ ...info, cluster: facts });
    if (current.dhcp === 1 && !current.ipv4) {
      const internal = cluster.addresses.find((address) => address.type === 'InternalIP' && isIpv4(address.address));
      if (internal) changes.ipv4 = internal.address;
    }
    return Object.keys(changes).length > 0 ? { changes } : null;
  });
}

/** Console nodes that have a Kubernetes name: the ones the watcher follows. */
export const namedNodes = (db: Kysely<Database>) =>
  db.selectFrom('nodes').select(['id', 'name']).where('name', 'is not', null).execute() as Promise<{ id: number; name: string }[]>;
