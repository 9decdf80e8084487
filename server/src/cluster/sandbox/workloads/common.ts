import type { Identity } from '../authorization.js';
import { timestamp } from '../context.js';
import type { KubeObject } from '../store.js';

// What the sandbox's workload controllers (deployments.ts, replicaSets.ts, jobs.ts) share:
// owner references, label selectors of the LabelSelector kind, status conditions, the
// pod-template hash, and the defaults kube-apiserver gives a pod template.

/** Who the controllers act as when they create pods (through the API's admission, as the real ones do). */
export const controllerIdentity = (name: string): Identity => ({
  kind: 'admin',
  admin: true,
  user: `system:serviceaccount:kube-system:${name}`,
  groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'],
});

export const controllerReference = (owner: KubeObject) => ({
  apiVersion: owner.apiVersion!,
  kind: owner.kind!,
  name: owner.metadata.name,
  uid: owner.metadata.uid!,
  controller: true,
  blockOwnerDeletion: true,
});

/** The controller (ownerReferences with controller: true) of an object, if any. */
export function controllerOf(object: KubeObject): { kind: string; name: string; uid: string } | undefined {
  const refs = (object.metadata.ownerReferences ?? []) as { kind: string; name: string; uid: string; controller?: boolean }[];
  return refs.find((r) => r.controller);
}

export const ownedBy = (object: KubeObject, owner: KubeObject) => controllerOf(object)?.uid === owner.metadata.uid;

/** metav1.LabelSelector (matchLabels, matchExpressions) as a predicate on labels. */
export function selectorMatches(selector: KubeObject | undefined, labels: Record<string, string> = {}): boolean {
  if (!selector) return false;
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of (selector.matchExpressions ?? []) as { key: string; operator: string; values?: string[] }[]) {
    const has = Object.hasOwn(labels, e.key);
    const value = labels[e.key];
    if (e.operator === 'In' && !(has && (e.values ?? []).includes(value))) return false;
    if (e.operator === 'NotIn' && has && (e.values ?? []).includes(value)) return false;
    if (e.operator === 'Exists' && !has) return false;
    if (e.operator === 'DoesNotExist' && has) return false;
  }
  return true;
}

/** `app=web,tier in (a,b)`: a LabelSelector as the string a Scale's status.selector carries. */
export function selectorString(selector: KubeObject | undefined): string {
  const terms = Object.entries(selector?.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`);
  for (const e of (selector?.matchExpressions ?? []) as { key: string; operator: string; values?: string[] }[]) {
    if (e.operator === 'In') terms.push(`${e.key} in (${(e.values ?? []).join(',')})`);
    if (e.operator === 'NotIn') terms.push(`${e.key} notin (${(e.values ?? []).join(',')})`);
    if (e.operator === 'Exists') terms.push(e.key);
    if (e.operator === 'DoesNotExist') terms.push(`!${e.key}`);
  }
  return terms.join(',');
}

/**
 * Sets a condition as the controllers do: lastTransitionTime moves only when the status does.
 * Answers the new list (conditions of the given type removed when `condition` is undefined).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Condition = Record<string, any>;

export function setCondition(conditions: Condition[] | undefined, type: string, condition: { status: string; reason: string; message: string } | undefined, withUpdateTime = false): Condition[] {
  const list = (conditions ?? []).filter((c) => c.type !== type);
  if (!condition) return list;
  const previous = (conditions ?? []).find((c) => c.type === type);
  const now = timestamp();
  const same = previous && previous.status === condition.status && previous.reason === condition.reason && previous.message === condition.message;
  if (same) return conditions!;
  const transition = previous && previous.status === condition.status ? previous.lastTransitionTime : now;
  const next = { type, status: condition.status, ...(withUpdateTime ? { lastUpdateTime: now } : {}), lastTransitionTime: transition, reason: condition.reason, message: condition.message };
  const index = (conditions ?? []).findIndex((c) => c.type === type);
  if (index < 0) return [...list, next];
  const copy = [...conditions!];
  copy[index] = next;
  return copy;
}

/** The pod-template-hash label value: FNV-32a of the template, in the apimachinery "safe" alphabet (no vowels). */
export function podTemplateHash(template: unknown, collisionCount = 0): string {
  let hash = 0x811c9dc5;
  const text = stableJson(template) + (collisionCount ? String(collisionCount) : '');
  for (const byte of Buffer.from(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  let out = '';
  for (const digit of String(hash)) out += alphabet[Number(digit) % alphabet.length];
  return out;
}

export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The defaults kube-apiserver gives a PodTemplateSpec's pod spec (SetDefaults_PodSpec and containers). */
export function defaultPodTemplate(template: KubeObject | undefined, restartPolicy = 'Always') {
  if (!template || typeof template !== 'object') return;
  template.metadata ??= {} as KubeObject['metadata'];
  // a zero time (what kubectl's patches carry as null) is no time
  if (template.metadata.creationTimestamp === null) delete template.metadata.creationTimestamp;
  const spec = template.spec;
  if (!spec || typeof spec !== 'object') return;
  spec.restartPolicy ??= restartPolicy;
  spec.terminationGracePeriodSeconds ??= 30;
  spec.dnsPolicy ??= 'ClusterFirst';
  spec.securityContext ??= {};
  spec.schedulerName ??= 'default-scheduler';
  for (const c of Array.isArray(spec.containers) ? spec.containers : []) {
    if (!c || typeof c !== 'object') continue;
    c.resources ??= {};
    c.terminationMessagePath ??= '/dev/termination-log';
    c.terminationMessagePolicy ??= 'File';
    if (typeof c.image === 'string') c.imagePullPolicy ??= /:[^/]+$/.test(c.image) && !c.image.endsWith(':latest') ? 'IfNotPresent' : 'Always';
    for (const p of Array.isArray(c.ports) ? c.ports : []) if (p && typeof p === 'object') p.protocol ??= 'TCP';
  }
}

export const isPodReady = (pod: KubeObject) => (pod.status?.conditions ?? []).some((c: KubeObject) => c.type === 'Ready' && c.status === 'True');
export const isPodActive = (pod: KubeObject) => !pod.metadata.deletionTimestamp && pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed';
