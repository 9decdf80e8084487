import { ApiException } from '@kubernetes/client-node';
import { ClusterError, MANAGED_BY } from './gateway.js';
import { sameHard } from './quota.js';

// What every part of the Kubernetes gateway shares: calls with a timeout, errors as
// ClusterError, and "ensure" = read, then create only what is absent and replace only what
// differs. A resync over objects that already match therefore makes GET requests only, so
// several replicas (or a leader that just took over) never rewrite what is already right.

/** A call that takes longer than this counts as the cluster being unreachable. */
const CALL_TIMEOUT_MS = 10_000;

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

/** One client call (or a short sequence), bounded by CALL_TIMEOUT_MS, failures as ClusterError. */
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

export const ignoreNotFound = (error: unknown): undefined => {
  if (error instanceof ClusterError && error.kind === 'not-found') return undefined;
  throw error;
};

export interface EnsureSteps<T> {
  /** Reads the object (404 = absent). */
  read: () => Promise<T>;
  /** Creates it, when absent. */
  create: () => Promise<unknown>;
  /** Whether an existing object is already as wanted. Without it (and `update`), any existing one is. */
  matches?: (existing: T) => boolean;
  /** Brings an existing object that does not match in line. */
  update?: (existing: T) => Promise<unknown>;
}

/**
 * Read first; create only when absent; replace only when different. A create that loses a
 * race (another replica, a person, between the read and the create: 409) reads the winner's
 * object and compares it like any other.
 */
export async function ensureObject<T>({ read, create, matches, update }: EnsureSteps<T>): Promise<void> {
  let existing = await call(read).catch(ignoreNotFound);
  if (existing === undefined) {
    try {
      await call(create);
      return;
    } catch (error) {
      if (!(error instanceof ClusterError) || error.kind !== 'conflict') throw error;
      existing = await call(read);
    }
  }
  const current = existing;
  if (!update || !matches || matches(current)) return;
  await call(() => update(current));
}

// ---------------------------------------------------------------------------------------
// Comparing what the cluster has with what the console wants

/** The JSON an object stands for, keys sorted and undefined members dropped (client-node's typed objects carry them). */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value instanceof Date) return value.toISOString();
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/** Same JSON, whatever the key order and undefined members (arrays keep their order). */
export const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

/** Values of a quantity map (client-node types them as strings or numbers) as strings. */
export const stringMap = (map: Record<string, unknown> | undefined | null): Record<string, string> =>
  Object.fromEntries(Object.entries(map ?? {}).map(([key, value]) => [key, String(value)]));

/** Whether two quantity maps are the same (same keys, equal quantities: "1000m" is "1"); absent = empty. */
export const sameQuantities = (a: Record<string, unknown> | undefined | null, b: Record<string, unknown> | undefined | null): boolean =>
  sameHard(stringMap(a), stringMap(b));

/** Whether an object carries the console's managed-by label. */
export const labelledAsManaged = (metadata: { labels?: Record<string, string> } | undefined): boolean =>
  Object.entries(MANAGED_BY).every(([key, value]) => metadata?.labels?.[key] === value);
