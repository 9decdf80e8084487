import type { KubeObject } from './store.js';
import { badRequest } from './status.js';

// labelSelector and fieldSelector query parameters, as the API server reads them.

type Predicate = (object: KubeObject) => boolean;

function splitTerms(selector: string): string[] {
  const terms: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of selector) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      terms.push(current.trim());
      current = '';
    } else current += ch;
  }
  if (current.trim()) terms.push(current.trim());
  return terms.filter(Boolean);
}

export function labelSelector(selector: string | null): Predicate {
  if (!selector) return () => true;
  const checks = splitTerms(selector).map((term): Predicate => {
    const labels = (o: KubeObject) => o.metadata.labels ?? {};
    let m = /^([^\s!=]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(term);
    if (m) {
      const [, key, op, list] = m;
      const values = list.split(',').map((v) => v.trim());
      return op === 'in'
        ? (o) => key in labels(o) && values.includes(labels(o)[key])
        : (o) => !(key in labels(o)) || !values.includes(labels(o)[key]);
    }
    m = /^([^\s!=]+)\s*(==|=|!=)\s*([^\s]*)$/.exec(term);
    if (m) {
      const [, key, op, value] = m;
      return op === '!=' ? (o) => labels(o)[key] !== value : (o) => labels(o)[key] === value;
    }
    m = /^(!?)([^\s!=()]+)$/.exec(term);
    if (m) {
      const [, not, key] = m;
      return not ? (o) => !(key in labels(o)) : (o) => key in labels(o);
    }
    throw badRequest(`unable to parse requirement: invalid label selector "${selector}"`);
  });
  return (o) => checks.every((check) => check(o));
}

const FIELDS = new Set(['metadata.name', 'metadata.namespace', 'spec.nodeName', 'status.phase', 'spec.restartPolicy', 'spec.schedulerName', 'spec.serviceAccountName', 'status.podIP', 'type']);

function field(object: KubeObject, path: string): string {
  let value: unknown = object;
  for (const part of path.split('.')) value = (value as Record<string, unknown> | undefined)?.[part];
  return value === undefined || value === null ? '' : String(value);
}

export function fieldSelector(selector: string | null): Predicate {
  if (!selector) return () => true;
  const checks = splitTerms(selector).map((term): Predicate => {
    const m = /^([^\s!=]+)\s*(==|=|!=)\s*(.*)$/.exec(term);
    if (!m) throw badRequest(`invalid field selector: "${term}"`);
    const [, path, op, value] = m;
    if (!FIELDS.has(path)) throw badRequest(`field label not supported: ${path}`);
    return op === '!=' ? (o) => field(o, path) !== value : (o) => field(o, path) === value;
  });
  return (o) => checks.every((check) => check(o));
}
