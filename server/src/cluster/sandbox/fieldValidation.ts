import type { Route } from './routing.js';
import { modelAttributes, modelNameOf, shapeOf } from './openapi.js';
import { badRequest } from './status.js';

// Server-side field validation, as kube-apiserver does it for `?fieldValidation=`: fields the
// kind's schema does not declare are refused (Strict, what kubectl sends by default since the
// OpenAPI documents declare the parameter), reported as Warning headers (Warn, the default for
// other clients) or let through (Ignore, `kubectl --validate=false`). The declared fields are
// those of @kubernetes/client-node's models, the same ones the OpenAPI documents are built from.

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

function fieldValidationOf(query: URLSearchParams): FieldValidation {
  const value = query.get('fieldValidation');
  if (value === null || value === '') return 'Warn';
  if (value === 'Strict' || value === 'Warn' || value === 'Ignore') return value;
  throw badRequest(`fieldValidation parameter unsupported: ${JSON.stringify(value)}`);
}

/** The paths of the fields under `value` that the model `model` does not declare. */
export function unknownFields(model: string, value: unknown, path = ''): string[] {
  const attributes = modelAttributes(model);
  if (!attributes || !value || typeof value !== 'object' || Array.isArray(value)) return [];
  const found: string[] = [];
  for (const [key, child] of Object.entries(value)) {
    // Strategic merge patch directives ($patch, $setElementOrder/…, $retainKeys) are not fields.
    if (key.startsWith('$')) continue;
    const attribute = attributes.find((a) => a.baseName === key);
    const at = path ? `${path}.${key}` : key;
    if (!attribute) found.push(at);
    else found.push(...unknownUnder(attribute.type, child, at));
  }
  return found;
}

function unknownUnder(type: string, value: unknown, path: string): string[] {
  const shape = shapeOf(type);
  if (shape.of === 'model') return unknownFields(shape.name, value, path);
  if (shape.of === 'array' && Array.isArray(value)) return value.flatMap((item, i) => unknownUnder(shape.items, item, `${path}[${i}]`));
  if (shape.of === 'map' && value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => unknownUnder(shape.values, item, `${path}[${key}]`));
  }
  return [];
}

/**
 * Checks a create or update body, or a merge patch, against the route's kind under the request's
 * `fieldValidation`: throws 400 under Strict, adds warnings under Warn. Subresources other than status are not checked.
 */
export function checkFields(r: Route, body: unknown, query: URLSearchParams, warnings: string[]) {
  // Read on writes only: reads and watches ignore the parameter, as kube-apiserver's do.
  const directive = fieldValidationOf(query);
  if (directive === 'Ignore' || (r.subresource && r.subresource !== 'status')) return;
  const unknown = unknownFields(modelNameOf(r.type.kind), body);
  if (unknown.length === 0) return;
  const messages = unknown.map((field) => `unknown field ${JSON.stringify(field)}`);
  if (directive === 'Warn') {
    warnings.push(...messages);
    return;
  }
  const kind = r.type.kind;
  throw badRequest(`${kind} in version ${JSON.stringify(r.type.version)} cannot be handled as a ${kind}: strict decoding error: ${messages.join(', ')}`);
}
