import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { authenticate, authorize, defaultClusterRoles, forbiddenMessage, type RequestAttributes } from './authorization.js';
import { cleanExpiredBootstrapTokens, clusterInfoConfigMap, signClusterInfo } from './bootstrap.js';
import { loadOrCreateCertificates } from './certificates.js';
import type { ApiContext } from './context.js';
import { namespaceCreated, namespaceObject } from './namespaces.js';
import { admitPodWrite, admitQuota, create, defaultPodResources, getObject, list, patch, remove, replace, requireNamespace, withKind } from './objects.js';
import { warningHeader } from './podSecurity.js';
import { checkFields } from './fieldValidation.js';
import { openApiDocument, openApiIndex } from './openapi.js';
import { OPENAPI_V2_PROTOBUF, OPENAPI_V2_PROTOBUF_CONTENT_TYPE, openApiV2Json, openApiV2Protobuf } from './openapiV2.js';
import { loadState, nextSaveDelay, saveState, writeStateInSlices } from './persistence.js';
import { podLogs } from './pods.js';
import { QuotaStatusKeeper } from './resourceQuota.js';
import { qualifiedName } from './resources.js';
import { discovery, route, verbOf } from './routing.js';
import { DEFAULT_TIMINGS, SandboxRuntime, type RuntimeTimings } from './runtime.js';
import { ApiError, forbidden, methodNotAllowed, routeNotFound, unauthorized } from './status.js';
import { loadOrCreateAdminToken, ObjectStore, type KubeObject, type StoreEvent } from './store.js';
import { toTable, wantsTable } from './table.js';
import { selfSubjectReview, tokenRequest } from './tokens.js';
import { validate } from './validation.js';
import { watch } from './watch.js';
import { prepareWorkload, throwIfInvalid, validateWorkload, WORKLOAD_KINDS } from './workloads/admission.js';
import { WorkloadControllers } from './workloads/controllers.js';
import { scaleRequest } from './workloads/scale.js';
import { objectBody, readBody, send } from './wire.js';

// A faithful double of the Kubernetes API server for CLUSTER=sandbox: HTTPS on loopback,
// JSON answers, the subset of the API the console's gateway and kubectl use. See docs/cluster.md.
// This file starts it and routes requests; the verbs are objects.ts, with what each resource
// adds in namespaces.ts, pods.ts, tokens.ts, kubelets.ts and workloads/ (Deployments,
// ReplicaSets, Jobs, Services, claims and their controllers); watches are watch.ts.

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
  /**
   * Host names and IPv4 addresses the serving certificate must name besides localhost and
   * 127.0.0.1: a standalone sandbox (npm run sandbox) reached by several console replicas.
   */
  serverNames?: string[];
  /** The address put in its URL (kubeconfigs) when `host` is a wildcard such as 0.0.0.0. */
  publicHost?: string;
  /** Told of every authenticated API request (the standalone sandbox's audit log). */
  onRequest?: (request: { verb: string; path: string; user: string }) => void;
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

export async function startSandboxCluster(options: SandboxClusterOptions): Promise<SandboxCluster> {
  const dir = join(options.storageDir, 'sandbox-cluster');
  const certificates = loadOrCreateCertificates(dir, [...(options.serverNames ?? []), ...(options.publicHost ? [options.publicHost] : [])]);
  const adminToken = loadOrCreateAdminToken(dir);
  const store = new ObjectStore();
  const runtime = new SandboxRuntime(store, { ...DEFAULT_TIMINGS, ...options.timings });
  const host = options.host ?? '127.0.0.1';
  let serverAddress = host;

  // ---------------------------------------------------------------------------------------
  // Initial state

  // The state of the last run, if kept (see persist); the built-in objects are there either way.
  const stateFile = join(dir, 'state.json');
  const persist = options.persist !== false;
  const restored = persist ? loadState(store, stateFile) : false;
  for (const name of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
    if (store.get('namespaces', undefined, name)) continue;
    store.create('namespaces', namespaceObject(name));
    namespaceCreated({ store, caPem: certificates.caPem }, name);
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

  // The quota controller: status.hard and status.used of every ResourceQuota, kept as objects
  // come and go (restored quotas are recounted at once).
  const quotaStatus = new QuotaStatusKeeper(store);

  // Saved a moment after changes (a burst of writes is one save; longer as the state grows,
  // persistence.ts nextSaveDelay), and on close.
  // While running, saves are written in slices (persistence.ts writeStateInSlices) so that
  // requests go on meanwhile; the last one, on close, at once.
  let saveTimer: NodeJS.Timeout | undefined;
  let lastSaveMs = 0;
  let saving: Promise<void> | undefined;
  let changedWhileSaving = false;
  const saveInSlices = () => {
    saveTimer = undefined;
    if (saving) {
      changedWhileSaving = true;
      return;
    }
    const started = performance.now();
    saving = writeStateInSlices(store, stateFile)
      .catch((error: unknown) => process.emitWarning(`sandbox cluster: could not save ${stateFile} (${(error as Error).message})`))
      .finally(() => {
        lastSaveMs = performance.now() - started;
        saving = undefined;
        if (changedWhileSaving) {
          changedWhileSaving = false;
          saveSoon();
        }
      });
  };
  const saveNow = async () => {
    clearTimeout(saveTimer);
    saveTimer = undefined;
    if (!persist) return;
    await saving;
    saveState(store, stateFile);
  };
  const saveSoon = () => {
    if (persist && !saveTimer) {
      saveTimer = setTimeout(saveInSlices, nextSaveDelay(lastSaveMs));
      saveTimer.unref();
    }
  };
  store.events.on('event', saveSoon);

  const closers = new Set<() => void>();
  const context: ApiContext = { store, runtime, caPem: certificates.caPem, saveSoon, closers };
  // Deployments, ReplicaSets, Jobs and the garbage collector (workloads/)
  const workloads = new WorkloadControllers(context, runtime.timings.heartbeatMs);

  // ---------------------------------------------------------------------------------------
  // The request handler


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
    if (path === '/openapi/v2') {
      if (method !== 'GET') throw methodNotAllowed(method);
      if (!(req.headers.accept ?? '').includes(OPENAPI_V2_PROTOBUF)) return send(res, 200, openApiV2Json());
      const bytes = openApiV2Protobuf();
      res.writeHead(200, { 'Content-Type': OPENAPI_V2_PROTOBUF_CONTENT_TYPE, 'Content-Length': bytes.length, 'Cache-Control': 'no-cache, private' });
      return res.end(bytes);
    }
    if (path === '/openapi/v3' || path.startsWith('/openapi/v3/')) {
      if (method !== 'GET') throw methodNotAllowed(method);
      if (path === '/openapi/v3') return send(res, 200, openApiIndex());
      const text = openApiDocument(path.slice('/openapi/v3/'.length));
      // Documents are addressed by their hash in the index, so clients may keep them.
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), 'Cache-Control': url.searchParams.has('hash') ? 'public, immutable' : 'no-cache, private' });
      return res.end(text);
    }
    const segments = path.split('/').filter(Boolean).map(decodeURIComponent);
    const r = route(segments);
    if (r === 'discovery') {
      if (method !== 'GET') throw methodNotAllowed(method);
      return send(res, 200, discovery(segments, serverAddress));
    }
    const verb = verbOf(method, r, query);
    options.onRequest?.({ verb, path, user: identity.user });
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
      if (sub === 'pods/log' && verb === 'get') return podLogs(context, getObject(context, r), r, query, req, res);
      if (sub === 'serviceaccounts/token' && verb === 'create') {
        const body = (await readBody(req)) as KubeObject | undefined;
        return send(res, 201, tokenRequest(context, r, body));
      }
      if (r.subresource === 'scale' && r.type.subresources?.some((s) => s.name === 'scale')) return send(res, 200, await scaleRequest(context, r, verb, req));
      const status = r.subresource === 'status' && r.type.subresources?.find((s) => s.name === 'status');
      if ((status || sub === 'namespaces/status') && verb === 'get') return send(res, 200, getObject(context, r));
      if (status && status.verbs.includes('update') && verb === 'update') return send(res, 200, replace(context, r, await objectBody(req, r.type)));
      if (status && status.verbs.includes('patch') && verb === 'patch') return send(res, 200, await patch(context, req, r));
      if (r.type.subresources?.some((s) => s.name === r.subresource) || sub === 'namespaces/status' || sub === 'namespaces/finalize') throw methodNotAllowed(method);
      throw routeNotFound();
    }

    if (!r.type.verbs.includes(verb)) throw methodNotAllowed(method);
    if (r.type.resource === 'selfsubjectreviews') return send(res, 201, selfSubjectReview(identity));
    const table = wantsTable(req.headers.accept);
    // Admission warnings (Pod Security's warn level), sent as kube-apiserver's Warning headers.
    const warnings: string[] = [];
    const sendWritten = (code: number, body: unknown) => send(res, code, body, warnings.length ? { Warning: warnings.map(warningHeader) } : {});
    switch (verb) {
      case 'list':
        return send(res, 200, list(context, r, query, table));
      case 'watch':
        if (r.namespace) requireNamespace(context, r.namespace);
        return watch(context, r, query, req, res, identity);
      case 'get':
        if (table) return send(res, 200, toTable(r.type.resource, [getObject(context, r)], undefined, query.get('includeObject')));
        return send(res, 200, getObject(context, r));
      case 'create': {
        if (!r.type.verbs.includes('create')) throw methodNotAllowed(method);
        const object = await objectBody(req, r.type);
        checkFields(r, object, query, warnings);
        if (query.get('dryRun') === 'All') {
          if (r.type.resource === 'pods') defaultPodResources(context, r.namespace!, object);
          validate(r.type, object);
          if (WORKLOAD_KINDS.has(r.type.resource)) {
            object.metadata.namespace = r.namespace;
            prepareWorkload(store, r.type.resource, object);
            throwIfInvalid(r.type.kind, r.type.group, object, validateWorkload(r.type.resource, object));
          }
          // Admission runs on dry runs too: a refused pod is refused, not echoed.
          if (r.type.resource === 'pods') admitPodWrite(context, r.namespace!, object, warnings);
          if (r.type.namespaced) admitQuota(context, r.type, r.namespace!, object);
          return sendWritten(201, withKind(r.type, object));
        }
        return sendWritten(201, create(context, r, object, identity, warnings));
      }
      case 'update': {
        if (!r.type.verbs.includes('update')) throw methodNotAllowed(method);
        const object = await objectBody(req, r.type);
        checkFields(r, object, query, warnings);
        return sendWritten(200, replace(context, r, object, warnings));
      }
      case 'patch':
        if (!r.type.verbs.includes('patch')) throw methodNotAllowed(method);
        return sendWritten(200, await patch(context, req, r, warnings, (body) => checkFields(r, body, query, warnings)));
      case 'delete': {
        if (!r.type.verbs.includes('delete')) throw methodNotAllowed(method);
        const options = (await readBody(req)) as KubeObject | undefined;
        return send(res, 200, remove(context, r, query, options));
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
  const urlHost = options.publicHost ?? (host === '0.0.0.0' ? '127.0.0.1' : host);
  const url = `https://${urlHost.includes(':') ? `[${urlHost}]` : urlHost}:${port}`;

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
      quotaStatus.stop();
      workloads.stop();
      runtime.stop();
      await saveNow();
      for (const finish of closers) finish();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
    },
  };
}
