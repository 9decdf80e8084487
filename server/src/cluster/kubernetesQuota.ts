import type { CoreV1Api } from '@kubernetes/client-node';
import { ClusterError, MANAGED_BY, type QuotaStatus, WORKSPACE_DEFAULTS } from './gateway.js';
import { call, ensureObject, ignoreNotFound, labelledAsManaged, sameQuantities, stringMap } from './kubernetesCalls.js';
import { quotaHard, type WorkspaceQuota } from './quota.js';

// The workspace ResourceQuota on @kubernetes/client-node (kubernetesWorkspace.ts calls these).

/**
 * Creates `testbed-quota`, or brings an existing one to the workspace's values. It is read
 * first and left alone when its limits already match (as quantities: the API server may
 * write "1000m" back as "1"), so the periodic resync does not rewrite every namespace's quota.
 */
export async function ensureWorkspaceQuota(core: CoreV1Api, namespace: string, quota?: WorkspaceQuota): Promise<void> {
  const name = WORKSPACE_DEFAULTS.quotaName;
  const body = {
    metadata: { name, namespace, labels: { ...MANAGED_BY } },
    spec: { hard: quotaHard(quota) },
  };
  await ensureObject({
    read: () => core.readNamespacedResourceQuota({ name, namespace }),
    create: () => core.createNamespacedResourceQuota({ namespace, body }),
    matches: (existing) => labelledAsManaged(existing.metadata) && sameQuantities(existing.spec?.hard, body.spec.hard),
    update: (existing) =>
      core.replaceNamespacedResourceQuota({
        name,
        namespace,
        body: { ...body, metadata: { ...body.metadata, resourceVersion: existing.metadata?.resourceVersion } },
      }),
  });
}

/**
 * The quota of no pods a workspace holds while its team's allocation is used up (`present`), or
 * its absence. Annotated with the reason, for `kubectl describe resourcequota`.
 */
export async function ensureAllocationQuota(core: CoreV1Api, namespace: string, present: boolean): Promise<void> {
  const name = WORKSPACE_DEFAULTS.allocationQuotaName;
  if (!present) {
    // Read first: a resync over a cluster that already matches makes no write request.
    const existing = await call(() => core.readNamespacedResourceQuota({ name, namespace })).catch(ignoreNotFound);
    if (existing) await call(() => core.deleteNamespacedResourceQuota({ name, namespace })).catch(ignoreNotFound);
    return;
  }
  const body = {
    metadata: {
      name,
      namespace,
      labels: { ...MANAGED_BY },
      annotations: { [ALLOCATION_REASON_ANNOTATION]: "The team used all of this month's CPU allocation. New pods are refused until next month or until a platform admin raises the allocation: ask for more on the team's page in the console." },
    },
    spec: { hard: { pods: '0' } },
  };
  await ensureObject({
    read: () => core.readNamespacedResourceQuota({ name, namespace }),
    create: () => core.createNamespacedResourceQuota({ namespace, body }),
    matches: (existing) => labelledAsManaged(existing.metadata) && sameQuantities(existing.spec?.hard, body.spec.hard),
    update: (existing) =>
      core.replaceNamespacedResourceQuota({ name, namespace, body: { ...body, metadata: { ...body.metadata, resourceVersion: existing.metadata?.resourceVersion } } }),
  });
}

export const ALLOCATION_REASON_ANNOTATION = 'testbed.io/reason';

/** `testbed-quota` of a namespace: its limits and the usage the cluster counted (empty where it counts none). */
export async function readWorkspaceQuota(core: CoreV1Api, namespace: string): Promise<QuotaStatus | null> {
  try {
    const quota = await call(() => core.readNamespacedResourceQuota({ name: WORKSPACE_DEFAULTS.quotaName, namespace }));
    return { hard: stringMap(quota.spec?.hard), used: stringMap(quota.status?.used) };
  } catch (error) {
    if (error instanceof ClusterError && error.kind === 'not-found') return null;
    throw error;
  }
}
