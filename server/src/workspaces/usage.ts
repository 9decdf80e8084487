import { z } from 'zod';
import type { ClusterGateway, QuotaStatus } from '../cluster/gateway.js';
import { effectiveQuota } from '../cluster/quota.js';
import type { Workspace } from '../db/schema.js';
import { workspaceQuotaOf } from './quota.js';

// What a workspace uses of its quota, as the workspace page shows it (docs/api-contract.md,
// "Workspace"): for pods, CPU, memory and storage, the limit and what the cluster counts in the
// ResourceQuota's status.used. One read of the namespace's quota per answer; the page must
// open quickly whether or not the cluster answers, so the read is given little time and any
// failure is "not known now" (used: null), never an error and never a zero that is not true.

/** How long a page view waits for the cluster before answering without usage. */
export const USAGE_READ_MS = 2000;

const resourceUsage = z.object({
  /** The limit, as a Kubernetes quantity ("50", "8", "16Gi"): the cluster's when it answered, else the one the console gives it. */
  hard: z.string(),
  /** What the cluster counts against it ("3", "300m", "384Mi"); null when it cannot be read now. */
  used: z.string().nullable(),
});

export const workspaceUsageSchema = z.object({ pods: resourceUsage, cpu: resourceUsage, memory: resourceUsage, storage: resourceUsage });
export type WorkspaceUsage = z.infer<typeof workspaceUsageSchema>;

/** The ResourceQuota key each of the four values stands for (cluster/quota.ts, quotaHard). */
const QUOTA_KEYS = { pods: 'pods', cpu: 'requests.cpu', memory: 'requests.memory', storage: 'requests.storage' } as const;

/** The workspace ResourceQuota, or null when there is no cluster, it is not set up, or it does not answer in time. */
async function readQuota(cluster: ClusterGateway, workspace: Workspace): Promise<QuotaStatus | null> {
  if (workspace.cluster_state === 'error' || cluster.clusterInfo() === null) return null;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), USAGE_READ_MS);
  });
  try {
    return await Promise.race([cluster.readWorkspaceQuota(workspace.namespace).catch(() => null), late]);
  } finally {
    clearTimeout(timer);
  }
}

export async function workspaceUsage(cluster: ClusterGateway, workspace: Workspace): Promise<WorkspaceUsage> {
  const values = effectiveQuota(workspaceQuotaOf(workspace));
  const wanted = { pods: String(values.pods), cpu: values.cpu, memory: values.memory, storage: values.storage };
  const quota = await readQuota(cluster, workspace);
  const entry = (name: keyof typeof QUOTA_KEYS) => ({
    hard: quota?.hard[QUOTA_KEYS[name]] ?? wanted[name],
    used: quota?.used[QUOTA_KEYS[name]] ?? null,
  });
  return { pods: entry('pods'), cpu: entry('cpu'), memory: entry('memory'), storage: entry('storage') };
}
