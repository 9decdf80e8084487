import { join } from 'node:path';
import type { Config } from '../config/config.js';
import type { ClusterGateway } from './gateway.js';
import { noneGateway } from './noneGateway.js';

export interface ConnectedCluster {
  gateway: ClusterGateway;
  /** What to log at start. */
  description: string;
  close(): Promise<void>;
}

/**
 * The gateway for CLUSTER: `sandbox` starts the sandbox API server in this process (state
 * under STORAGE_DIR, loopback, port SANDBOX_CLUSTER_PORT or any free one); `kubernetes`
 * loads KUBECONFIG, or the in-cluster service account without it; `none` has no cluster.
 */
export async function connectCluster(config: Config): Promise<ConnectedCluster> {
  const options = { publicServer: config.clusterServerUrl };
  // Loaded only for a cluster: @kubernetes/client-node alone adds some 70 MB to the process
  // (the server build splits these modules into chunks of their own, scripts/build-server.mjs).
  const { kubeConfigFor, kubernetesGateway, loadKubeConfig } =
    config.cluster === 'none' ? ({} as typeof import('./kubernetesGateway.js')) : await import('./kubernetesGateway.js');
  switch (config.cluster) {
    case 'none':
      return { gateway: noneGateway, description: 'CLUSTER=none: no cluster is connected.', close: async () => {} };
    case 'kubernetes': {
      const kc = loadKubeConfig(config.kubeconfig);
      const gateway = kubernetesGateway(kc, 'kubernetes', options);
      return {
        gateway,
        description: `CLUSTER=kubernetes: ${gateway.clusterInfo()?.server ?? 'in-cluster'} (${config.kubeconfig ?? 'in-cluster service account'})`,
        close: async () => {},
      };
    }
    case 'sandbox': {
      const { startSandboxCluster } = await import('./sandbox/server.js');
      const sandbox = await startSandboxCluster({ storageDir: config.storageDir, host: '127.0.0.1', port: config.sandboxClusterPort });
      const kc = kubeConfigFor({ server: sandbox.url, caPem: sandbox.caPem, token: sandbox.adminToken });
      const gateway = kubernetesGateway(kc, 'sandbox', options);
      return {
        gateway,
        description: `CLUSTER=sandbox: sandbox Kubernetes API at ${sandbox.url} (state in ${join(config.storageDir, 'sandbox-cluster')})`,
        close: () => sandbox.close(),
      };
    }
  }
}
