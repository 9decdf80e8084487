import {
  addResourceLists,
  compareQuantity,
  formatQuantity,
  formatResourceList,
  maskResourceList,
  parseQuantity,
  parseResourceList,
  quantityOf,
  type ResourceList,
} from './quantity.js';
import { qualifiedName, RESOURCES, type ResourceType } from './resources.js';
import type { KubeObject, ObjectStore, StoreEvent } from './store.js';

// ResourceQuota as kube-apiserver enforces it: the ResourceQuota admission plugin
// (k8s.io/apiserver/pkg/admission/plugin/resourcequota, CheckRequest) with the pod and
// object-count evaluators of pkg/quota/v1/evaluator/core, and the quota controller that keeps
// `status.hard` and `status.used`. The functions are plain, for tests; QuotaStatusKeeper keeps
// the status of the stored quotas.
//
// Differences, on purpose: admission reads the usage afresh from the store (everything is
// synchronous here, so no two creates can race between the check and the write) and the
// limits from `spec.hard` (a real API server waits for the controller to copy them to
// `status.hard`); quota scopes and scope selectors are not evaluated (a scoped quota counts
// every object).

/** The quota resource names a pod consumes (the pod evaluator's podResources). */
const POD_RESOURCES = new Set([
  'count/pods',
  'pods',
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
]);

/** Quota on these makes every container name them (the evaluator's validationSet). */
const MUST_SPECIFY = new Set(['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory']);

/** Object counts that also go by their bare name (the legacy aliases of count/…). */
const LEGACY_COUNTS = new Set(['configmaps', 'secrets', 'resourcequotas', 'services', 'persistentvolumeclaims', 'replicationcontrollers']);

const NATIVE = (name: string) => !name.includes('/') || name.startsWith('kubernetes.io/');

/** A container's requests and limits as the pod evaluator counts them (podComputeUsageHelper). */
function computeUsage(requests: ResourceList, limits: ResourceList): ResourceList {
  const usage: ResourceList = { pods: quantityOf(1) };
  for (const name of ['cpu', 'memory', 'ephemeral-storage']) {
    if (requests[name]) {
      usage[name] = requests[name];
      usage[`requests.${name}`] = requests[name];
    }
    if (limits[name]) usage[`limits.${name}`] = limits[name];
  }
  for (const [name, value] of Object.entries(requests)) {
    if (name.startsWith('hugepages-')) {
      usage[name] = value;
      usage[`requests.${name}`] = value;
    } else if (!NATIVE(name)) usage[`requests.${name}`] = value;
  }
  return usage;
}

const containersOf = (pod: KubeObject): KubeObject[] => pod.spec?.containers ?? [];
const initContainersOf = (pod: KubeObject): KubeObject[] => pod.spec?.initContainers ?? [];

/** The pod's effective requests or limits: the containers' sum, or an init container's if larger (PodRequests/PodLimits). */
function podResources(pod: KubeObject, field: 'requests' | 'limits'): ResourceList {
  let total: ResourceList = {};
  for (const container of containersOf(pod)) total = addResourceLists(total, parseResourceList(container.resources?.[field]));
  for (const container of initContainersOf(pod)) {
    for (const [name, value] of Object.entries(parseResourceList(container.resources?.[field]))) {
      if (!total[name] || compareQuantity(value, total[name]) > 0) total[name] = value;
    }
  }
  return total;
}

/**
 * Whether a pod still counts against compute quota (QuotaV1Pod): not once it has ended
 * (Succeeded, Failed), nor once its deletion's grace period has run out.
 */
export function podCountsAgainstQuota(pod: KubeObject, now = Date.now()): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  const deletion = pod.metadata.deletionTimestamp;
  const grace = pod.metadata.deletionGracePeriodSeconds;
  if (typeof deletion === 'string' && typeof grace === 'number' && now > Date.parse(deletion) + grace * 1000) return false;
  return true;
}

/** What one pod uses of quota (PodUsageFunc): `count/pods` always, the rest while it runs or may run. */
export function podUsage(pod: KubeObject, now = Date.now()): ResourceList {
  const usage: ResourceList = { 'count/pods': quantityOf(1) };
  if (!podCountsAgainstQuota(pod, now)) return usage;
  return { ...usage, ...computeUsage(podResources(pod, 'requests'), podResources(pod, 'limits')) };
}

/** What one stored object of another kind uses: its object count (`count/configmaps`, and `configmaps` for the legacy names). */
export function objectCountUsage(type: ResourceType): ResourceList {
  const usage: ResourceList = { [`count/${qualifiedName(type)}`]: quantityOf(1) };
  if (!type.group && LEGACY_COUNTS.has(type.resource)) usage[type.resource] = quantityOf(1);
  return usage;
}

const isClaims = (type: ResourceType) => type.resource === 'persistentvolumeclaims' && !type.group;

/** What a PersistentVolumeClaim uses (the claim evaluator): its count, and the storage it requests. */
export function claimUsage(type: ResourceType, claim: KubeObject): ResourceList {
  const usage = objectCountUsage(type);
  const storage = parseQuantity(claim.spec?.resources?.requests?.storage);
  if (storage) usage['requests.storage'] = storage;
  return usage;
}

export function objectUsage(type: ResourceType, object: KubeObject, now = Date.now()): ResourceList {
  if (type.resource === 'pods' && !type.group) return podUsage(object, now);
  return isClaims(type) ? claimUsage(type, object) : objectCountUsage(type);
}

/** Which of a quota's resources an object of this type consumes (the evaluators' MatchingResources). */
export function matchingResources(type: ResourceType, hard: Iterable<string>): string[] {
  const own = new Set(Object.keys(type.resource === 'pods' && !type.group ? {} : objectCountUsage(type)));
  if (isClaims(type)) own.add('requests.storage');
  return [...hard].filter((name) => {
    if (type.resource === 'pods' && !type.group) return POD_RESOURCES.has(name) || name.startsWith('hugepages-') || name.startsWith('requests.hugepages-') || (name.startsWith('requests.') && !NATIVE(name.slice('requests.'.length)));
    return own.has(name);
  });
}

/**
 * The pod evaluator's Constraints: with quota on cpu or memory, every container must name
 * them. "must specify limits.cpu for: web; requests.cpu for: web,sidecar", or null.
 */
export function missingPodResources(pod: KubeObject, restricted: string[]): string | null {
  const required = restricted.filter((name) => MUST_SPECIFY.has(name));
  if (required.length === 0) return null;
  const missing = new Map<string, Set<string>>();
  for (const container of [...containersOf(pod), ...initContainersOf(pod)]) {
    const has = computeUsage(parseResourceList(container.resources?.requests), parseResourceList(container.resources?.limits));
    for (const name of required) {
      if (has[name]) continue;
      if (!missing.has(name)) missing.set(name, new Set());
      missing.get(name)!.add(String(container.name));
    }
  }
  if (missing.size === 0) return null;
  const parts = [...missing.keys()].sort().map((name) => `${name} for: ${[...missing.get(name)!].sort().join(',')}`);
  return `must specify ${parts.join('; ')}`;
}

/** "limits.cpu=500m,pods=1": sorted by name, as the admission plugin's prettyPrint. */
export function prettyPrint(list: ResourceList): string {
  return Object.keys(list)
    .sort()
    .map((name) => `${name}=${formatQuantity(list[name]!)}`)
    .join(',');
}

export interface QuotaInForce {
  name: string;
  hard: ResourceList;
  used: ResourceList;
}

/**
 * ResourceQuota admission of a create (CheckRequest): the reason it is refused, worded as
 * kube-apiserver words it after `pods "web" is forbidden: `, or null when every quota admits it.
 * `quotas` in name order, with their usage before this object.
 */
export function quotaRefusal(quotas: QuotaInForce[], type: ResourceType, object: KubeObject, now = Date.now()): string | null {
  const interesting: QuotaInForce[] = [];
  for (const quota of quotas) {
    const restricted = matchingResources(type, Object.keys(quota.hard));
    if (restricted.length === 0) continue;
    if (type.resource === 'pods' && !type.group) {
      const missing = missingPodResources(object, restricted);
      if (missing) return `failed quota: ${quota.name}: ${missing}`;
    }
    interesting.push(quota);
  }
  const usage = objectUsage(type, object, now);
  for (const [name, value] of Object.entries(usage)) if (value.nanos === 0n) delete usage[name];
  for (const quota of interesting) {
    const requested = maskResourceList(usage, Object.keys(quota.hard));
    if (Object.keys(requested).length === 0) continue;
    const wouldUse = addResourceLists(maskResourceList(quota.used, Object.keys(requested)), requested);
    const exceeded = Object.keys(requested).filter((name) => compareQuantity(wouldUse[name]!, quota.hard[name]!) > 0);
    if (exceeded.length) {
      return `exceeded quota: ${quota.name}, requested: ${prettyPrint(maskResourceList(requested, exceeded))}, used: ${prettyPrint(maskResourceList(quota.used, exceeded))}, limited: ${prettyPrint(maskResourceList(quota.hard, exceeded))}`;
    }
  }
  return null;
}

/** Each of `hard`'s resources summed over the objects (zero where none uses it), as the quota controller counts. */
export function usageOf(hard: Iterable<string>, objects: { type: ResourceType; object: KubeObject }[], now = Date.now()): ResourceList {
  let total: ResourceList = {};
  for (const { type, object } of objects) total = addResourceLists(total, objectUsage(type, object, now));
  const used: ResourceList = {};
  for (const name of hard) used[name] = total[name] ?? quantityOf(0);
  return used;
}

const NAMESPACED = RESOURCES.filter((type) => type.namespaced);

/** Every stored object of a namespace, with its type. */
function namespaceObjects(store: ObjectStore, namespace: string) {
  return NAMESPACED.flatMap((type) => store.list(type.resource, namespace).map((object) => ({ type, object })));
}

/** The namespace's quotas, in name order, with `hard` from their spec and the usage counted now. */
export function quotasInForce(store: ObjectStore, namespace: string, now = Date.now()): QuotaInForce[] {
  const quotas = store.list('resourcequotas', namespace);
  if (quotas.length === 0) return [];
  const objects = namespaceObjects(store, namespace);
  return quotas.map((quota) => {
    const hard = parseResourceList(quota.spec?.hard);
    return { name: quota.metadata.name, hard, used: usageOf(Object.keys(hard), objects, now) };
  });
}

/**
 * The quota controller: after any change in a namespace that has quotas, writes each quota's
 * `status.hard` (its spec's, in canonical form) and `status.used` when they differ. Changes are
 * gathered and applied a microtask later, so watchers see an object's own event before the
 * quota's that follows from it (and a burst of changes is one pass).
 */
export class QuotaStatusKeeper {
  private readonly dirty = new Set<string>();
  private scheduled = false;
  private stopped = false;
  private readonly onEvent = (event: StoreEvent) => {
    const namespace = event.object.metadata.namespace;
    if (namespace) this.touch(namespace);
  };

  constructor(private readonly store: ObjectStore) {
    store.events.on('event', this.onEvent);
    for (const quota of store.list('resourcequotas')) this.touch(quota.metadata.namespace!);
  }

  touch(namespace: string) {
    this.dirty.add(namespace);
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => this.flush());
  }

  /** Brings the status of the dirty namespaces' quotas up to date now. */
  flush() {
    this.scheduled = false;
    if (this.stopped) return;
    const namespaces = [...this.dirty];
    this.dirty.clear();
    for (const namespace of namespaces) {
      const quotas = this.store.list('resourcequotas', namespace);
      if (quotas.length === 0) continue;
      const inForce = quotasInForce(this.store, namespace);
      quotas.forEach((quota, index) => {
        const status = { hard: formatResourceList(inForce[index]!.hard), used: formatResourceList(inForce[index]!.used) };
        if (JSON.stringify(quota.status ?? {}) === JSON.stringify(status)) return;
        this.store.modify('resourcequotas', namespace, quota.metadata.name, (current) => {
          current.status = status;
        });
      });
    }
  }

  stop() {
    this.stopped = true;
    this.store.events.off('event', this.onEvent);
  }
}
