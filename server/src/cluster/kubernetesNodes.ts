import { createHash, randomInt, X509Certificate } from 'node:crypto';
import { type CoreV1Api, type KubeConfig, PatchStrategy, setHeaderOptions, type V1Node, Watch } from '@kubernetes/client-node';
import {
  BOOTSTRAP_TOKEN_GROUP,
  type BootstrapToken,
  ClusterError,
  type ClusterGateway,
  type ClusterNode,
  MANAGED_BY,
  type NodeWatchHandlers,
  type Stoppable,
  type WatchEventType,
} from './gateway.js';
import { call, toClusterError } from './kubernetesCalls.js';

// Nodes (docs/nodes-contract.md): the cluster's Nodes (list, read, watch), cordoning, and the bootstrap
// tokens machines join with.

const WATCH_TYPES = new Set(['ADDED', 'MODIFIED', 'DELETED']);

export function nodeCalls(
  kc: KubeConfig,
  core: CoreV1Api,
  info: { server: string; ca: string } | null,
): Pick<ClusterGateway, 'listNodes' | 'readNode' | 'watchNodes' | 'createBootstrapToken' | 'setNodeUnschedulable'> {
  return {
    async listNodes(): Promise<ClusterNode[]> {
      const list = await call(() => core.listNode());
      return list.items.map(nodeSummary);
    },

    async readNode(name): Promise<ClusterNode | null> {
      try {
        return nodeSummary(await call(() => core.readNode({ name })));
      } catch (error) {
        if (error instanceof ClusterError && error.kind === 'not-found') return null;
        throw error;
      }
    },

    async watchNodes(handlers: NodeWatchHandlers): Promise<Stoppable> {
      let stopped = false;
      const end = (error?: ClusterError) => {
        if (stopped) return;
        stopped = true;
        handlers.onEnd(error);
      };
      const controller = await call(() =>
        new Watch(kc).watch(
          '/api/v1/nodes',
          // The server ends the watch after this long; the caller re-lists and watches again.
          { timeoutSeconds: 600 },
          (type: string, object: unknown) => {
            if (stopped) return;
            if (type === 'ERROR') {
              // e.g. 410 Expired: the watch is over; the caller starts afresh.
              const status = object as { code?: number; message?: string } | undefined;
              end(new ClusterError('unreachable', status?.message ?? 'The node watch failed.', status?.code));
              return;
            }
            if (WATCH_TYPES.has(type)) handlers.onChange(type as WatchEventType, nodeSummary(object as V1Node));
          },
          (error: unknown) => end(error ? toClusterError(error) : undefined),
        ),
      );
      return {
        stop() {
          stopped = true;
          controller.abort();
        },
      };
    },

    async createBootstrapToken({ ttlSeconds, description }): Promise<BootstrapToken> {
      if (!info?.server) throw new ClusterError('invalid', 'The API server address of the cluster is not known.');
      if (!info.ca) throw new ClusterError('invalid', 'The CA certificate of the cluster is not known.');
      const caCertHash = caCertificateHash(info.ca);
      const apiServer = apiServerAddress(info.server);
      const tokenId = randomTokenPart(6);
      const tokenSecret = randomTokenPart(16);
      const expiresAt = new Date(Date.now() + ttlSeconds * 1000);
      // Exactly what `kubeadm token create` stores (k8s.io/cluster-bootstrap/token/api).
      await call(() =>
        core.createNamespacedSecret({
          namespace: 'kube-system',
          body: {
            metadata: { name: `bootstrap-token-${tokenId}`, namespace: 'kube-system', labels: { ...MANAGED_BY } },
            type: 'bootstrap.kubernetes.io/token',
            stringData: {
              description,
              'token-id': tokenId,
              'token-secret': tokenSecret,
              expiration: rfc3339(expiresAt),
              'usage-bootstrap-authentication': 'true',
              'usage-bootstrap-signing': 'true',
              'auth-extra-groups': BOOTSTRAP_TOKEN_GROUP,
            },
          },
        }),
      );
      return { token: `${tokenId}.${tokenSecret}`, caCertHash, apiServer, expiresAt: expiresAt.toISOString() };
    },

    async setNodeUnschedulable(name, unschedulable): Promise<ClusterNode> {
      // As kubectl cordon/uncordon: uncordoning removes the field.
      const patched = await call(() =>
        core.patchNode({ name, body: { spec: { unschedulable: unschedulable ? true : null } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch)),
      );
      return nodeSummary(patched);
    },
  };
}

const iso = (value: Date | string | undefined | null): string | null => {
  if (!value) return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
};

/** A Node from a typed answer (dates as Date) or a watch event (dates as strings). */
export function nodeSummary(node: V1Node): ClusterNode {
  const info = node.status?.nodeInfo;
  return {
    name: node.metadata?.name ?? '',
    labels: { ...node.metadata?.labels },
    unschedulable: node.spec?.unschedulable === true,
    createdAt: iso(node.metadata?.creationTimestamp),
    addresses: (node.status?.addresses ?? []).map((address) => ({ type: address.type, address: address.address })),
    capacity: Object.fromEntries(Object.entries(node.status?.capacity ?? {}).map(([key, value]) => [key, String(value)])),
    nodeInfo: {
      architecture: info?.architecture ?? '',
      operatingSystem: info?.operatingSystem ?? '',
      osImage: info?.osImage ?? '',
      kubeletVersion: info?.kubeletVersion ?? '',
      kernelVersion: info?.kernelVersion ?? '',
      containerRuntimeVersion: info?.containerRuntimeVersion ?? '',
    },
    conditions: (node.status?.conditions ?? []).map((condition) => ({
      type: condition.type,
      status: condition.status,
      reason: condition.reason ?? null,
      message: condition.message ?? null,
      lastHeartbeatTime: iso(condition.lastHeartbeatTime as Date | string | undefined),
    })),
  };
}

const TOKEN_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
/** Uniformly random [a-z0-9]{length} (randomInt has no modulo bias). */
const randomTokenPart = (length: number) => Array.from({ length }, () => TOKEN_ALPHABET[randomInt(TOKEN_ALPHABET.length)]).join('');

/** RFC 3339 without fractions, as kubeadm writes `expiration`. */
const rfc3339 = (date: Date) => date.toISOString().replace(/\.\d+Z$/, 'Z');

/** kubeadm's --discovery-token-ca-cert-hash: sha256 of the CA's SubjectPublicKeyInfo (DER), hex. */
export function caCertificateHash(caPem: string): string {
  const spki = new X509Certificate(caPem).publicKey.export({ type: 'spki', format: 'der' });
  return `sha256:${createHash('sha256').update(spki).digest('hex')}`;
}

/** host:port of the API server URL (kubeadm join's first argument); 443 when the URL has no port. */
export function apiServerAddress(server: string): string {
  const url = new URL(server);
  return `${url.hostname}:${url.port || '443'}`;
}
