import { readFileSync } from 'node:fs';
import { CoreV1Api, KubeConfig, NetworkingV1Api, RbacAuthorizationV1Api, VersionApi } from '@kubernetes/client-node';
import type { ClusterMode } from '../config/config.js';
import type { ClusterGateway } from './gateway.js';
import { accessCalls } from './kubernetesAccess.js';
import { call } from './kubernetesCalls.js';
import { nodeCalls } from './kubernetesNodes.js';
import { podCalls } from './kubernetesPods.js';
import { workspaceCalls } from './kubernetesWorkspace.js';

// The gateway on @kubernetes/client-node, against whatever API server the KubeConfig names
// (the sandbox's, or a real cluster's from KUBECONFIG / in-cluster). Its parts, by what they
// serve:
//   kubernetesCalls.ts      calls with a timeout, ClusterError, read-compare-write (ensureObject)
//   kubernetesWorkspace.ts  namespace, LimitRange, NetworkPolicy, deletion (+ kubernetesQuota.ts: the ResourceQuota)
//   kubernetesAccess.ts     ClusterRoles, members' ServiceAccounts and RoleBindings, kubeconfig tokens
//   kubernetesPods.ts       pods: list, watch, log follow
//   kubernetesNodes.ts      Nodes, cordoning, bootstrap tokens
// Every ensure is idempotent and writes only what is absent or different, so a resync over a
// cluster that matches the database makes no write requests.

export { call, toClusterError } from './kubernetesCalls.js';
export { apiServerAddress, caCertificateHash, nodeSummary } from './kubernetesNodes.js';

/** A KubeConfig for an API server, its CA (PEM) and a bearer token (the sandbox's admin token). */
export function kubeConfigFor(input: { server: string; caPem: string; token: string }): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'cluster', server: input.server, caData: Buffer.from(input.caPem).toString('base64'), skipTLSVerify: false }],
    users: [{ name: 'console', token: input.token }],
    contexts: [{ name: 'console', cluster: 'cluster', user: 'console' }],
    currentContext: 'console',
  });
  return kc;
}

/** The KubeConfig of CLUSTER=kubernetes: the KUBECONFIG file, else the in-cluster service account. */
export function loadKubeConfig(kubeconfigPath: string | null): KubeConfig {
  const kc = new KubeConfig();
  if (kubeconfigPath) kc.loadFromFile(kubeconfigPath);
  else kc.loadFromCluster();
  return kc;
}

export interface KubernetesGatewayOptions {
  /** The API server address handed out (kubeconfigs, clusterInfo, bootstrap tokens); null = kc's. */
  publicServer?: string | null;
  /** Items per page of the cluster-wide lists (default LIST_PAGE_SIZE, 500). */
  listPageSize?: number;
}

export function kubernetesGateway(kc: KubeConfig, mode: ClusterMode = 'kubernetes', options: KubernetesGatewayOptions = {}): ClusterGateway {
  const core = kc.makeApiClient(CoreV1Api);
  const rbac = kc.makeApiClient(RbacAuthorizationV1Api);
  const networking = kc.makeApiClient(NetworkingV1Api);
  const version = kc.makeApiClient(VersionApi);

  const cluster = kc.getCurrentCluster();
  const info = cluster
    ? {
        // The gateway itself talks to kc's server; others get the public address.
        server: options.publicServer || cluster.server,
        ca: cluster.caData
          ? Buffer.from(cluster.caData, 'base64').toString('utf8')
          : cluster.caFile
            ? readFileSync(cluster.caFile, 'utf8')
            : '',
      }
    : null;

  return {
    mode,
    ...workspaceCalls(core, networking),
    ...accessCalls(core, rbac),
    ...podCalls(kc, core, options.listPageSize),
    ...nodeCalls(kc, core, info),

    clusterInfo: () => info,

    async health() {
      try {
        await call(() => version.getCode());
        return true;
      } catch {
        return false;
      }
    },
  };
}
