import { type ClusterGateway, ClusterUnavailable } from './gateway.js';

/** CLUSTER=none: no cluster information, every action throws ClusterUnavailable. */
export const noneGateway: ClusterGateway = {
  mode: 'none',
  ensureWorkspace: () => Promise.reject(new ClusterUnavailable()),
  ensureClusterRoles: () => Promise.reject(new ClusterUnavailable()),
  ensureMemberAccess: () => Promise.reject(new ClusterUnavailable()),
  revokeMemberAccess: () => Promise.reject(new ClusterUnavailable()),
  deleteWorkspaceNamespace: () => Promise.reject(new ClusterUnavailable()),
  listMemberAccess: () => Promise.reject(new ClusterUnavailable()),
  deleteMemberAccessObject: () => Promise.reject(new ClusterUnavailable()),
  issueKubeconfigToken: () => Promise.reject(new ClusterUnavailable()),
  listPods: () => Promise.reject(new ClusterUnavailable()),
  listWorkspacePods: () => Promise.reject(new ClusterUnavailable()),
  watchPods: () => Promise.reject(new ClusterUnavailable()),
  streamPodLogs: () => Promise.reject(new ClusterUnavailable()),
  readWorkspaceQuota: () => Promise.reject(new ClusterUnavailable()),
  clusterInfo: () => null,
  health: () => Promise.resolve(false),
  // Nodes (docs/nodes-contract.md)
  listNodes: () => Promise.reject(new ClusterUnavailable()),
  readNode: () => Promise.reject(new ClusterUnavailable()),
  watchNodes: () => Promise.reject(new ClusterUnavailable()),
  createBootstrapToken: () => Promise.reject(new ClusterUnavailable()),
  setNodeUnschedulable: () => Promise.reject(new ClusterUnavailable()),
};
