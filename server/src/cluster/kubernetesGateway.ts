import { readFileSync } from 'node:fs';
import { ApiException, CoreV1Api, KubeConfig, NetworkingV1Api, RbacAuthorizationV1Api, VersionApi } from '@kubernetes/client-node';
import type { ClusterMode } from '../config.js';
import {
  type ClusterGateway,
  ClusterError,
  clusterRoleFor,
  IDENTITY_NAMESPACE,
  MANAGED_BY,
  type PodSummary,
  roleBindingName,
  serviceAccountName,
  TEAM_LABEL,
  USER_LABEL,
  WORKSPACE_DEFAULTS,
  WORKSPACE_LABEL,
  type WorkspaceTarget,
} from './gateway.js';

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

async function call<T>(work: () => Promise<T>): Promise<T> {
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
async function ensure<T>(create: () => Promise<unknown>, update?: () => Promise<T>): Promise<void> {
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

export function kubernetesGateway(kc: KubeConfig, mode: ClusterMode = 'kubernetes'): ClusterGateway {
  const core = kc.makeApiClient(CoreV1Api);
  const rbac = kc.makeApiClient(RbacAuthorizationV1Api);
  const networking = kc.makeApiClient(NetworkingV1Api);
  const version = kc.makeApiClient(VersionApi);

  const cluster = kc.getCurrentCluster();
  const info = cluster
    ? {
        server: cluster.server,
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

  return {
    mode,

    async ensureWorkspace({ namespace, teamName, workspaceName }: WorkspaceTarget) {
      const labels = { [TEAM_LABEL]: teamName, [WORKSPACE_LABEL]: workspaceName, ...MANAGED_BY };
      await ensureNamespace(namespace, labels);

      const quota = {
        metadata: { name: WORKSPACE_DEFAULTS.quotaName, namespace, labels: { ...MANAGED_BY } },
        spec: { hard: { ...WORKSPACE_DEFAULTS.quota } },
      };
      await ensure(
        () => core.createNamespacedResourceQuota({ namespace, body: quota }),
        async () => {
          const existing = await core.readNamespacedResourceQuota({ name: quota.metadata.name, namespace });
          await core.replaceNamespacedResourceQuota({
            name: quota.metadata.name,
            namespace,
            body: { ...quota, metadata: { ...quota.metadata, resourceVersion: existing.metadata?.resourceVersion } },
          });
        },
      );

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

    async ensureMemberAccess({ namespace, userId, role }) {
      await ensureNamespace(IDENTITY_NAMESPACE, { ...MANAGED_BY });
      const account = serviceAccountName(userId);
      await ensure(() =>
        core.createNamespacedServiceAccount({
          namespace: IDENTITY_NAMESPACE,
          body: { metadata: { name: account, namespace: IDENTITY_NAMESPACE, labels: { ...MANAGED_BY, [USER_LABEL]: String(userId) } } },
        }),
      );
      const name = roleBindingName(userId);
      const body = {
        metadata: { name, namespace, labels: { ...MANAGED_BY, [USER_LABEL]: String(userId) } },
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

    async revokeMemberAccess({ namespace, userId }) {
      await call(() => rbac.deleteNamespacedRoleBinding({ name: roleBindingName(userId), namespace })).catch(ignoreNotFound);
    },

    async issueKubeconfigToken({ userId, expirationSeconds }) {
      const answer = await call(() =>
        core.createNamespacedServiceAccountToken({
          name: serviceAccountName(userId),
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
      return list.items.map((pod) => ({
        name: pod.metadata?.name ?? '',
        namespace: pod.metadata?.namespace ?? namespace,
        status: {
          phase: pod.status?.phase ?? null,
          podIP: pod.status?.podIP ?? null,
          hostIP: pod.status?.hostIP ?? null,
          startTime: pod.status?.startTime ? new Date(pod.status.startTime).toISOString() : null,
        },
      }));
    },

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
