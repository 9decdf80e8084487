import yaml from 'js-yaml';
import { HttpError } from '../http/errors.js';
import { ClusterError, ClusterUnavailable } from './gateway.js';

// How cluster failures reach API clients (docs/api-contract.md, "Cluster"): never a 500.

export const NO_CLUSTER = 'No cluster is connected to this console.';
export const CLUSTER_UNREACHABLE = 'The cluster cannot be reached right now. Try again in a minute.';
export const STILL_SETTING_UP = 'This workspace is still being set up in the cluster. Try again in a minute.';

/** The HttpError for anything a gateway call threw (other errors are rethrown as they are). */
export function clusterHttpError(error: unknown): unknown {
  if (error instanceof ClusterUnavailable) return new HttpError(503, NO_CLUSTER);
  if (error instanceof ClusterError) {
    if (error.kind === 'not-found' || error.kind === 'conflict') return new HttpError(409, STILL_SETTING_UP);
    return new HttpError(503, CLUSTER_UNREACHABLE);
  }
  return error;
}

/** Runs a gateway call, turning its failures into the contract's answers. */
export async function withCluster<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw clusterHttpError(error);
  }
}

/** A kubeconfig (YAML) with one cluster, one token user, one context with the namespace. */
export function kubeconfigYaml(input: { server: string; caPem: string; namespace: string; user: string; token: string }): string {
  const name = input.namespace;
  // js-yaml, not @kubernetes/client-node's dumpYaml (the same js-yaml underneath): the Kubernetes
  // client takes some 70 MB, and is loaded only when a cluster is connected (connect.ts).
  return yaml.dump({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name, cluster: { server: input.server, 'certificate-authority-data': Buffer.from(input.caPem).toString('base64') } }],
    users: [{ name: input.user, user: { token: input.token } }],
    contexts: [{ name, context: { cluster: name, user: input.user, namespace: input.namespace } }],
    'current-context': name,
    preferences: {},
  });
}
