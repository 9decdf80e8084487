import type { KubeObject } from './store.js';

// The LimitRanger admission plugin's defaulting (plugin/pkg/admission/limitranger), which
// kube-apiserver runs before validation and before ResourceQuota: a container that names no
// request or limit for a resource gets the namespace LimitRanges' `defaultRequest` / `default`
// (items of type Container), and the pod is annotated with what was set. Without it a pod that
// names no resources would be refused by any quota on cpu or memory ("must specify …"); with it
// a plain `kubectl run` fits under the workspace quota, as on a real cluster.
//
// The min/max/maxLimitRequestRatio checks are not made (docs/cluster.md, "Missing").

export const LIMIT_RANGER_ANNOTATION = 'kubernetes.io/limit-ranger';

type Resources = Record<string, string>;

/**
 * API defaulting that runs before any admission (SetDefaults_Pod): a container that sets a
 * limit but no request for a resource requests its limit.
 */
export function defaultRequestsFromLimits(pod: KubeObject) {
  for (const container of [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])] as KubeObject[]) {
    const limits: Resources | undefined = container.resources?.limits;
    if (!limits || Object.keys(limits).length === 0) continue;
    container.resources.requests = { ...limits, ...container.resources.requests };
  }
}

/** What the namespace's LimitRanges give containers by default (later items win, as upstream). */
export function containerDefaults(limitRanges: KubeObject[]): { requests: Resources; limits: Resources } {
  const requests: Resources = {};
  const limits: Resources = {};
  for (const limitRange of limitRanges) {
    for (const item of (limitRange.spec?.limits ?? []) as KubeObject[]) {
      if (item?.type !== 'Container') continue;
      Object.assign(requests, item.defaultRequest ?? {});
      Object.assign(limits, item.default ?? {});
    }
  }
  return { requests, limits };
}

/**
 * Fills in each container's missing requests and limits from the LimitRanges and records it in
 * the `kubernetes.io/limit-ranger` annotation ("LimitRanger plugin set: cpu, memory request for
 * container web; cpu, memory limit for container web"). Changes `pod` in place.
 */
export function applyLimitRangeDefaults(limitRanges: KubeObject[], pod: KubeObject) {
  const defaults = containerDefaults(limitRanges);
  if (Object.keys(defaults.requests).length === 0 && Object.keys(defaults.limits).length === 0) return;
  const notes: string[] = [];
  const merge = (container: KubeObject, what: string) => {
    container.resources ??= {};
    container.resources.limits ??= {};
    container.resources.requests ??= {};
    const setLimits: string[] = [];
    const setRequests: string[] = [];
    for (const [name, value] of Object.entries(defaults.limits)) {
      if (container.resources.limits[name] === undefined) {
        container.resources.limits[name] = value;
        setLimits.push(name);
      }
    }
    for (const [name, value] of Object.entries(defaults.requests)) {
      if (container.resources.requests[name] === undefined) {
        container.resources.requests[name] = value;
        setRequests.push(name);
      }
    }
    if (setRequests.length) notes.push(`${setRequests.sort().join(', ')} request for ${what} ${container.name}`);
    if (setLimits.length) notes.push(`${setLimits.sort().join(', ')} limit for ${what} ${container.name}`);
  };
  for (const container of (pod.spec?.containers ?? []) as KubeObject[]) merge(container, 'container');
  for (const container of (pod.spec?.initContainers ?? []) as KubeObject[]) merge(container, 'init container');
  if (notes.length) {
    pod.metadata.annotations = { ...pod.metadata.annotations, [LIMIT_RANGER_ANNOTATION]: `LimitRanger plugin set: ${notes.join('; ')}` };
  }
}
