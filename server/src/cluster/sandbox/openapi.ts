import { createHash } from 'node:crypto';
import * as models from '@kubernetes/client-node';
import { RESOURCES, type ResourceType } from './resources.js';
import { routeNotFound } from './status.js';

// The OpenAPI v3 documents kube-apiserver serves under /openapi/v3, for the resources the
// sandbox serves. kubectl reads them before `apply` and `create -f`: an operation that declares
// the `fieldValidation` parameter tells it the server checks fields itself, so it sends
// `fieldValidation=Strict` instead of downloading every schema to check them client-side, and
// `kubectl explain` reads its schemas from them.
//
// The schemas are not written here: they are read from the models of @kubernetes/client-node,
// which its maintainers generate from Kubernetes' own OpenAPI document. Each model's attribute
// type map names its properties and their types; nested models become schemas of their own.
// What the models do not carry (descriptions, required fields, enums) the documents lack.

type Attribute = { name: string; baseName: string; type: string; format: string };
type Model = { getAttributeTypeMap(): Attribute[] };
export type Schema = Record<string, unknown>;

const MODELS = models as unknown as Record<string, Model | undefined>;

/** The client's model of a kind: V1Deployment, or a group-prefixed name where v1 is ambiguous. */
const MODEL_NAMES: Record<string, string> = { TokenRequest: 'AuthenticationV1TokenRequest' };
export const modelNameOf = (kind: string) => MODEL_NAMES[kind] ?? `V1${kind}`;

export function modelAttributes(name: string): Attribute[] | undefined {
  const model = MODELS[name];
  return typeof model?.getAttributeTypeMap === 'function' ? model.getAttributeTypeMap() : undefined;
}

const ARRAY = /^Array<(.+)>$/;
const MAP = /^\{ \[key: string\]: (.+); \}$/;

/** How a type of the client's models reads: an array, a map, a model, or a scalar. */
export type TypeShape =
  | { of: 'array'; items: string }
  | { of: 'map'; values: string }
  | { of: 'model'; name: string }
  | { of: 'scalar'; type: string };

export function shapeOf(type: string): TypeShape {
  const array = ARRAY.exec(type);
  if (array) return { of: 'array', items: array[1] };
  const map = MAP.exec(type);
  if (map) return { of: 'map', values: map[1] };
  if (modelAttributes(type)) return { of: 'model', name: type };
  return { of: 'scalar', type };
}

/**
 * The schema's name in the documents: the model's name split as Kubernetes names its schemas
 * ("V1DeploymentSpec" becomes "v1.DeploymentSpec", "CoreV1ResourceClaim" "core.v1.ResourceClaim"),
 * so `kubectl explain` prints <DeploymentSpec> as it does against kube-apiserver.
 */
export function schemaNameOf(model: string): string {
  const parts = /^([A-Z][a-z]+)?(V\d+(?:alpha\d+|beta\d+)?)([A-Z].*)$/.exec(model);
  if (!parts) return model;
  return [parts[1]?.toLowerCase(), parts[2].toLowerCase(), parts[3]].filter(Boolean).join('.');
}

function scalarSchema(type: string, format: string): Schema {
  switch (type) {
    case 'string':
      return format ? { type: 'string', format } : { type: 'string' };
    case 'Date':
      return { type: 'string', format: 'date-time' };
    case 'number':
      return format === 'int32' || format === 'int64' ? { type: 'integer', format } : format ? { type: 'number', format } : { type: 'number' };
    case 'boolean':
      return { type: 'boolean' };
    case 'IntOrString':
      return { 'x-kubernetes-int-or-string': true };
    default: // any: raw extensions and free-form values
      return { 'x-kubernetes-preserve-unknown-fields': true };
  }
}

function typeSchema(type: string, format: string, reached: Set<string>, refPrefix: string): Schema {
  const shape = shapeOf(type);
  switch (shape.of) {
    case 'array':
      return { type: 'array', items: typeSchema(shape.items, format, reached, refPrefix) };
    case 'map':
      return { type: 'object', additionalProperties: typeSchema(shape.values, format, reached, refPrefix) };
    case 'model':
      reached.add(shape.name);
      return { $ref: `${refPrefix}${schemaNameOf(shape.name)}` };
    default:
      return scalarSchema(shape.type, format);
  }
}

/**
 * The schemas of the given kinds, of Status and DeleteOptions, and of every model they reach;
 * references start with `refPrefix` (where the document keeps its schemas).
 */
export function schemasOf(types: ResourceType[], refPrefix: string): Record<string, Schema> {
  const kinds = types.filter((t) => modelAttributes(modelNameOf(t.kind)));
  const gvk = new Map(kinds.map((type) => [modelNameOf(type.kind), type]));
  const schemas: Record<string, Schema> = {};
  const done = new Set<string>();
  const pending = [...gvk.keys(), 'V1Status', 'V1DeleteOptions'];
  while (pending.length) {
    const name = pending.pop()!;
    if (done.has(name)) continue;
    done.add(name);
    const reached = new Set<string>();
    const properties = Object.fromEntries(
      (modelAttributes(name) ?? []).map((a) => [a.baseName, typeSchema(a.type, a.format, reached, refPrefix)]),
    );
    const type = gvk.get(name);
    schemas[schemaNameOf(name)] = {
      type: 'object',
      properties,
      ...(type ? { 'x-kubernetes-group-version-kind': [{ group: type.group, version: type.version, kind: type.kind }] } : {}),
    };
    pending.push(...[...reached].filter((r) => !done.has(r)));
  }
  return schemas;
}

/** "api/v1" or "apis/apps/v1": the document's path under /openapi/v3. */
const documentPath = (group: string, version: string) => (group ? `apis/${group}/${version}` : `api/${version}`);

const GROUP_VERSIONS = [...new Map(RESOURCES.map((r) => [documentPath(r.group, r.version), { group: r.group, version: r.version }])).entries()];

const queryParameter = (name: string, type = 'string') => ({ name, in: 'query', schema: { type } });
const WRITE_PARAMETERS = [queryParameter('dryRun'), queryParameter('fieldManager'), queryParameter('fieldValidation')];
const json = (model: string) => ({ content: { 'application/json': { schema: { $ref: `#/components/schemas/${schemaNameOf(model)}` } } } });

function operation(verb: string, type: ResourceType, model: string, write: boolean, id: string) {
  return {
    operationId: `${verb}${id}`,
    ...(write ? { parameters: WRITE_PARAMETERS, requestBody: { ...json(model), required: true } } : {}),
    responses: { '200': { description: 'OK', ...json(model) } },
    'x-kubernetes-action': verb,
    'x-kubernetes-group-version-kind': { group: type.group, version: type.version, kind: type.kind },
  };
}

function paths(group: string, version: string) {
  const entries: [string, Schema][] = [];
  for (const type of RESOURCES.filter((r) => r.group === group && r.version === version)) {
    const model = modelNameOf(type.kind);
    if (!modelAttributes(model)) continue;
    const base = `/${documentPath(group, version)}${type.namespaced ? '/namespaces/{namespace}' : ''}/${type.resource}`;
    const id = `${group.split('.')[0]}${version}${type.kind}`;
    const can = (verb: string) => type.verbs.includes(verb);
    const collection: Schema = {};
    if (can('list')) collection.get = operation('list', type, model, false, id);
    if (can('create')) collection.post = operation('post', type, model, true, id);
    entries.push([base, collection]);
    if (type.resource === 'selfsubjectreviews') continue;
    const item: Schema = {};
    if (can('get')) item.get = operation('get', type, model, false, id);
    if (can('update')) item.put = operation('put', type, model, true, id);
    if (can('patch')) item.patch = operation('patch', type, model, true, id);
    if (can('delete')) item.delete = operation('delete', type, 'V1Status', false, id);
    entries.push([`${base}/{name}`, item]);
  }
  return Object.fromEntries(entries);
}

function groupVersionDocument(group: string, version: string) {
  const types = RESOURCES.filter((r) => r.group === group && r.version === version);
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: 'sandbox' },
    paths: paths(group, version),
    components: { schemas: schemasOf(types, '#/components/schemas/') },
  };
}

/** Built once per process: the resources and the client's models do not change while it runs. */
const documents = new Map<string, { text: string; hash: string }>();
function documentOf(path: string) {
  let document = documents.get(path);
  if (!document) {
    const entry = GROUP_VERSIONS.find(([p]) => p === path);
    if (!entry) throw routeNotFound();
    const text = JSON.stringify(groupVersionDocument(entry[1].group, entry[1].version));
    document = { text, hash: createHash('sha512').update(text).digest('hex').slice(0, 64).toUpperCase() };
    documents.set(path, document);
  }
  return document;
}

/** GET /openapi/v3: where each group-version's document is, with a hash to cache it by. */
export function openApiIndex() {
  return {
    paths: Object.fromEntries(GROUP_VERSIONS.map(([path]) => [path, { serverRelativeURL: `/openapi/v3/${path}?hash=${documentOf(path).hash}` }])),
  };
}

/** GET /openapi/v3/<api/v1 | apis/group/version>, as JSON text. */
export function openApiDocument(path: string): string {
  return documentOf(path).text;
}
