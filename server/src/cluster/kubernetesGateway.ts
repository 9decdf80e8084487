import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { ApiException, CoreV1Api, KubeConfig, Log, NetworkingV1Api, RbacAuthorizationV1Api, VersionApi, Watch, type V1Pod } from '@kubernetes/client-node';
import type { ClusterMode } from '../config.js';
import { ensureWorkspaceQuota, readWorkspaceQuota } from './kubernetesQuota.js';
import type { WorkspaceRole } from '../db/schema.js';
import {
  type ClusterGateway,
  ClusterError,
  clusterRoleFor,
  IDENTITY_NAMESPACE,
  MANAGED_BY,
  POD_SECURITY_LABELS,
  type PodLogHandlers,
  type PodSummary,
  type PodWatchHandlers,
  type Stoppable,
  type WatchEventType,
  roleBindingName,
  serviceAccountName,
  TEAM_LABEL,
  USER_LABEL,
  WORKSPACE_CLUSTER_ROLES,
  WORKSPACE_DEFAULTS,
  WORKSPACE_ID_LABEL,
  WORKSPACE_LABEL,
  type WorkspaceTarget,
} from './gateway.js';
// Nodes (issue 5)
import { createHash, randomInt, X509Certificate } from 'node:crypto';
import { PatchStrategy, setHeaderOptions, type V1Node } from '@kubernetes/client-node';
import { BOOTSTRAP_TOKEN_GROUP, type BootstrapToken, type ClusterNode, type NodeWatchHandlers } from './gateway.js';

// The gateway on @kubernetes/client-node, against whatever API server the KubeConfig names
// (the sandbox's, or a real cluster's from KUBECONFIG / in-cluster). Every call is
// idempotent: "already exists" is success, and labels/specs are brought back to the defaults.

/** A call that takes longer than this counts as the cluster being unreachable. */
const CALL_TIMEOUT_MS = 10_000;

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

/** Maps anything a client call throws to a ClusterError. */
export function toClusterError(error: unknown): ClusterError {
  if (error instanceof ClusterError) return error;
  if (error instanceof ApiException) {
    const code = error.code;
    const message = statusMessage(error.body) ?? `The cluster answered ${code}.`;
    if (code === 401 || code === 403) return new ClusterError('forbidden', message, code);
    if (code === 404) return new ClusterError('not-found', message, code);
    if (code === 409) return new ClusterError('conflict', message, code);
    if (code === 400 || code === 422) return new ClusterError('invalid', message, code);
    return new ClusterError('unreachable', message, code);
  }
  return new ClusterError('unreachable', (error as Error | undefined)?.message ?? 'The cluster cannot be reached.');
}

function statusMessage(body: unknown): string | undefined {
  try {
    const parsed = typeof body === 'string' ? (JSON.parse(body) as unknown) : body;
    const message = (parsed as { message?: unknown } | null)?.message;
    return typeof message === 'string' ? message : undefined;
  } catch {
    return typeof body === 'string' && body ? body : undefined;
  }
}

export async function call<T>(work: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ClusterError('unreachable', 'The cluster did not answer in time.')), CALL_TIMEOUT_MS);
  });
  try {
    return await Promise.race([work(), timeout]);
  } catch (error) {
    throw toClusterError(error);
  } finally {
    clearTimeout(timer);
  }
}

/** Creates; when it exists already, `update` (if given) brings the existing object in line. */
export async function ensure<T>(create: () => Promise<unknown>, update?: () => Promise<T>): Promise<void> {
  try {
    await call(create);
  } catch (error) {
    if (!(error instanceof ClusterError) || error.kind !== 'conflict') throw error;
    if (update) await call(update);
  }
}

const ignoreNotFound = (error: unknown) => {
  if (error instanceof ClusterError && error.kind === 'not-found') return;
  throw error;
};

const WATCH_TYPES = new Set(['ADDED', 'MODIFIED', 'DELETED']);
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function podSummary(pod: V1Pod, namespace: string): PodSummary {
  return {
    name: pod.metadata?.name ?? '',
    namespace: pod.metadata?.namespace ?? namespace,
    status: {
      phase: pod.status?.phase ?? null,
      podIP: pod.status?.podIP ?? null,
      hostIP: pod.status?.hostIP ?? null,
      startTime: pod.status?.startTime ? new Date(pod.status.startTime).toISOString() : null,
    },
  };
}

export interface KubernetesGatewayOptions {
  /** The API server address handed out (kubeconfigs, clusterInfo, bootstrap tokens); null = kc's. */
  publicServer?: string | null;
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

  const ensureNamespace = async (name: string, labels: Record<string, string>) => {
    const body = { metadata: { name, labels } };
    await ensure(
      () => core.createNamespace({ body }),
      async () => {
        const existing = await core.readNamespace({ name });
        const current = existing.metadata?.labels ?? {};
        if (Object.entries(labels).every(([key, value]) => current[key] === value)) return;
        existing.metadata = { ...existing.metadata, labels: { ...current, ...labels } };
        await core.replaceNamespace({ name, body: existing });
      },
    );
  };

  // Bindings need these; callers ensure them before binding (once per reconciler pass, and
  // before an on-demand binding), since an API server may lose them (a restarted sandbox).
  const ensureClusterRoles = async () => {
    for (const [role, rules] of Object.entries(WORKSPACE_CLUSTER_ROLES) as [WorkspaceRole, (typeof WORKSPACE_CLUSTER_ROLES)['member']][]) {
      const name = clusterRoleFor(role);
      const body = { metadata: { name, labels: { ...MANAGED_BY } }, rules };
      await ensure(
        () => rbac.createClusterRole({ body }),
        async () => {
          const existing = await rbac.readClusterRole({ name });
          if (JSON.stringify(existing.rules ?? []) === JSON.stringify(rules)) return;
          await rbac.replaceClusterRole({ name, body: { ...body, metadata: { ...body.metadata, resourceVersion: existing.metadata?.resourceVersion } } });
        },
      );
    }
  };

  return {
    mode,

    async ensureWorkspace({ namespace, teamName, workspaceName, quota }: WorkspaceTarget) {
      // ensureNamespace writes only labels that differ, so the resync puts the Pod Security
      // labels on namespaces made before them, and leaves labelled ones alone.
      const labels = { [TEAM_LABEL]: teamName, [WORKSPACE_LABEL]: workspaceName, ...MANAGED_BY, ...POD_SECURITY_LABELS };
      await ensureNamespace(namespace, labels);

      await ensureWorkspaceQuota(core, namespace, quota);

      const limits = WORKSPACE_DEFAULTS.limitRange;
      // client-node names `default` `_default` (serialized as `default`).
      const limitRange = {
        metadata: { name: WORKSPACE_DEFAULTS.limitRangeName, namespace, labels: { ...MANAGED_BY } },
        spec: { limits: [{ type: 'Container', _default: { ...limits.default }, defaultRequest: { ...limits.defaultRequest }, max: { ...limits.max } }] },
      };
      await ensure(
        () => core.createNamespacedLimitRange({ namespace, body: limitRange }),
        async () => {
          const existing = await core.readNamespacedLimitRange({ name: limitRange.metadata.name, namespace });
          await core.replaceNamespacedLimitRange({
            name: limitRange.metadata.name,
            namespace,
            body: { ...limitRange, metadata: { ...limitRange.metadata, resourceVersion: existing.metadata?.resourceVersion } },
          });
        },
      );

      // Ingress only from pods of the same namespace (an empty podSelector in `from`;
      // client-node names the field `_from` and serializes it as `from`).
      const policy = {
        metadata: { name: WORKSPACE_DEFAULTS.networkPolicyName, namespace, labels: { ...MANAGED_BY } },
        spec: { podSelector: {}, policyTypes: ['Ingress'], ingress: [{ _from: [{ podSelector: {} }] }] },
      };
      await ensure(
        () => networking.createNamespacedNetworkPolicy({ namespace, body: policy }),
        async () => {
          const existing = await networking.readNamespacedNetworkPolicy({ name: policy.metadata.name, namespace });
          await networking.replaceNamespacedNetworkPolicy({
            name: policy.metadata.name,
            namespace,
            body: { ...policy, metadata: { ...policy.metadata, resourceVersion: existing.metadata?.resourceVersion } },
          });
        },
      );
    },

    ensureClusterRoles,

    async ensureMemberAccess({ namespace, workspaceId, userId, role }) {
      await ensureNamespace(IDENTITY_NAMESPACE, { ...MANAGED_BY });
      const account = serviceAccountName(userId, workspaceId);
      const labels = { ...MANAGED_BY, [USER_LABEL]: String(userId), [WORKSPACE_ID_LABEL]: String(workspaceId) };
      await ensure(() =>
        core.createNamespacedServiceAccount({
          namespace: IDENTITY_NAMESPACE,
          body: { metadata: { name: account, namespace: IDENTITY_NAMESPACE, labels } },
        }),
      );
      const name = roleBindingName(userId);
      const body = {
        metadata: { name, namespace, labels },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: clusterRoleFor(role) },
        subjects: [{ kind: 'ServiceAccount', name: account, namespace: IDENTITY_NAMESPACE }],
      };
      await ensure(
        () => rbac.createNamespacedRoleBinding({ namespace, body }),
        async () => {
          // roleRef cannot change in place: a binding to another role is replaced.
          const existing = await rbac.readNamespacedRoleBinding({ name, namespace });
          const sameRole = existing.roleRef.name === body.roleRef.name && existing.roleRef.kind === body.roleRef.kind;
          const sameSubjects = JSON.stringify(existing.subjects ?? []) === JSON.stringify(body.subjects);
          if (sameRole && sameSubjects) return;
          await rbac.deleteNamespacedRoleBinding({ name, namespace });
          await rbac.createNamespacedRoleBinding({ namespace, body });
        },
      );
    },

    async revokeMemberAccess({ namespace, workspaceId, userId }) {
      await call(() => rbac.deleteNamespacedRoleBinding({ name: roleBindingName(userId), namespace })).catch(ignoreNotFound);
      // Deleting the account voids the tokens issued for it: downloaded kubeconfigs stop working.
      await call(() =>
        core.deleteNamespacedServiceAccount({ name: serviceAccountName(userId, workspaceId), namespace: IDENTITY_NAMESPACE }),
      ).catch(ignoreNotFound);
    },

    async deleteWorkspaceNamespace(namespace: string) {
      // Only namespaces the console made: a workspace row naming a namespace somebody else
      // created (by hand, before the console) must not take it down with it.
      const existing = await call(() => core.readNamespace({ name: namespace })).catch(ignoreNotFound);
      if (!existing) return;
      if (existing.metadata?.labels?.['app.kubernetes.io/managed-by'] !== MANAGED_BY['app.kubernetes.io/managed-by']) {
        throw new ClusterError('invalid', `The namespace ${namespace} is not managed by the console; it was left in place.`);
      }
      await call(() => core.deleteNamespace({ name: namespace })).catch(ignoreNotFound);
    },

    async issueKubeconfigToken({ userId, workspaceId, expirationSeconds }) {
      const answer = await call(() =>
        core.createNamespacedServiceAccountToken({
          name: serviceAccountName(userId, workspaceId),
          namespace: IDENTITY_NAMESPACE,
          body: { spec: { audiences: [], expirationSeconds } },
        }),
      );
      const token = answer.status?.token;
      if (!token) throw new ClusterError('invalid', 'The cluster issued no token.');
      const expires = answer.status?.expirationTimestamp;
      return {
        token,
        expiresAt: expires ? new Date(expires).toISOString() : new Date(Date.now() + expirationSeconds * 1000).toISOString(),
      };
    },

    async listPods(namespace): Promise<PodSummary[]> {
      const list = await call(() => core.listNamespacedPod({ namespace }));
      return list.items.map((pod) => podSummary(pod, namespace));
    },

    async watchPods(namespace, handlers: PodWatchHandlers): Promise<Stoppable> {
      let stopped = false;
      const controller = await call(() =>
        new Watch(kc).watch(
          `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods`,
          {},
          (type: string, pod: V1Pod) => {
            if (stopped || !WATCH_TYPES.has(type)) return;
            handlers.onChange(type as WatchEventType, podSummary(pod, namespace));
          },
          (error: unknown) => {
            if (stopped) return;
            stopped = true;
            handlers.onEnd(error ? toClusterError(error) : undefined);
          },
        ),
      );
      return {
        stop() {
          stopped = true;
          controller.abort();
        },
      };
    },

    async streamPodLogs({ namespace, pod, tailLines }, handlers: PodLogHandlers): Promise<Stoppable> {
      // The console shows one container's log: the first one, as `kubectl logs` does by default.
      const found = await call(() => core.readNamespacedPod({ name: pod, namespace }));
      const container = found.spec?.containers[0]?.name ?? '';
      let stopped = false;
      let ended = false;
      const end = (error?: ClusterError) => {
        if (stopped || ended) return;
        ended = true;
        handlers.onEnd(error);
      };
      // Asked with timestamps=true: each line starts with its RFC 3339 time and a space.
      const emit = (raw: string) => {
        const line = raw.replace(/\r$/, '');
        const space = line.indexOf(' ');
        const time = space > 0 ? line.slice(0, space) : '';
        if (TIMESTAMP.test(time)) handlers.onLine(line.slice(space + 1), time);
        else handlers.onLine(line, null);
      };
      let partial = '';
      const sink = new Writable({
        write(chunk: Buffer, _encoding, done) {
          const text = partial + chunk.toString('utf8');
          const lines = text.split('\n');
          partial = lines.pop() ?? '';
          if (!stopped) for (const line of lines) emit(line);
          done();
        },
        final(done) {
          if (partial && !stopped) emit(partial);
          partial = '';
          done();
          end();
        },
      });
      sink.on('error', (error) => end(toClusterError(error)));
      // pipe() does not pass the response's errors on: listen to the response itself, so a
      // dropped connection ends the stream too.
      sink.on('pipe', (response: NodeJS.ReadableStream) => {
        response.on('error', (error: Error) => end(toClusterError(error)));
        response.on('close', () => setImmediate(() => end()));
      });
      const controller = await call(() => new Log(kc).log(namespace, pod, container, sink, { follow: true, tailLines, timestamps: true }));
      return {
        stop() {
          stopped = true;
          controller.abort();
          sink.destroy();
        },
      };
    },

    readWorkspaceQuota: (namespace) => readWorkspaceQuota(core, namespace),

    clusterInfo: () => info,

    async health() {
      try {
        await call(() => version.getCode());
        return true;
      } catch {
        return false;
      }
    },

    // Nodes (issue 5)
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

// ---------------------------------------------------------------------------------------
// Nodes (issue 5)

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
