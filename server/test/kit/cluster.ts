import { CoreV1Api } from '@kubernetes/client-node';
import type { ClusterGateway } from '../../src/cluster/gateway.js';
import { kubeConfigFor, kubernetesGateway } from '../../src/cluster/kubernetesGateway.js';
import { type SandboxCluster, type SandboxClusterOptions, startSandboxCluster } from '../../src/cluster/sandbox/server.js';
import { freePort } from './utilities.js';

// The sandbox Kubernetes API server over HTTPS on loopback, and the gateway the console talks
// to it through: what CLUSTER=sandbox runs, started and stopped by the test.

export interface TestClusterOptions {
  /** Sandbox timings (pods, logs, node heartbeats): the test's own, else the sandbox's defaults. */
  timings?: SandboxClusterOptions['timings'];
  /** Keep objects and tokens on disk across restarts (the sandbox's default: yes). */
  persist?: boolean;
  /** Told of every authenticated request the sandbox serves. */
  onRequest?: SandboxClusterOptions['onRequest'];
  /**
   * Wraps the gateway the app's routes get, e.g. to slow it down as a cluster across a network
   * is slower than the sandbox on loopback; the reconciler keeps the plain one.
   */
  appGateway?: (gateway: ClusterGateway) => ClusterGateway;
}

export interface TestCluster {
  /** The running sandbox (its store, its simulated kubelets); throws while it is stopped. */
  readonly sandbox: SandboxCluster;
  /** The gateway straight to the sandbox, with its admin token (the reconciler's). */
  gateway: ClusterGateway;
  /** A client of the running sandbox's core API with its admin token, or another bearer token. */
  kube(token?: string): CoreV1Api;
  /** Stops the sandbox, as a cluster outage. */
  stop(): Promise<void>;
  /** Starts the sandbox again on the same port, with the same CA and admin token. */
  start(): Promise<SandboxCluster>;
}

/** The sandbox keeps its CA and admin token under `storageDir`, so a restart keeps them. */
export async function startTestCluster(storageDir: string, options: TestClusterOptions = {}): Promise<TestCluster> {
  const port = await freePort();
  let running: SandboxCluster | null = null;
  const start = async () => {
    running = await startSandboxCluster({
      storageDir,
      host: '127.0.0.1',
      port,
      timings: options.timings,
      persist: options.persist,
      onRequest: options.onRequest,
    });
    return running;
  };
  const first = await start();
  const sandbox = () => {
    if (!running) throw new Error('the sandbox is not running');
    return running;
  };
  return {
    get sandbox() {
      return sandbox();
    },
    gateway: kubernetesGateway(kubeConfigFor({ server: first.url, caPem: first.caPem, token: first.adminToken }), 'sandbox'),
    kube(token) {
      const { url, caPem, adminToken } = sandbox();
      return kubeConfigFor({ server: url, caPem, token: token ?? adminToken }).makeApiClient(CoreV1Api);
    },
    async stop() {
      await running?.close();
      running = null;
    },
    start,
  };
}
