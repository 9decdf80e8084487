import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Identity } from './authorization.js';
import type { ApiContext } from './context.js';
import { deleteNamespace, namespaceCreated, prepareNamespace } from './namespaces.js';
import { jsonPatch, mergePatch, strategicMergePatch } from './patches.js';
import { applyLimitRangeDefaults, defaultRequestsFromLimits } from './limitRanger.js';
import { admitNamespace, admitPod, isSignificantPodUpdate } from './podSecurity.js';
import { deletePod, podUpdate } from './pods.js';
import { quotaRefusal, quotasInForce } from './resourceQuota.js';
import { apiVersionOf, qualifiedName, type ResourceType } from './resources.js';
import type { Route } from './routing.js';
import { fieldSelector, labelSelector } from './selectors.js';
import { alreadyExists, badRequest, conflict, forbidden, notFound, unsupportedMediaType } from './status.js';
import { type KubeObject, StoreError } from './store.js';
import { toTable } from './table.js';
import { validate } from './validation.js';
import { readBody } from './wire.js';
import { orphanDependents } from './workloads/controllers.js';
import { prepareWorkload, throwIfInvalid, validateWorkload, WORKLOAD_KINDS } from './workloads/admission.js';

// The verbs on objects (get, list, create, update, patch, delete), with what each resource adds
// to them in namespaces.ts, pods.ts, kubelets.ts and workloads/admission.ts.

export const withKind = (type: ResourceType, object: KubeObject) => ({ ...object, apiVersion: apiVersionOf(type), kind: type.kind });

const storeError = (error: unknown, type: ResourceType, name: string) => {
  if (error instanceof StoreError) {
    if (error.reason === 'NotFound') return notFound(type.resource, type.group, name);
    if (error.reason === 'AlreadyExists') return alreadyExists(type.resource, type.group, name);
    return conflict(type.resource, type.group, name, error.message);
  }
  return error;
};

export function requireNamespace({ store }: ApiContext, namespace: string | undefined) {
  if (namespace !== undefined && !store.get('namespaces', undefined, namespace)) throw notFound('namespaces', '', namespace);
}

export function getObject({ store }: ApiContext, r: Route): KubeObject {
  const object = store.get(r.type.resource, r.namespace, r.name!);
  if (!object) throw notFound(r.type.resource, r.type.group, r.name!);
  return withKind(r.type, object);
}

/** Where a `continue` token resumes: after this object, in the store's order (namespace, name). */
interface ContinueKey {
  namespace: string;
  name: string;
}

const storeOrder = (a: ContinueKey, b: ContinueKey) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name);

/** A continue token: base64 JSON, opaque to clients, like kube-apiserver's (which also carries `v` and `rv`). */
const encodeContinue = (last: KubeObject, resourceVersion: string) =>
  Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: Number(resourceVersion), namespace: last.metadata.namespace ?? '', name: last.metadata.name })).toString('base64url');

function decodeContinue(token: string): ContinueKey {
  try {
    const decoded = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (decoded.v === 'meta.k8s.io/v1' && typeof decoded.namespace === 'string' && typeof decoded.name === 'string' && decoded.name) {
      return { namespace: decoded.namespace, name: decoded.name };
    }
  } catch {
    // refused below
  }
  throw badRequest('continue key is not valid: invalid continue token');
}

/**
 * A list, with `limit`/`continue` paging as kube-apiserver does it: at most `limit` matching
 * items, and a `continue` token in the metadata while more match. Unlike kube-apiserver the
 * next page is read from the store as it is then, not from a snapshot at the first page's
 * resourceVersion (objects created meanwhile past the token are included), and a token never
 * expires.
 */
export function list({ store }: ApiContext, r: Route, query: URLSearchParams, table: boolean) {
  const byLabel = labelSelector(query.get('labelSelector'));
  const byField = fieldSelector(query.get('fieldSelector'));
  let matching = store.list(r.type.resource, r.namespace).filter((o) => byLabel(o) && byField(o));
  const token = query.get('continue');
  if (token) {
    const after = decodeContinue(token);
    matching = matching.filter((o) => storeOrder({ namespace: o.metadata.namespace ?? '', name: o.metadata.name }, after) > 0);
  }
  const limit = Number(query.get('limit') ?? 0);
  let next: string | undefined;
  if (Number.isInteger(limit) && limit > 0 && matching.length > limit) {
    matching = matching.slice(0, limit);
    next = encodeContinue(matching[limit - 1]!, store.resourceVersion);
  }
  const paging = next ? { continue: next } : {};
  if (table) {
    const answer = toTable(r.type.resource, matching.map((o) => withKind(r.type, o)), store.resourceVersion, query.get('includeObject'));
    return { ...answer, metadata: { ...answer.metadata, ...paging } };
  }
  const items = matching.map(({ kind: _kind, apiVersion: _apiVersion, ...item }) => item);
  return { kind: `${r.type.kind}List`, apiVersion: apiVersionOf(r.type), metadata: { resourceVersion: store.resourceVersion, ...paging }, items };
}

/**
 * Pod Security admission of a pod being written (podSecurity.ts): 403 when the namespace's
 * enforce level refuses it, else the warn level's warnings are added to `warnings`.
 */
export function admitPodWrite({ store }: ApiContext, namespace: string, pod: KubeObject, warnings: string[]) {
  const verdict = admitPod(store.get('namespaces', undefined, namespace), pod);
  if (verdict.forbidden) throw forbidden(`pods "${pod.metadata.name ?? ''}" is forbidden: ${verdict.forbidden}`, 'pods', '', pod.metadata.name ?? '');
  warnings.push(...verdict.warnings);
}

/**
 * LimitRanger's defaults for a pod being created (limitRanger.ts): kube-apiserver's mutating
 * admission, before validation, Pod Security and quota see the pod.
 */
export function defaultPodResources({ store }: ApiContext, namespace: string, pod: KubeObject) {
  defaultRequestsFromLimits(pod);
  applyLimitRangeDefaults(store.list('limitranges', namespace), pod);
}

/**
 * ResourceQuota admission of an object being created in a namespace (resourceQuota.ts): 403
 * `pods "web" is forbidden: exceeded quota: …` when it would go beyond a quota there.
 */
export function admitQuota({ store }: ApiContext, type: ResourceType, namespace: string, object: KubeObject) {
  const refusal = quotaRefusal(quotasInForce(store, namespace), type, object);
  if (!refusal) return;
  const name = object.metadata.name ?? '';
  // apierrors.NewForbidden leaves out an empty name
  throw forbidden(`${qualifiedName(type)}${name ? ` "${name}"` : ''} is forbidden: ${refusal}`, type.resource, type.group, name);
}

/** Creates the object; `warnings` collects what the answer's Warning headers should say. */
export function create(context: ApiContext, r: Route, object: KubeObject, identity: Identity, warnings: string[] = []): KubeObject {
  const { store, runtime } = context;
  const type = r.type;
  if (type.namespaced) {
    if (object.metadata.namespace && object.metadata.namespace !== r.namespace)
      throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    object.metadata.namespace = r.namespace;
  } else delete object.metadata.namespace;
  for (const field of ['uid', 'resourceVersion', 'creationTimestamp', 'deletionTimestamp']) delete object.metadata[field];
  validate(type, object);
  requireNamespace(context, r.namespace);
  if (WORKLOAD_KINDS.has(type.resource)) {
    if (type.resource === 'jobs') object.metadata.uid = randomUUID();
    store.assignGeneratedName(type.resource, object);
    prepareWorkload(store, type.resource, object);
    throwIfInvalid(type.kind, type.group, object, validateWorkload(type.resource, object));
  }
  switch (type.resource) {
    case 'namespaces':
      admitNamespace(object, undefined, []);
      prepareNamespace(object);
      break;
    case 'pods':
      defaultPodResources(context, r.namespace!, object);
      runtime.prepare(object);
      // After the name is generated: the refusal names the pod, as kube-apiserver's does.
      store.assignGeneratedName('pods', object);
      admitPodWrite(context, r.namespace!, object, warnings);
      break;
    case 'resourcequotas':
      delete object.status; // the quota controller's (QuotaStatusKeeper)
      break;
    case 'nodes':
      runtime.nodes.prepare(object);
      break;
    case 'secrets':
      object.type ??= 'Opaque';
      if (object.stringData) {
        object.data = { ...object.data };
        for (const [k, v] of Object.entries(object.stringData)) object.data[k] = Buffer.from(String(v)).toString('base64');
        delete object.stringData;
      }
      break;
  }
  // Quota is the last admission step, as in kube-apiserver (the name is generated by then).
  if (type.namespaced) {
    store.assignGeneratedName(type.resource, object);
    admitQuota(context, type, r.namespace!, object);
  }
  let created: KubeObject;
  try {
    created = store.create(type.resource, object);
  } catch (error) {
    throw storeError(error, type, object.metadata.name);
  }
  if (type.resource === 'namespaces') namespaceCreated(context, created.metadata.name);
  if (type.resource === 'pods') runtime.admitted(created);
  if (type.resource === 'nodes') {
    store.nodeCreators.set(created.metadata.name, identity.user);
    runtime.nodes.registered(created);
  }
  return withKind(type, created);
}

export function replace(context: ApiContext, r: Route, object: KubeObject, warnings: string[] = []): KubeObject {
  const { store } = context;
  const type = r.type;
  if (object.metadata.name && object.metadata.name !== r.name) throw badRequest(`the name of the object (${object.metadata.name}) does not match the name on the URL (${r.name})`);
  object.metadata.name = r.name!;
  if (type.namespaced) object.metadata.namespace = r.namespace;
  const current = store.get(type.resource, r.namespace, r.name!);
  if (!current) throw notFound(type.resource, type.group, r.name!);
  if (r.subresource === 'status') {
    // a status write changes the status only (nodeStatusStrategy), with the usual optimistic lock
    object = { ...current, metadata: { ...current.metadata, resourceVersion: object.metadata.resourceVersion }, status: object.status ?? {} };
  } else if (type.resource === 'nodes') object.status = current.status; // status belongs to nodes/status
  validate(type, object);
  if (WORKLOAD_KINDS.has(type.resource) && r.subresource !== 'status') {
    prepareWorkload(store, type.resource, object, current);
    throwIfInvalid(type.kind, type.group, object, validateWorkload(type.resource, object));
  }
  if (type.resource === 'pods') {
    podUpdate(current, object);
    if (r.subresource !== 'status' && isSignificantPodUpdate(object, current)) admitPodWrite(context, r.namespace!, object, warnings);
  }
  if (type.resource === 'resourcequotas') object.status = current.status; // the quota controller's
  if (type.resource === 'namespaces') {
    object.status = current.status; // status belongs to the status subresource
    object.spec = current.spec;
    warnings.push(...admitNamespace(object, current, store.list('pods', r.name)));
  }
  for (const field of ['deletionTimestamp', 'deletionGracePeriodSeconds']) {
    if (current.metadata[field] !== undefined) object.metadata[field] = current.metadata[field];
  }
  try {
    return withKind(type, store.update(type.resource, object));
  } catch (error) {
    throw storeError(error, type, r.name!);
  }
}

/** `checkBody` sees merge patches (shaped as the object) before they apply; JSON patches are not objects. */
export async function patch(
  context: ApiContext,
  req: IncomingMessage,
  r: Route,
  warnings: string[] = [],
  checkBody: (body: unknown) => void = () => {},
): Promise<KubeObject> {
  const contentType = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  const body = await readBody(req);
  if (contentType !== 'application/json-patch+json') checkBody(body);
  const current = getObject(context, r);
  let next: KubeObject;
  if (contentType === 'application/merge-patch+json') {
    next = mergePatch(current, body) as KubeObject;
  } else if (contentType === 'application/strategic-merge-patch+json') {
    next = strategicMergePatch(current, body) as KubeObject;
  } else if (contentType === 'application/json-patch+json') {
    next = jsonPatch(current, body);
  } else throw unsupportedMediaType(contentType || 'none');
  if (!next || typeof next !== 'object') throw badRequest('the patch must produce an object');
  next.metadata = { ...next.metadata, resourceVersion: (body as KubeObject)?.metadata?.resourceVersion };
  return replace(context, r, next, warnings);
}

export function remove(context: ApiContext, r: Route, query: URLSearchParams, options: KubeObject | undefined): KubeObject {
  const { store, runtime } = context;
  const type = r.type;
  const current = getObject(context, r);
  const name = r.name!;
  const erase = () => {
    try {
      return store.delete(type.resource, r.namespace, name);
    } catch (error) {
      throw storeError(error, type, name);
    }
  };
  const preconditionUid = options?.preconditions?.uid;
  if (preconditionUid && preconditionUid !== current.metadata.uid)
    throw conflict(type.resource, type.group, name, `Precondition failed: UID in precondition: ${preconditionUid}, UID in object meta: ${current.metadata.uid}`);
  switch (type.resource) {
    case 'namespaces':
      return deleteNamespace(context, current, erase);
    case 'pods':
      return withKind(type, deletePod(context, r, query, options, current, erase));
    case 'nodes': {
      const gone = erase();
      store.nodeCreators.delete(name);
      runtime.nodes.removed(name);
      return withKind(type, gone);
    }
    default:
      if (type.resource === 'deployments' || type.resource === 'replicasets' || type.resource === 'jobs') orphanDependents(context, current, query, options);
      erase();
      if (type.resource === 'serviceaccounts') {
        for (const [token, issued] of store.tokens) if (issued.namespace === r.namespace && issued.serviceAccount === name) store.tokens.delete(token);
      }
      return current;
  }
}
