import type { ClusterGateway } from '../cluster/gateway.js';
import { addQuantity, formatQuantity, parseQuantity, type Quantity } from '../cluster/sandbox/quantity.js';
import type { Workspace } from '../db/schema.js';
import { workspaceUsage, type WorkspaceUsage } from './usage.js';

// Quotas seen from above one workspace: a team page sums what its workspaces hold and use, the
// home lists the viewer's workspaces near one of their limits. Each workspace's numbers come
// from its ResourceQuota (usage.ts, one read each, given little time); a sum whose parts are
// not all known is not known either (used: null), never a smaller number presented as the total.
// Quantities are added exactly (the Kubernetes quantity arithmetic the sandbox cluster uses) and
// written back the way the API server writes them.

const RESOURCES = ['pods', 'cpu', 'memory', 'storage'] as const;
type ResourceName = (typeof RESOURCES)[number];

/** From this share of a limit on, a workspace is "near its limit" on the home. */
export const NEAR_LIMIT_SHARE = 0.8;

/** How many workspaces' quotas are read at once (each is one cluster call). */
const READS_AT_ONCE = 16;

/** Each workspace's usage, read a few at a time, in the order given. */
export async function workspaceUsages(cluster: ClusterGateway, workspaces: readonly Workspace[]): Promise<WorkspaceUsage[]> {
  const usages: WorkspaceUsage[] = new Array(workspaces.length);
  for (let start = 0; start < workspaces.length; start += READS_AT_ONCE) {
    const slice = workspaces.slice(start, start + READS_AT_ONCE);
    const read = await Promise.all(slice.map((workspace) => workspaceUsage(cluster, workspace)));
    read.forEach((usage, index) => (usages[start + index] = usage));
  }
  return usages;
}

function sum(values: readonly string[]): string {
  let total: Quantity | undefined;
  for (const value of values) {
    const quantity = parseQuantity(value);
    if (quantity) total = addQuantity(total, quantity);
  }
  return total ? formatQuantity(total) : '0';
}

/** The four resources summed over workspaces: `hard` what they hold, `used` what they use (null if any is unknown). */
export function sumUsages(usages: readonly WorkspaceUsage[]): WorkspaceUsage {
  const entry = (name: ResourceName) => {
    const used = usages.map((usage) => usage[name].used);
    return {
      hard: sum(usages.map((usage) => usage[name].hard)),
      used: used.some((value) => value === null) ? null : sum(used as string[]),
    };
  };
  return { pods: entry('pods'), cpu: entry('cpu'), memory: entry('memory'), storage: entry('storage') };
}

/** The share of the limit used, 0 to 1 and more; null when usage is not known or the limit is not a quantity. */
function share(entry: { hard: string; used: string | null }): number | null {
  if (entry.used === null) return null;
  const hard = parseQuantity(entry.hard);
  const used = parseQuantity(entry.used);
  if (!hard || !used) return null;
  if (hard.nanos === 0n) return used.nanos > 0n ? 1 : 0;
  return Number((used.nanos * 1000n) / hard.nanos) / 1000;
}

/** The resources at or above NEAR_LIMIT_SHARE of their limit, fullest first. */
export function resourcesNearLimit(usage: WorkspaceUsage): { resource: ResourceName; hard: string; used: string; share: number }[] {
  return RESOURCES.flatMap((resource) => {
    const value = share(usage[resource]);
    return value !== null && value >= NEAR_LIMIT_SHARE ? [{ resource, hard: usage[resource].hard, used: usage[resource].used!, share: value }] : [];
  }).sort((a, b) => b.share - a.share);
}
