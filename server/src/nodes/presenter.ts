import type { Kysely } from 'kysely';
import type { ActivityEntry, Database, NodeRecord } from '../db/schema.js';
import type { ClusterNode } from '../cluster/gateway.js';
import type { Severity } from '../activity/log.js';
import { deriveNodeSecret } from './secrets.js';
import { statusFromNode, typeFromArchitecture } from './status.js';

// The Node JSON of docs/nodes-contract.md. The node secret appears only inside
// installation_url, and only these presenters (for the owner and platform admins) build it.

export interface NodeOwner {
  id: number;
  name: string;
}

export interface NodeWithOwner extends NodeRecord {
  owner: NodeOwner | null;
}

export interface PresenterConfig {
  appUrl: string;
  appKey: string;
}

export type PresentedStatus = NodeRecord['status'] | '';

/** The status as the console shows it: '' (Disabled) while an admin has disabled the node. */
export const presentedStatus = (node: Pick<NodeRecord, 'status' | 'disabled_at'>): PresentedStatus => (node.disabled_at ? '' : node.status);

export const installationUrl = (config: PresenterConfig, node: Pick<NodeRecord, 'secret_salt'>) =>
  `${config.appUrl}/agent/install/${deriveNodeSecret(config.appKey, node.secret_salt)}`;

export const parseInfo = (node: Pick<NodeRecord, 'info'>): Record<string, unknown> => {
  try {
    const parsed = JSON.parse(node.info) as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

export function presentNode(config: PresenterConfig, node: NodeWithOwner) {
  return {
    id: node.id,
    name: node.name,
    type: node.type,
    dhcp: node.dhcp === 1,
    hostname: node.hostname,
    ip_v4: node.ipv4,
    ip_v6: node.ip_v6,
    notes: node.notes,
    lastActive: node.last_active_at,
    status: presentedStatus(node),
    info: parseInfo(node),
    installation_url: installationUrl(config, node),
    image_url: `/api/nodes/${node.id}/image`,
    owner: node.owner,
    created_at: node.created_at,
    team_id: node.team_id,
  };
}

export type PresentedNode = ReturnType<typeof presentNode>;

/** Nodes with their owners' names, in one query. */
export async function withOwners(db: Kysely<Database>, nodes: NodeRecord[]): Promise<NodeWithOwner[]> {
  const ownerIds = [...new Set(nodes.map((node) => node.owner_id).filter((id): id is number => id !== null))];
  const owners = ownerIds.length
    ? await db.selectFrom('users').select(['id', 'firstname', 'lastname']).where('id', 'in', ownerIds).execute()
    : [];
  const names = new Map(owners.map((owner) => [owner.id, `${owner.firstname} ${owner.lastname}`]));
  return nodes.map((node) => ({
    ...node,
    owner: node.owner_id !== null ? { id: node.owner_id, name: names.get(node.owner_id) ?? '' } : null,
  }));
}

export function presentNodeActivity(entry: ActivityEntry) {
  const properties = JSON.parse(entry.properties) as Record<string, unknown> & { severity: Severity };
  return { id: entry.id, created_at: entry.created_at, description: entry.description, properties };
}

/** A cluster Node for the admin pages, with the console node that contributed it, if any. */
export function presentAdminNode(cluster: ClusterNode, node: NodeWithOwner | null, now: Date = new Date()) {
  const addresses = cluster.addresses.map((address) => ({ type: address.type, address: address.address }));
  // Live from the cluster. Disabled ('') = the console's disable on a contributed node; on a
  // node the console did not add (nothing to record it on), being cordoned.
  const disabled = node ? node.disabled_at !== null : cluster.unschedulable;
  const state: PresentedStatus = disabled ? '' : statusFromNode(cluster, now);
  // Nullable, as for nodes not in the cluster yet (presentPendingAdminNode).
  const capacity = (key: string): string | null => cluster.capacity[key] ?? null;
  return {
    name: cluster.name,
    hostname: node?.hostname ?? cluster.addresses.find((address) => address.type === 'Hostname')?.address ?? null,
    type: node?.type ?? typeFromArchitecture(cluster.nodeInfo.architecture),
    owner: node?.owner ?? null,
    node_id: node?.id ?? null,
    status: {
      addesses: addresses,
      addresses,
      capacity: {
        cpu: capacity('cpu'),
        memory: capacity('memory'),
        'ephemeral-storage': capacity('ephemeral-storage'),
        pods: capacity('pods'),
      },
      nodeInfo: {
        architecture: cluster.nodeInfo.architecture,
        operatingSystem: cluster.nodeInfo.operatingSystem,
        osImage: cluster.nodeInfo.osImage,
        kubeletVersion: cluster.nodeInfo.kubeletVersion,
      },
      conditions: cluster.conditions.map((condition) => ({ ...condition })),
      state,
    },
    unschedulable: cluster.unschedulable,
    lastActive: node?.last_active_at ?? null,
  };
}

export type PresentedAdminNode = ReturnType<typeof presentAdminNode>;

/**
 * A node added in the console that is not in the cluster yet ('to install', 'installing'):
 * the admin list shows it too, under its Node name once chosen, else its hostname, else its
 * number, with nothing the cluster would report.
 */
export function presentPendingAdminNode(node: NodeWithOwner): PresentedAdminNode {
  const addresses = [
    ...(node.ipv4 ? [{ type: 'InternalIP', address: node.ipv4 }] : []),
    ...(node.ip_v6 ? [{ type: 'InternalIP', address: node.ip_v6 }] : []),
  ];
  return {
    name: node.name ?? node.hostname ?? `node #${node.id}`,
    hostname: node.hostname,
    type: node.type,
    owner: node.owner,
    node_id: node.id,
    status: {
      addesses: addresses,
      addresses,
      capacity: { cpu: null, memory: null, 'ephemeral-storage': null, pods: null },
      nodeInfo: { architecture: '', operatingSystem: '', osImage: '', kubeletVersion: '' },
      conditions: [],
      state: presentedStatus(node),
    },
    unschedulable: false,
    lastActive: node.last_active_at,
  };
}
