import { ApiError, badRequest } from './status.js';
import type { KubeObject } from './store.js';

// The patch formats the sandbox accepts: JSON merge patches, strategic merge patches (lists of
// the well-known kinds merged by key, see MERGE_KEYS) and JSON patches.

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** RFC 7386 JSON merge patch (strategic merge patches are applied the same way). */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const result: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (key === '$patch' || key.startsWith('$setElementOrder')) continue;
    if (value === null) delete result[key];
    else result[key] = mergePatch(result[key], value);
  }
  return result;
}

/**
 * The lists a strategic merge patch merges by key (patchMergeKey in k8s.io/api) rather than
 * replacing: containers by name, their ports by containerPort, a Service's ports by port, and so
 * on. Elements with `$patch: delete` are removed; `$setElementOrder`/`$retainKeys` are ignored.
 */
const MERGE_KEYS: Record<string, string[]> = {
  containers: ['name'],
  initContainers: ['name'],
  ephemeralContainers: ['name'],
  env: ['name'],
  volumes: ['name'],
  volumeMounts: ['mountPath'],
  imagePullSecrets: ['name'],
  ports: ['containerPort', 'port'],
  conditions: ['type'],
  hostAliases: ['ip'],
};

export function strategicMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const result: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (key.startsWith('$')) continue;
    if (value === null) {
      delete result[key];
      continue;
    }
    const current = result[key];
    const mergeKey = MERGE_KEYS[key]?.find((k) => Array.isArray(value) && value.some((v) => isObject(v) && k in v));
    if (mergeKey && Array.isArray(value) && Array.isArray(current)) {
      const merged = [...current] as unknown[];
      for (const item of value) {
        if (!isObject(item)) continue;
        const index = merged.findIndex((m) => isObject(m) && m[mergeKey] === item[mergeKey]);
        if (item.$patch === 'delete') {
          if (index >= 0) merged.splice(index, 1);
        } else if (index >= 0) merged[index] = strategicMergePatch(merged[index], item);
        else merged.push(strategicMergePatch(undefined, item));
      }
      result[key] = merged;
    } else result[key] = strategicMergePatch(current, value);
  }
  return result;
}

/** RFC 6902 JSON patch: add, remove, replace, test. */
export function jsonPatch(target: KubeObject, operations: unknown): KubeObject {
  if (!Array.isArray(operations)) throw badRequest('a JSON patch must be an array of operations');
  const doc = structuredClone(target) as Record<string, unknown>;
  for (const op of operations as { op: string; path: string; value?: unknown }[]) {
    const parts = String(op.path ?? '').split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    const last = parts.pop();
    if (last === undefined) throw badRequest(`invalid JSON patch path: ${op.path}`);
    let parent: unknown = doc;
    for (const part of parts) parent = (parent as Record<string, unknown>)?.[part];
    if (typeof parent !== 'object' || parent === null) throw badRequest(`JSON patch path not found: ${op.path}`);
    const container = parent as Record<string, unknown>;
    switch (op.op) {
      case 'add':
        if (Array.isArray(container)) container.splice(last === '-' ? container.length : Number(last), 0, op.value);
        else container[last] = op.value;
        break;
      case 'replace':
        container[last] = op.value;
        break;
      case 'remove':
        if (Array.isArray(container)) container.splice(Number(last), 1);
        else delete container[last];
        break;
      case 'test':
        if (JSON.stringify(container[last]) !== JSON.stringify(op.value)) throw new ApiError(422, 'Invalid', `the test operation failed at ${op.path}`);
        break;
      default:
        throw badRequest(`unsupported JSON patch operation: ${op.op}`);
    }
  }
  return doc as KubeObject;
}
