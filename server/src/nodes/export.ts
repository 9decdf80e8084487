import type { Readable } from 'node:stream';
import { type CsvColumn, csvStream, EXPORT_BATCH, joined } from '../http/csvExport.js';
import type { ClusterNode } from '../cluster/gateway.js';
import type { PresentedAdminNode } from './presenter.js';

// GET /api/admin/nodes.csv: the cluster Nodes of the admin list, one line per Node. The
// cluster answers its Node list whole (as for the list itself); the console's side (owner,
// type, last activity) is loaded and presented one batch of names at a time.

const nodeColumns: CsvColumn<PresentedAdminNode>[] = [
  { header: 'name', value: (node) => node.name },
  { header: 'type', value: (node) => node.type },
  // '' is how the API says Disabled; a file reader needs the word.
  { header: 'status', value: (node) => node.status.state || 'disabled' },
  { header: 'owner_id', value: (node) => node.owner?.id },
  { header: 'owner', value: (node) => node.owner?.name },
  { header: 'node_id', value: (node) => node.node_id },
  { header: 'addresses', value: (node) => joined(node.status.addresses, (address) => `${address.type} ${address.address}`) },
  { header: 'cpu', value: (node) => node.status.capacity.cpu },
  { header: 'memory', value: (node) => node.status.capacity.memory },
  { header: 'ephemeral_storage', value: (node) => node.status.capacity['ephemeral-storage'] },
  { header: 'pods', value: (node) => node.status.capacity.pods },
  { header: 'architecture', value: (node) => node.status.nodeInfo.architecture },
  { header: 'operating_system', value: (node) => node.status.nodeInfo.operatingSystem },
  { header: 'os_image', value: (node) => node.status.nodeInfo.osImage },
  { header: 'kubelet_version', value: (node) => node.status.nodeInfo.kubeletVersion },
  { header: 'unschedulable', value: (node) => node.unschedulable },
  { header: 'last_active', value: (node) => node.lastActive },
];

/** The Nodes as CSV, presented `batch` at a time by `present` (which loads their console records, if not loaded yet). */
export function exportAdminNodes<Node = ClusterNode>(
  nodes: Node[],
  present: (batch: Node[]) => Promise<PresentedAdminNode[]>,
  batch: number = EXPORT_BATCH,
): Readable {
  async function* batches() {
    for (let start = 0; start < nodes.length; start += batch) yield await present(nodes.slice(start, start + batch));
  }
  return csvStream(nodeColumns, batches());
}
