import type { CoreV1Api, NetworkingV1Api, V1LimitRangeItem, V1LimitRangeSpec } from '@kubernetes/client-node';
import {
  ClusterError,
  type ClusterGateway,
  MANAGED_BY,
  POD_SECURITY_LABELS,
  TEAM_LABEL,
  WORKSPACE_DEFAULTS,
  WORKSPACE_LABEL,
  type WorkspaceTarget,
} from './gateway.js';
import { call, ensureObject, ignoreNotFound, labelledAsManaged, sameJson, sameQuantities } from './kubernetesCalls.js';
import { ensureAllocationQuota, ensureWorkspaceQuota, readWorkspaceQuota } from './kubernetesQuota.js';
import { NO_QUOTA } from './quota.js';

// A workspace in the cluster: its namespace (labelled, with Pod Security), ResourceQuota
// (kubernetesQuota.ts), LimitRange and NetworkPolicy; and deleting it. Each object is read
// first and written only when absent or different (kubernetesCalls.ts, ensureObject).

/** Creates the namespace, or merges the labels in when some differ (other labels are kept). */
export async function ensureNamespace(core: CoreV1Api, name: string, labels: Record<string, string>): Promise<void> {
  await ensureObject({
    read: () => core.readNamespace({ name }),
    create: () => core.createNamespace({ body: { metadata: { name, labels } } }),
    matches: (existing) => Object.entries(labels).every(([key, value]) => existing.metadata?.labels?.[key] === value),
    update: (existing) =>
      core.replaceNamespace({ name, body: { ...existing, metadata: { ...existing.metadata, labels: { ...existing.metadata?.labels, ...labels } } } }),
  });
}

const LIMIT_QUANTITIES = ['_default', 'defaultRequest', 'max', 'min', 'maxLimitRequestRatio'] as const;

/** Same limits, in the same order, quantities compared as quantities. */
export function sameLimitRangeSpec(a: V1LimitRangeSpec | undefined, b: V1LimitRangeSpec): boolean {
  const left: V1LimitRangeItem[] = a?.limits ?? [];
  if (left.length !== b.limits.length) return false;
  return left.every((item, index) => {
    const other = b.limits[index]!;
    return item.type === other.type && LIMIT_QUANTITIES.every((field) => sameQuantities(item[field], other[field]));
  });
}

export function workspaceCalls(core: CoreV1Api, networking: NetworkingV1Api): Pick<ClusterGateway, 'ensureWorkspace' | 'deleteWorkspaceNamespace' | 'readWorkspaceQuota'> {
  return {
    async ensureWorkspace({ namespace, teamName, workspaceName, quota, suspended = false, allocationUsedUp = false }: WorkspaceTarget) {
      // ensureNamespace writes only labels that differ, so the resync puts the Pod Security
      // labels on namespaces made before them, and leaves labelled ones alone.
      const labels = { [TEAM_LABEL]: teamName, [WORKSPACE_LABEL]: workspaceName, ...MANAGED_BY, ...POD_SECURITY_LABELS };
      await ensureNamespace(core, namespace, labels);

      // Suspended: no pod may be admitted (a Deployment cannot bring its pods back) …
      await ensureWorkspaceQuota(core, namespace, suspended ? { ...(quota ?? NO_QUOTA), pods: 0 } : quota);
      // While the team's allocation is used up, a quota whose name says why refuses new pods
      // (without the deletion below); it goes once the allocation comes back.
      await ensureAllocationQuota(core, namespace, allocationUsedUp && !suspended);

      const limits = WORKSPACE_DEFAULTS.limitRange;
      // client-node names `default` `_default` (serialized as `default`).
      const limitRange = {
        metadata: { name: WORKSPACE_DEFAULTS.limitRangeName, namespace, labels: { ...MANAGED_BY } },
        spec: { limits: [{ type: 'Container', _default: { ...limits.default }, defaultRequest: { ...limits.defaultRequest }, max: { ...limits.max } }] },
      };
      await ensureObject({
        read: () => core.readNamespacedLimitRange({ name: limitRange.metadata.name, namespace }),
        create: () => core.createNamespacedLimitRange({ namespace, body: limitRange }),
        matches: (existing) => labelledAsManaged(existing.metadata) && sameLimitRangeSpec(existing.spec, limitRange.spec),
        update: (existing) =>
          core.replaceNamespacedLimitRange({
            name: limitRange.metadata.name,
            namespace,
            body: { ...limitRange, metadata: { ...limitRange.metadata, resourceVersion: existing.metadata?.resourceVersion } },
          }),
      });

      // Ingress only from pods of the same namespace (an empty podSelector in `from`;
      // client-node names the field `_from` and serializes it as `from`).
      const policy = {
        metadata: { name: WORKSPACE_DEFAULTS.networkPolicyName, namespace, labels: { ...MANAGED_BY } },
        spec: { podSelector: {}, policyTypes: ['Ingress'], ingress: [{ _from: [{ podSelector: {} }] }] },
      };
      await ensureObject({
        read: () => networking.readNamespacedNetworkPolicy({ name: policy.metadata.name, namespace }),
        create: () => networking.createNamespacedNetworkPolicy({ namespace, body: policy }),
        // The typed answer has the same shape as the body (`_from`), with undefined members: compared as JSON.
        matches: (existing) => labelledAsManaged(existing.metadata) && sameJson(existing.spec, policy.spec),
        update: (existing) =>
          networking.replaceNamespacedNetworkPolicy({
            name: policy.metadata.name,
            namespace,
            body: { ...policy, metadata: { ...policy.metadata, resourceVersion: existing.metadata?.resourceVersion } },
          }),
      });

      // … and those running go. Volumes, config, services and the rest stay for a renewal.
      // One by one rather than a delete-collection, which not every API server in use allows.
      if (suspended) {
        const pods = await call(() => core.listNamespacedPod({ namespace }));
        for (const pod of pods.items) {
          const name = pod.metadata?.name;
          if (name) await call(() => core.deleteNamespacedPod({ name, namespace })).catch(ignoreNotFound);
        }
      }
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

    readWorkspaceQuota: (namespace) => readWorkspaceQuota(core, namespace),
  };
}
