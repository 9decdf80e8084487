import { type ClusterGateway, ClusterUnavailable } from './gateway.js';

/** CLUSTER=none: no cluster information, every action throws ClusterUnavailable. */
export const noneGateway: ClusterGateway = {
  mode: 'none',
  ensureWorkspace: () => Promise.reject(new ClusterUnavailable()),
  ensureMemberAccess: () => Promise.reject(new ClusterUnavailable()),
  revokeMemberAccess: () => Promise.reject(new ClusterUnavailable()),
  issueKubeconfigToken: () => Promise.reject(new ClusterUnavailable()),
  listPods: () => Promise.reject(new ClusterUnavailable()),
  clusterInfo: () => null,
  health: () => Promise.resolve(false),
};
