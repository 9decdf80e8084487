import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { authenticate, authorize, defaultClusterRoles, forbiddenMessage, type Identity, type RequestAttributes } from './authorization.js';
import { cleanExpiredBootstrapTokens, clusterInfoConfigMap, signClusterInfo } from './bootstrap.js';
import { loadOrCreateCertificates } from './certificates.js';
import { apiGroup, apiGroupList, apiResourceList, apiVersions, apiVersionOf, findResource, GROUPS, qualifiedName, RESOURCES, type ResourceType } from './resources.js';
import { DEFAULT_TIMINGS, SandboxRuntime, type RuntimeTimings } from './runtime.js';
import { fieldSelector, labelSelector } from './selectors.js';
import { toTable, wantsTable } from './table.js';
import {
  alreadyExists, ApiError, badRequest, conflict, forbidden, invalid, methodNotAllowed, notFound, routeNotFound,
  statusBody, unauthorized, unsupportedMediaType, type StatusCause,
} from './status.js';
import { loadOrCreateAdminToken, ObjectStore, StoreError, type KubeObject, type StoreEvent, type StoreSnapshot } from './store.js';

// A faithful double of the Kubernetes API server for CLUSTER=sandbox: HTTPS on loopback,
// JSON only, the subset of the API the console's gateway and kubectl use. See docs/cluster.md.

export interface SandboxClusterOptions {
  /** The console's STORAGE_DIR; the CA, serving certificate and admin token go to <storageDir>/sandbox-cluster/. */
  storageDir: string;
  host?: string;
  /** 0 = any free port. */
  port?: number;
  timings?: Partial<RuntimeTimings>;
  /**
   * Keep the objects and tokens in <storageDir>/sandbox-cluster/state.json across restarts
   * (default true): kubeconfigs downloaded before a restart keep working, as on a real cluster.
   */
  persist?: boolean;
}

export interface SandboxCluster {
  /** https://127.0.0.1:PORT */
  url: string;
  caPem: string;
  adminToken: string;
  store: ObjectStore;
  /** How many `logs -f` readers follow the pod's containers right now (tests check streams stop). */
  logFollowers(namespace: string, pod: string): number;
  /**
   * Test driving of the simulated kubelets (every Node has one: sandbox-node-1..3 and each Node
   * created through the API). Unknown node names throw.
   * setNodeCondition: what the node's kubelet reports for a condition (e.g. 'DiskPressure', 'True'),
   * with the kubelet's standard reason/message unless given; posted at once when the kubelet runs.
   * Answers the Node as stored then.
   */
  setNodeCondition(name: string, type: string, status: 'True' | 'False' | 'Unknown', wording?: { reason?: string; message?: string }): KubeObject | undefined;
  /** The kubelet stops posting; nodeMonitorGraceMs after its last post the conditions become Unknown (NodeStatusUnknown). */
  stopKubelet(name: string): void;
  /** The kubelet posts its conditions again at once, then heartbeats. */
  startKubelet(name: string): void;
  kubeletRunning(name: string): boolean;
  close(): Promise<void>;
}

const VERSION = {
  major: '1',
  minor: '32',
  gitVersion: 'v1.32.0+testbed.sandbox',
  gitCommit: '0000000000000000000000000000000000000000',
  gitTreeState: 'clean',
  buildDate: '2026-01-01T00:00:00Z',
  goVersion: 'go1.23.4',
  compiler: 'gc',
  platform: 'linux/amd64',
};

const PUBLIC_PATHS = new Set(['/version', '/healthz', '/livez', '/readyz']);
const MAX_BODY = 3 * 1024 * 1024;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

interface Route {
  type: ResourceType;
  namespace?: string;
  name?: string;
  subresource?: string;
}

const timestamp = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

export async function startSandboxCluster(options: SandboxClusterOptions): Promise<SandboxCluster> {
  const dir = join(options.storageDir, 'sandbox-cluster');
  const certificates = loadOrCreateCertificates(dir);
  const adminToken = loadOrCreateAdminToken(dir);
  const store = new ObjectStore();
  const runtime = new SandboxRuntime(store, { ...DEFAULT_TIMINGS, ...options.timings });
  const host = options.host ?? '127.0.0.1';
  let serverAddress = host;

  // ---------------------------------------------------------------------------------------
  // Initial state

  const namespaceObject = (name: string): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name, labels: { 'kubernetes.io/metadata.name': name } },
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Active' },
  });

  function namespaceCreated(name: string) {
    store.create('serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: name } });
    store.create('configmaps', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'kube-root-ca.crt', namespace: name, annotations: { 'kubernetes.io/description': "Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters." } },
      data: { 'ca.crt': certificates.caPem },
    });
  }

  // The state of the last run, if kept (see persist); the built-in objects are there either way.
  const stateFile = join(dir, 'state.json');
  const persist = options.persist !== false;
  const restored = persist ? loadState(store, stateFile) : false;
  for (const name of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
    if (store.get('namespaces', undefined, name)) continue;
    store.create('namespaces', namespaceObject(name));
    namespaceCreated(name);
  }
  for (const role of defaultClusterRoles()) {
    if (!store.get('clusterroles', undefined, role.metadata.name)) store.create('clusterroles', role);
  }
  runtime.start();
  if (restored) {
    runtime.resume(store.list('pods'), (pod) => {
      runtime.stopped(pod.metadata.namespace!, pod.metadata.name);
      store.delete('pods', pod.metadata.namespace, pod.metadata.name);
    });
  }

  // Saved a moment after changes (a burst of writes is one save), and on close.
  let saveTimer: NodeJS.Timeout | undefined;
  const save = () => {
    clearTimeout(saveTimer);
    saveTimer = undefined;
    if (persist) saveState(store, stateFile);
  };
  const saveSoon = () => {
    if (persist && !saveTimer) {
      saveTimer = setTimeout(save, 250);
      saveTimer.unref();
    }
  };
  store.events.on('event', saveSoon);

  // ---------------------------------------------------------------------------------------
  // HTTP plumbing

  function send(res: ServerResponse, code: number, body: unknown) {
    const text = JSON.stringify(body);
    res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), 'Cache-Control': 'no-cache, private' });
    res.end(text);
  }

  async function readBody(req: IncomingMessage): Promise<unknown> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY) throw new ApiError(413, 'RequestEntityTooLarge', 'Request entity too large: limit is 3145728');
      chunks.push(chunk as Buffer);
    }
    const text = Buffer.concat(chunks).toString('utf8');
    if (!text.trim()) return undefined;
    const type = (req.headers['content-type'] ?? 'application/json').split(';')[0].trim().toLowerCase();
    if (!type.endsWith('json')) throw unsupportedMediaType(type);
    try {
      return JSON.parse(text);
    } catch (error) {
      throw badRequest(`the body of the request could not be decoded: ${(error as Error).message}`);
    }
  }

  async function objectBody(req: IncomingMessage, type: ResourceType): Promise<KubeObject> {
    const body = await readBody(req);
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest('the request body must be a JSON object');
    const object = body as KubeObject;
    if (object.kind && object.kind !== type.kind) throw badRequest(`the kind of the provided object (${object.kind}) does not match the resource (${type.kind})`);
    if (object.apiVersion && object.apiVersion !== apiVersionOf(type)) throw badRequest(`the API version in the data (${object.apiVersion}) does not match the expected API version (${apiVersionOf(type)})`);
    object.kind = type.kind;
    object.apiVersion = apiVersionOf(type);
    object.metadata = typeof object.metadata === 'object' && object.metadata ? object.metadata : ({} as KubeObject['metadata']);
    return object;
  }

  // ---------------------------------------------------------------------------------------
  // Routing

  function route(segments: string[]): Route | 'discovery' {
    let group: string;
    let version: string;
    let rest: string[];
    if (segments[0] === 'api') {
      if (segments.length === 1) return 'discovery';
      [group, version, rest] = ['', segments[1], segments.slice(2)];
    } else if (segments[0] === 'apis') {
      if (segments.length <= 2) return 'discovery';
      [group, version, rest] = [segments[1], segments[2], segments.slice(3)];
    } else throw routeNotFound();
    if (rest.length === 0) return 'discovery';
    if (rest[0] === 'namespaces' && rest.length >= 3) {
      const nested = findResource(group, version, rest[2]);
      if (nested?.namespaced) {
        if (rest.length > 5) throw routeNotFound();
        return { type: nested, namespace: rest[1], name: rest[3], subresource: rest[4] };
      }
    }
    const type = findResource(group, version, rest[0]);
    if (!type || rest.length > 3) throw routeNotFound();
    if (type.namespaced && rest.length > 1) throw routeNotFound();
    return { type, name: rest[1], subresource: rest[2] };
  }

  function discovery(segments: string[]) {
    if (segments.length === 1) return segments[0] === 'api' ? apiVersions(serverAddress) : apiGroupList();
    if (segments[0] === 'apis' && segments.length === 2) {
      if (!GROUPS.includes(segments[1])) throw routeNotFound();
      return apiGroup(segments[1]);
    }
    const list = segments[0] === 'api' ? apiResourceList('', segments[1]) : apiResourceList(segments[1], segments[2]);
    if (!list) throw routeNotFound();
    return list;
  }

  function verbOf(method: string, r: Route, query: URLSearchParams): string {
    switch (method) {
      case 'GET':
      case 'HEAD':
        if (query.get('watch') === 'true' || query.get('watch') === '1') return 'watch';
        return r.name ? 'get' : 'list';
      case 'POST':
        return 'create';
      case 'PUT':
        return 'update';
      case 'PATCH':
        return 'patch';
      case 'DELETE':
        return r.name ? 'delete' : 'deletecollection';
      default:
        throw methodNotAllowed(method);
    }
  }

  // ---------------------------------------------------------------------------------------
  // Validation

  function validate(type: ResourceType, object: KubeObject) {
    const causes: StatusCause[] = [];
    const name = object.metadata.name ?? '';
    const required = (field: string) => causes.push({ reason: 'FieldValueRequired', message: 'Required value', field });
    const bad = (field: string, value: string, message: string) =>
      causes.push({ reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(value)}: ${message}`, field });
    if (!name) {
      if (!object.metadata.generateName) causes.push({ reason: 'FieldValueRequired', message: 'Required value: name or generateName is required', field: 'metadata.name' });
    } else if (type.resource === 'namespaces') {
      if (!DNS_LABEL.test(name) || name.length > 63)
        bad('metadata.name', name, "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')");
    } else if (type.group === 'rbac.authorization.k8s.io') {
      if (name === '.' || name === '..' || /[/%]/.test(name)) bad('metadata.name', name, 'may not contain \'/\' or \'%\'');
    } else if (!DNS_SUBDOMAIN.test(name) || name.length > 253) {
      bad('metadata.name', name, "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
    }
    if (type.resource === 'pods') {
      const containers = object.spec?.containers;
      if (!Array.isArray(containers) || containers.length === 0) required('spec.containers');
      else {
        const seen = new Set<string>();
        containers.forEach((c: KubeObject, i: number) => {
          if (!c?.name) required(`spec.containers[${i}].name`);
          else if (!DNS_LABEL.test(c.name)) bad(`spec.containers[${i}].name`, c.name, 'a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\'');
          else if (seen.has(c.name)) causes.push({ reason: 'FieldValueDuplicate', message: `Duplicate value: ${JSON.stringify(c.name)}`, field: `spec.containers[${i}].name` });
          else seen.add(c.name);
          if (!c?.image) required(`spec.containers[${i}].image`);
        });
      }
    }
    if (type.resource === 'rolebindings' || type.resource === 'clusterrolebindings') {
      if (!object.roleRef?.kind) required('roleRef.kind');
      if (!object.roleRef?.name) required('roleRef.name');
      (object.subjects ?? []).forEach((s: KubeObject, i: number) => {
        if (!['ServiceAccount', 'User', 'Group'].includes(String(s?.kind))) bad(`subjects[${i}].kind`, String(s?.kind ?? ''), 'supported values: "Group", "ServiceAccount", "User"');
        if (!s?.name) required(`subjects[${i}].name`);
      });
    }
    if (type.resource === 'secrets' && object.data) {
      for (const [key, value] of Object.entries(object.data)) {
        if (typeof value !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(value)) bad(`data[${key}]`, '<secret contents redacted>', 'must be base64-encoded');
      }
    }
    if (causes.length) throw invalid(type.kind, type.group, name, causes);
  }

  // ---------------------------------------------------------------------------------------
  // Handlers

  const storeError = (error: unknown, type: ResourceType, name: string) => {
    if (error instanceof StoreError) {
      if (error.reason === 'NotFound') return notFound(type.resource, type.group, name);
      if (error.reason === 'AlreadyExists') return alreadyExists(type.resource, type.group, name);
      return conflict(type.resource, type.group, name, error.message);
    }
    return error;
  };

  const withKind = (type: ResourceType, object: KubeObject) => ({ ...object, apiVersion: apiVersionOf(type), kind: type.kind });

  function requireNamespace(namespace: string | undefined) {
    if (namespace !== undefined && !store.get('namespaces', undefined, namespace)) throw notFound('namespaces', '', namespace);
  }

  function getObject(r: Route): KubeObject {
    const object = store.get(r.type.resource, r.namespace, r.name!);
    if (!object) throw notFound(r.type.resource, r.type.group, r.name!);
    return withKind(r.type, object);
  }

  function list(r: Route, query: URLSearchParams, table: boolean) {
    const byLabel = labelSelector(query.get('labelSelector'));
    const byField = fieldSelector(query.get('fieldSelector'));
    const matching = store.list(r.type.resource, r.namespace).filter((o) => byLabel(o) && byField(o));
    if (table) return toTable(r.type.resource, matching.map((o) => withKind(r.type, o)), store.resourceVersion, query.get('includeObject'));
    const items = matching.map(({ kind: _kind, apiVersion: _apiVersion, ...item }) => item);
    return { kind: `${r.type.kind}List`, apiVersion: apiVersionOf(r.type), metadata: { resourceVersion: store.resourceVersion }, items };
  }

  function create(r: Route, object: KubeObject, identity: Identity): KubeObject {
    const type = r.type;
    if (type.namespaced) {
      if (object.metadata.namespace && object.metadata.namespace !== r.namespace)
        throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
      object.metadata.namespace = r.namespace;
    } else delete object.metadata.namespace;
    for (const field of ['uid', 'resourceVersion', 'creationTimestamp', 'deletionTimestamp']) delete object.metadata[field];
    validate(type, object);
    requireNamespace(r.namespace);
    switch (type.resource) {
      case 'namespaces':
        object.metadata.labels = { ...object.metadata.labels, 'kubernetes.io/metadata.name': object.metadata.name };
        object.spec = { finalizers: ['kubernetes'] };
        object.status = { phase: 'Active' };
        break;
      case 'pods':
        runtime.prepare(object);
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
    let created: KubeObject;
    try {
      created = store.create(type.resource, object);
    } catch (error) {
      throw storeError(error, type, object.metadata.name);
    }
    if (type.resource === 'namespaces') namespaceCreated(created.metadata.name);
    if (type.resource === 'pods') runtime.admitted(created);
    if (type.resource === 'nodes') {
      store.nodeCreators.set(created.metadata.name, identity.user);
      runtime.nodes.registered(created);
    }
    return withKind(type, created);
  }

  function replace(r: Route, object: KubeObject): KubeObject {
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
    if (type.resource === 'pods' || type.resource === 'namespaces') {
      object.status = current.status; // status belongs to the status subresource
      if (type.resource === 'pods') object.spec = { ...current.spec, containers: current.spec.containers.map((c: KubeObject, i: number) => ({ ...c, image: object.spec?.containers?.[i]?.image ?? c.image })) };
      if (type.resource === 'namespaces') object.spec = current.spec;
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

  async function patch(req: IncomingMessage, r: Route): Promise<KubeObject> {
    const contentType = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    const body = await readBody(req);
    const current = getObject(r);
    let next: KubeObject;
    if (contentType === 'application/merge-patch+json' || contentType === 'application/strategic-merge-patch+json') {
      next = mergePatch(current, body) as KubeObject;
    } else if (contentType === 'application/json-patch+json') {
      next = jsonPatch(current, body);
    } else throw unsupportedMediaType(contentType || 'none');
    if (!next || typeof next !== 'object') throw badRequest('the patch must produce an object');
    next.metadata = { ...next.metadata, resourceVersion: (body as KubeObject)?.metadata?.resourceVersion };
    return replace(r, next);
  }

  function remove(r: Route, query: URLSearchParams, options: KubeObject | undefined): KubeObject {
    const type = r.type;
    const current = getObject(r);
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
      case 'namespaces': {
        if (['default', 'kube-system', 'kube-public'].includes(name)) throw forbidden(`namespaces "${name}" is forbidden: this namespace may not be deleted`, 'namespaces', '', name);
        for (const t of RESOURCES.filter((t) => t.namespaced)) {
          for (const o of store.list(t.resource, name)) {
            if (t.resource === 'pods') runtime.stopped(name, o.metadata.name);
            store.delete(t.resource, name, o.metadata.name);
          }
        }
        erase();
        return { ...current, metadata: { ...current.metadata, deletionTimestamp: timestamp() }, status: { phase: 'Terminating' } };
      }
      case 'pods': {
        if (current.metadata.deletionTimestamp) return current;
        const requested = query.get('gracePeriodSeconds') ?? options?.gracePeriodSeconds;
        const graceMs = requested !== undefined && requested !== null && Number(requested) === 0 ? 0 : runtime.timings.terminationMs;
        if (graceMs > 0 && current.status?.phase === 'Running') {
          const terminating = store.modify('pods', r.namespace, name, (p) => {
            p.metadata.deletionTimestamp = new Date(Date.now() + graceMs).toISOString().replace(/\.\d+Z$/, 'Z');
            p.metadata.deletionGracePeriodSeconds = Math.ceil(graceMs / 1000);
          })!;
          runtime.terminate(terminating, graceMs, () => {
            if (store.get('pods', r.namespace, name)?.metadata.uid === current.metadata.uid) store.delete('pods', r.namespace, name);
          });
          return withKind(type, terminating);
        }
        runtime.stopped(r.namespace!, name);
        return withKind(type, erase());
      }
      case 'nodes': {
        const gone = erase();
        store.nodeCreators.delete(name);
        runtime.nodes.removed(name);
        return withKind(type, gone);
      }
      default:
        erase();
        if (type.resource === 'serviceaccounts') {
          for (const [token, issued] of store.tokens) if (issued.namespace === r.namespace && issued.serviceAccount === name) store.tokens.delete(token);
        }
        return current;
    }
  }

  /** `kubectl auth whoami`: who the request's credentials are. */
  function selfSubjectReview(identity: Identity) {
    return {
      kind: 'SelfSubjectReview',
      apiVersion: 'authentication.k8s.io/v1',
      metadata: { creationTimestamp: null },
      status: { userInfo: { username: identity.user, groups: identity.groups } },
    };
  }

  function tokenRequest(r: Route, body: KubeObject | undefined): KubeObject {
    const account = store.get('serviceaccounts', r.namespace, r.name!);
    if (!account) throw notFound('serviceaccounts', '', r.name!);
    if (body?.kind && body.kind !== 'TokenRequest') throw badRequest(`the kind of the provided object (${body.kind}) does not match TokenRequest`);
    const seconds = body?.spec?.expirationSeconds ?? 3600;
    if (!Number.isInteger(seconds) || seconds < 600)
      throw invalid('TokenRequest', 'authentication.k8s.io', r.name!, [{ reason: 'FieldValueInvalid', message: 'may not specify a duration less than 10 minutes', field: 'spec.expirationSeconds' }]);
    if (seconds > 2 ** 32)
      throw invalid('TokenRequest', 'authentication.k8s.io', r.name!, [{ reason: 'FieldValueTooLong', message: 'may not specify a duration larger than 2^32 seconds', field: 'spec.expirationSeconds' }]);
    const token = `sandbox-sa.${randomBytes(32).toString('base64url')}`;
    const expiresAt = Date.now() + seconds * 1000;
    store.tokens.set(token, { namespace: r.namespace!, serviceAccount: r.name!, serviceAccountUid: account.metadata.uid!, expiresAt });
    saveSoon();
    return {
      kind: 'TokenRequest',
      apiVersion: 'authentication.k8s.io/v1',
      metadata: { name: r.name!, namespace: r.namespace, creationTimestamp: null as unknown as string },
      spec: { audiences: body?.spec?.audiences?.length ? body.spec.audiences : ['https://kubernetes.default.svc.cluster.local'], expirationSeconds: seconds, boundObjectRef: body?.spec?.boundObjectRef ?? null },
      status: { token, expirationTimestamp: new Date(expiresAt).toISOString().replace(/\.\d+Z$/, 'Z') },
    };
  }

  function logs(r: Route, query: URLSearchParams, req: IncomingMessage, res: ServerResponse) {
    const pod = getObject(r);
    const names: string[] = pod.spec.containers.map((c: KubeObject) => c.name);
    let container = query.get('container');
    if (!container) {
      if (names.length > 1) throw badRequest(`a container name must be specified for pod ${pod.metadata.name}, choose one of: [${names.join(' ')}]`);
      container = names[0];
    }
    if (!names.includes(container)) throw badRequest(`container ${container} is not valid for pod ${pod.metadata.name}`);
    if (query.get('previous') === 'true') throw badRequest(`previous terminated container "${container}" in pod "${pod.metadata.name}" not found`);
    const log = runtime.log(r.namespace!, r.name!, container);
    if (!log) throw badRequest(`container "${container}" in pod "${pod.metadata.name}" is waiting to start: ContainerCreating`);
    const number = (key: string) => {
      const value = query.get(key);
      if (value === null) return undefined;
      const n = Number(value);
      if (!Number.isInteger(n) || n < 0) throw badRequest(`${key}: Invalid value: ${JSON.stringify(value)}: must be greater than or equal to 0`);
      return n;
    };
    const tailLines = number('tailLines');
    let remaining = number('limitBytes') ?? Infinity;
    const sinceSeconds = number('sinceSeconds');
    const withTimestamps = query.get('timestamps') === 'true';
    const format = (line: { time: string; text: string }) => `${withTimestamps ? `${line.time.replace(/Z$/, '000000Z')} ` : ''}${line.text}\n`;
    let lines = log.lines;
    if (sinceSeconds !== undefined) lines = lines.filter((l) => Date.parse(l.time) >= Date.now() - sinceSeconds * 1000);
    if (tailLines !== undefined) lines = tailLines === 0 ? [] : lines.slice(-tailLines);
    res.writeHead(200, { 'Content-Type': 'text/plain', 'Cache-Control': 'no-cache, private' });
    const write = (text: string) => {
      const bytes = Buffer.from(text);
      const out = bytes.length > remaining ? bytes.subarray(0, remaining) : bytes;
      remaining -= out.length;
      if (out.length) res.write(out);
      return remaining > 0;
    };
    let open = true;
    for (const line of lines) if (!(open = write(format(line)))) break;
    if (!open || !(query.get('follow') === 'true' || query.get('follow') === '1')) {
      res.end();
      return;
    }
    const onLine = (line: { time: string; text: string }) => {
      if (!write(format(line))) finish();
    };
    const finish = () => {
      log.emitter.off('line', onLine);
      log.emitter.off('end', finish);
      if (!res.writableEnded) res.end();
    };
    log.emitter.on('line', onLine);
    log.emitter.once('end', finish);
    req.once('close', finish);
    res.once('close', finish);
  }

  function watch(r: Route, query: URLSearchParams, req: IncomingMessage, res: ServerResponse, identity: Identity) {
    const byLabel = labelSelector(query.get('labelSelector'));
    const byField = fieldSelector(query.get('fieldSelector'));
    const matchesRoute = (e: { resource: string; object: KubeObject }) =>
      e.resource === r.type.resource &&
      (r.namespace === undefined || e.object.metadata.namespace === r.namespace) &&
      (r.name === undefined || e.object.metadata.name === r.name) &&
      byLabel(e.object) &&
      byField(e.object);
    const table = wantsTable(req.headers.accept);
    const present = (object: KubeObject) =>
      table ? toTable(r.type.resource, [withKind(r.type, object)], object.metadata.resourceVersion, query.get('includeObject')) : withKind(r.type, object);
    const since = query.get('resourceVersion');
    let backlog: { type: string; object: unknown }[];
    if (!since || since === '0') {
      backlog = store.list(r.type.resource, r.namespace).filter((object) => matchesRoute({ resource: r.type.resource, object })).map((object) => ({ type: 'ADDED', object: present(object) }));
    } else {
      if (!/^\d+$/.test(since)) throw badRequest(`invalid resource version: ${since}`);
      const events = store.eventsSince(Number(since));
      if (!events) {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ type: 'ERROR', object: statusBody(410, 'Expired', `too old resource version: ${since} (${store.resourceVersion})`) }) + '\n');
        return;
      }
      backlog = events.filter(matchesRoute).map((e) => ({ type: e.type, object: present(e.object) }));
    }
    res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked', 'Cache-Control': 'no-cache, private' });
    res.flushHeaders();
    const write = (event: unknown) => res.write(JSON.stringify(event) + '\n');
    for (const event of backlog) write(event);
    const onEvent = (e: StoreEvent) => {
      if (!matchesRoute(e)) return;
      // a service account loses its watch when it loses the right to watch
      if (!identity.admin && !authorize(store, identity, { verb: 'watch', group: r.type.group, resource: r.type.resource, namespace: r.namespace })) return finish();
      write({ type: e.type, object: present(e.object) });
    };
    const timeoutSeconds = Number(query.get('timeoutSeconds') ?? 1800);
    const timer = setTimeout(() => finish(), Math.min(Math.max(timeoutSeconds, 1), 3600) * 1000);
    timer.unref();
    const finish = () => {
      clearTimeout(timer);
      store.events.off('event', onEvent);
      if (!res.writableEnded) res.end();
    };
    store.events.on('event', onEvent);
    req.once('close', finish);
    res.once('close', finish);
    closers.add(finish);
    res.once('close', () => closers.delete(finish));
  }

  // ---------------------------------------------------------------------------------------
  // The request handler

  const closers = new Set<() => void>();

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'https://sandbox');
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const method = req.method ?? 'GET';
    const query = url.searchParams;
    if (PUBLIC_PATHS.has(path)) {
      if (method !== 'GET') throw methodNotAllowed(method);
      if (path === '/version') return send(res, 200, VERSION);
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      return res.end('ok');
    }
    const identity = authenticate(store, adminToken, req.headers.authorization, path);
    if (!identity) throw unauthorized();
    const segments = path.split('/').filter(Boolean).map(decodeURIComponent);
    const r = route(segments);
    if (r === 'discovery') {
      if (method !== 'GET') throw methodNotAllowed(method);
      return send(res, 200, discovery(segments));
    }
    const verb = verbOf(method, r, query);
    const attributes: RequestAttributes = {
      verb,
      group: r.type.group,
      resource: r.type.resource,
      subresource: r.subresource,
      // a namespace is, for authorization, in itself
      namespace: r.type.resource === 'namespaces' ? r.name : r.namespace,
      name: r.name,
    };
    if (!authorize(store, identity, attributes)) {
      throw forbidden(forbiddenMessage(identity, attributes, qualifiedName(r.type)), r.type.resource, r.type.group, r.name);
    }

    if (r.subresource) {
      const sub = `${r.type.resource}/${r.subresource}`;
      if (sub === 'pods/log' && verb === 'get') return logs(r, query, req, res);
      if (sub === 'serviceaccounts/token' && verb === 'create') {
        const body = (await readBody(req)) as KubeObject | undefined;
        return send(res, 201, tokenRequest(r, body));
      }
      if ((sub === 'pods/status' || sub === 'namespaces/status' || sub === 'nodes/status') && verb === 'get') return send(res, 200, getObject(r));
      if (sub === 'nodes/status' && verb === 'update') return send(res, 200, replace(r, await objectBody(req, r.type)));
      if (sub === 'nodes/status' && verb === 'patch') return send(res, 200, await patch(req, r));
      if (r.type.subresources?.some((s) => s.name === r.subresource) || sub === 'namespaces/status' || sub === 'namespaces/finalize') throw methodNotAllowed(method);
      throw routeNotFound();
    }

    if (!r.type.verbs.includes(verb)) throw methodNotAllowed(method);
    if (r.type.resource === 'selfsubjectreviews') return send(res, 201, selfSubjectReview(identity));
    const table = wantsTable(req.headers.accept);
    switch (verb) {
      case 'list':
        return send(res, 200, list(r, query, table));
      case 'watch':
        if (r.namespace) requireNamespace(r.namespace);
        return watch(r, query, req, res, identity);
      case 'get':
        if (table) return send(res, 200, toTable(r.type.resource, [getObject(r)], undefined, query.get('includeObject')));
        return send(res, 200, getObject(r));
      case 'create': {
        if (!r.type.verbs.includes('create')) throw methodNotAllowed(method);
        const object = await objectBody(req, r.type);
        if (query.get('dryRun') === 'All') {
          validate(r.type, object);
          return send(res, 201, withKind(r.type, object));
        }
        return send(res, 201, create(r, object, identity));
      }
      case 'update': {
        if (!r.type.verbs.includes('update')) throw methodNotAllowed(method);
        return send(res, 200, replace(r, await objectBody(req, r.type)));
      }
      case 'patch':
        if (!r.type.verbs.includes('patch')) throw methodNotAllowed(method);
        return send(res, 200, await patch(req, r));
      case 'delete': {
        if (!r.type.verbs.includes('delete')) throw methodNotAllowed(method);
        const options = (await readBody(req)) as KubeObject | undefined;
        return send(res, 200, remove(r, query, options));
      }
      default:
        throw methodNotAllowed(method);
    }
  }

  const server: Server = createServer({ cert: certificates.certPem, key: certificates.keyPem }, (req, res) => {
    handle(req, res).catch((error: unknown) => {
      const apiError =
        error instanceof ApiError ? error : new ApiError(500, 'InternalError', `Internal error occurred: ${(error as Error)?.message ?? String(error)}`);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      send(res, apiError.code, apiError.body);
    });
  });
  const sockets = new Set<Socket>();
  server.on('secureConnection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  // Without a port asked for, the one of the last run (kept next to the CA) if it is still
  // free: downloaded kubeconfigs name the server's address, so they then survive a restart.
  const portFile = join(dir, 'port');
  const lastPort = Number(existsSync(portFile) ? readFileSync(portFile, 'utf8').trim() : 0);
  if (options.port) await listen(options.port);
  else if (Number.isInteger(lastPort) && lastPort > 0 && lastPort < 65536) {
    await listen(lastPort).catch(() => listen(0));
  } else await listen(0);
  const { port } = server.address() as AddressInfo;
  if (!options.port) writeFileSync(portFile, `${port}\n`);
  serverAddress = `${host}:${port}`;
  const url = `https://${host.includes(':') ? `[${host}]` : host}:${port}`;

  // What `kubeadm init` publishes for token discovery, and the BootstrapSigner that keeps its
  // jws-kubeconfig-<id> signatures in step with the bootstrap tokens (on every token change,
  // and each heartbeat interval for expiries).
  // (Written afresh at every start: a restored one may name the previous run's port.)
  if (store.get('configmaps', 'kube-public', 'cluster-info')) store.delete('configmaps', 'kube-public', 'cluster-info');
  store.create('configmaps', clusterInfoConfigMap(certificates.caPem, url));
  let signerClosed = false;
  const sign = () => {
    if (!signerClosed) signClusterInfo(store);
  };
  // The signer's interval also runs the TokenCleaner (whose deletions re-sign through the event).
  const signAndClean = () => {
    if (signerClosed) return;
    cleanExpiredBootstrapTokens(store);
    sign();
  };
  const onTokenChange = (event: StoreEvent) => {
    if (event.resource === 'secrets' && event.object.metadata.namespace === 'kube-system') setImmediate(sign);
    if (event.resource === 'configmaps' && event.object.metadata.namespace === 'kube-public' && event.object.metadata.name === 'cluster-info' && event.type === 'ADDED') setImmediate(sign);
  };
  store.events.on('event', onTokenChange);
  const signer = setInterval(signAndClean, runtime.timings.heartbeatMs);
  signer.unref();

  return {
    url,
    caPem: certificates.caPem,
    adminToken,
    store,
    logFollowers: (namespace, pod) => runtime.logFollowers(namespace, pod),
    setNodeCondition: (name, type, status, wording) => runtime.nodes.setCondition(name, type, status, wording),
    stopKubelet: (name) => runtime.nodes.stopKubelet(name),
    startKubelet: (name) => runtime.nodes.startKubelet(name),
    kubeletRunning: (name) => runtime.nodes.kubeletRunning(name),
    async close() {
      signerClosed = true;
      clearInterval(signer);
      store.events.off('event', onTokenChange);
      store.events.off('event', saveSoon);
      runtime.stop();
      save();
      for (const finish of closers) finish();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
    },
  };
}

// ---------------------------------------------------------------------------------------
// Patches

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

/** RFC 6902 JSON patch: add, remove, replace, test. */
function jsonPatch(target: KubeObject, operations: unknown): KubeObject {
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

// ---------------------------------------------------------------------------------------
// State kept across restarts

/** Loads state.json into the store; false when there is none or it cannot be read (a fresh cluster then). */
function loadState(store: ObjectStore, file: string): boolean {
  if (!existsSync(file)) return false;
  try {
    store.restore(JSON.parse(readFileSync(file, 'utf8')) as StoreSnapshot);
    return true;
  } catch (error) {
    // A damaged file must not keep the console from starting: the reconciler rebuilds the
    // workspaces' objects in a fresh cluster.
    process.emitWarning(`sandbox cluster: ignoring ${file} (${(error as Error).message}); starting empty`);
    return false;
  }
}

/** Writes the snapshot atomically (a crash mid-write leaves the previous one). */
function saveState(store: ObjectStore, file: string) {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(store.snapshot()), { mode: 0o600 });
  renameSync(temporary, file);
}

