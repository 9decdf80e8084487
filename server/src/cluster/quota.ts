import { WORKSPACE_DEFAULTS } from './gateway.js';

// A workspace's ResourceQuota: platform admins set four values per workspace; each
// one left unset (null) keeps the default of WORKSPACE_DEFAULTS.quota, so a workspace nobody
// touched gets exactly the defaults, and changing the defaults still reaches it.
//
// What the four values mean in the ResourceQuota's `spec.hard`:
//   cpu     → requests.cpu, and limits.cpu at twice that (the defaults' ratio: bursts allowed)
//   memory  → requests.memory, and limits.memory at twice that
//   pods    → pods
//   storage → requests.storage
// services and persistentvolumeclaims keep their defaults.

/** What an admin may set; null = the default. Quantities as Kubernetes writes them. */
export interface WorkspaceQuota {
  cpu: string | null;
  memory: string | null;
  pods: number | null;
  storage: string | null;
}

/** The four values every workspace gets unless set (from WORKSPACE_DEFAULTS.quota). */
export const QUOTA_DEFAULTS = {
  cpu: WORKSPACE_DEFAULTS.quota['requests.cpu'],
  memory: WORKSPACE_DEFAULTS.quota['requests.memory'],
  pods: Number(WORKSPACE_DEFAULTS.quota.pods),
  storage: WORKSPACE_DEFAULTS.quota['requests.storage'],
} as const;

export const NO_QUOTA: WorkspaceQuota = { cpu: null, memory: null, pods: null, storage: null };

/** The values in force: the workspace's own, else the defaults. */
export function effectiveQuota(quota: WorkspaceQuota): { cpu: string; memory: string; pods: number; storage: string } {
  return {
    cpu: quota.cpu ?? QUOTA_DEFAULTS.cpu,
    memory: quota.memory ?? QUOTA_DEFAULTS.memory,
    pods: quota.pods ?? QUOTA_DEFAULTS.pods,
    storage: quota.storage ?? QUOTA_DEFAULTS.storage,
  };
}

const QUANTITY = /^(\d+(?:\.\d+)?)(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$/;
const MULTIPLIERS: Record<string, number> = {
  '': 1,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

/**
 * The value of a Kubernetes quantity (cores, bytes, a count), or NaN when it is not one of
 * the forms the console writes. Used to compare: the API server may write a quantity back in
 * another form ("1000m" as "1"), which is the same quota.
 */
export function quantityValue(quantity: string): number {
  const match = QUANTITY.exec(quantity);
  if (!match) return Number.NaN;
  return Number(match[1]) * MULTIPLIERS[match[2] ?? '']!;
}

/** Twice a quantity, in the same unit: "8" → "16", "500m" → "1000m", "1.5Gi" → "3Gi". */
export function doubleQuantity(quantity: string): string {
  const match = QUANTITY.exec(quantity);
  if (!match) return quantity;
  return `${Number((Number(match[1]) * 2).toFixed(3))}${match[2] ?? ''}`;
}

/** The ResourceQuota's `spec.hard` for a workspace's quota. */
export function quotaHard(quota: WorkspaceQuota = NO_QUOTA): Record<string, string> {
  const hard: Record<string, string> = { ...WORKSPACE_DEFAULTS.quota };
  if (quota.cpu !== null) {
    hard['requests.cpu'] = quota.cpu;
    hard['limits.cpu'] = doubleQuantity(quota.cpu);
  }
  if (quota.memory !== null) {
    hard['requests.memory'] = quota.memory;
    hard['limits.memory'] = doubleQuantity(quota.memory);
  }
  if (quota.pods !== null) hard.pods = String(quota.pods);
  if (quota.storage !== null) hard['requests.storage'] = quota.storage;
  return hard;
}

/** Whether two `spec.hard` maps are the same quota (same resources, equal quantities). */
export function sameHard(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => b[key] !== undefined && (a[key] === b[key] || quantityValue(a[key]!) === quantityValue(b[key]!)));
}
