import { randomBytes, randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// The sandbox cluster's "etcd": objects per resource, one global resourceVersion counter,
// a short event history for watches that resume from a resourceVersion, and the bearer
// tokens the API server accepts. It lives in memory; the server saves a snapshot to
// <storageDir>/sandbox-cluster/state.json after changes and restores it at start, so
// namespaces, service accounts and the kubeconfig tokens issued survive a restart.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type KubeObject = { apiVersion?: string; kind?: string; metadata: ObjectMeta; [key: string]: any };

export interface ObjectMeta {
  name: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  creationTimestamp?: string;
  generateName?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  [key: string]: unknown;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface StoreEvent {
  resource: string;
  type: WatchEventType;
  object: KubeObject;
  resourceVersion: number;
}

export interface IssuedToken {
  namespace: string;
  serviceAccount: string;
  serviceAccountUid: string;
  expiresAt: number;
}

const HISTORY = 2000;

/** What is saved to disk: every object, the revision counter, the tokens still valid. */
export interface StoreSnapshot {
  version: 1;
  revision: number;
  objects: Record<string, KubeObject[]>;
  tokens: [string, IssuedToken][];
  nodeCreators: [string, string][];
}

const clone = <T>(value: T): T => structuredClone(value);

export class StoreError extends Error {
  constructor(
    readonly reason: 'NotFound' | 'AlreadyExists' | 'Conflict',
    message: string,
  ) {
    super(message);
  }
}

export class ObjectStore {
  private revision = 1;
  private readonly objects = new Map<string, Map<string, KubeObject>>();
  private readonly history: StoreEvent[] = [];
  readonly events = new EventEmitter();
  readonly tokens = new Map<string, IssuedToken>();
  /** Node name → the user who created that Node through the API (what the Node authorizer would know from the node's credentials). */
  readonly nodeCreators = new Map<string, string>();

  constructor() {
    this.events.setMaxListeners(0);
  }

  snapshot(now = Date.now()): StoreSnapshot {
    return {
      version: 1,
      revision: this.revision,
      objects: Object.fromEntries([...this.objects].map(([resource, bucket]) => [resource, [...bucket.values()]])),
      tokens: [...this.tokens].filter(([, issued]) => issued.expiresAt > now),
      nodeCreators: [...this.nodeCreators],
    };
  }

  /** Loads a snapshot into an empty store (no events: nothing is new to a watcher). */
  restore(snapshot: StoreSnapshot) {
    if (snapshot.version !== 1) throw new Error(`unknown sandbox state version ${String(snapshot.version)}`);
    this.revision = snapshot.revision;
    for (const [resource, objects] of Object.entries(snapshot.objects)) {
      const bucket = this.bucket(resource);
      for (const object of objects) bucket.set(ObjectStore.key(object.metadata.namespace, object.metadata.name), clone(object));
    }
    for (const [token, issued] of snapshot.tokens) this.tokens.set(token, issued);
    for (const [node, user] of snapshot.nodeCreators) this.nodeCreators.set(node, user);
  }

  get resourceVersion(): string {
    return String(this.revision);
  }

  private bucket(resource: string): Map<string, KubeObject> {
    let bucket = this.objects.get(resource);
    if (!bucket) this.objects.set(resource, (bucket = new Map()));
    return bucket;
  }

  private static key(namespace: string | undefined, name: string) {
    return `${namespace ?? ''}/${name}`;
  }

  private emit(resource: string, type: WatchEventType, object: KubeObject) {
    const event: StoreEvent = { resource, type, object: clone(object), resourceVersion: Number(object.metadata.resourceVersion) };
    this.history.push(event);
    if (this.history.length > HISTORY) this.history.shift();
    this.events.emit('event', event);
  }

  get(resource: string, namespace: string | undefined, name: string): KubeObject | undefined {
    const found = this.bucket(resource).get(ObjectStore.key(namespace, name));
    return found && clone(found);
  }

  list(resource: string, namespace?: string): KubeObject[] {
    const items = [...this.bucket(resource).values()].filter((o) => namespace === undefined || o.metadata.namespace === namespace);
    return items.map(clone).sort((a, b) =>
      (a.metadata.namespace ?? '').localeCompare(b.metadata.namespace ?? '') || a.metadata.name.localeCompare(b.metadata.name),
    );
  }

  /** Gives an object with only a generateName its name (one no stored object has). */
  assignGeneratedName(resource: string, object: KubeObject) {
    const bucket = this.bucket(resource);
    const meta = object.metadata;
    if (!meta.name && meta.generateName) {
      do meta.name = meta.generateName + randomBytes(3).toString('hex').slice(0, 5);
      while (bucket.has(ObjectStore.key(meta.namespace, meta.name)));
    }
  }

  create(resource: string, object: KubeObject): KubeObject {
    const bucket = this.bucket(resource);
    const meta = object.metadata;
    this.assignGeneratedName(resource, object);
    const key = ObjectStore.key(meta.namespace, meta.name);
    if (bucket.has(key)) throw new StoreError('AlreadyExists', `${resource} "${meta.name}" already exists`);
    const stored = clone(object);
    stored.metadata = {
      ...stored.metadata,
      // a uid chosen by the server beforehand (a Job's selector names it), else a new one
      uid: stored.metadata.uid ?? randomUUID(),
      resourceVersion: String(++this.revision),
      creationTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    };
    bucket.set(key, stored);
    this.emit(resource, 'ADDED', stored);
    return clone(stored);
  }

  /** Replaces an object; a non-empty resourceVersion in `object` must match (optimistic lock). */
  update(resource: string, object: KubeObject): KubeObject {
    const bucket = this.bucket(resource);
    const key = ObjectStore.key(object.metadata.namespace, object.metadata.name);
    const current = bucket.get(key);
    if (!current) throw new StoreError('NotFound', `${resource} "${object.metadata.name}" not found`);
    const expected = object.metadata.resourceVersion;
    if (expected && expected !== current.metadata.resourceVersion) {
      throw new StoreError(
        'Conflict',
        `Operation cannot be fulfilled on ${resource} "${object.metadata.name}": the object has been modified; please apply your changes to the latest version and try again`,
      );
    }
    const stored = clone(object);
    stored.metadata = {
      ...stored.metadata,
      uid: current.metadata.uid,
      creationTimestamp: current.metadata.creationTimestamp,
      resourceVersion: String(++this.revision),
    };
    bucket.set(key, stored);
    this.emit(resource, 'MODIFIED', stored);
    return clone(stored);
  }

  /** Reads, changes and writes back an object; returns undefined when it is gone. */
  modify(resource: string, namespace: string | undefined, name: string, change: (object: KubeObject) => void): KubeObject | undefined {
    const current = this.get(resource, namespace, name);
    if (!current) return undefined;
    change(current);
    current.metadata.resourceVersion = undefined;
    return this.update(resource, current);
  }

  delete(resource: string, namespace: string | undefined, name: string): KubeObject {
    const bucket = this.bucket(resource);
    const key = ObjectStore.key(namespace, name);
    const current = bucket.get(key);
    if (!current) throw new StoreError('NotFound', `${resource} "${name}" not found`);
    bucket.delete(key);
    const gone = clone(current);
    gone.metadata.resourceVersion = String(++this.revision);
    this.emit(resource, 'DELETED', gone);
    return clone(gone);
  }

  /** Events after `resourceVersion`, or undefined when the history no longer reaches back that far. */
  eventsSince(resourceVersion: number): StoreEvent[] | undefined {
    const oldest = this.history[0]?.resourceVersion ?? this.revision + 1;
    if (resourceVersion + 1 < oldest && this.history.length >= HISTORY) return undefined;
    return this.history.filter((e) => e.resourceVersion > resourceVersion).map(clone);
  }
}

/** The admin token of <dir>/admin-token, created on first use. */
export function loadOrCreateAdminToken(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, 'admin-token');
  if (existsSync(file)) {
    const token = readFileSync(file, 'utf8').trim();
    if (token) return token;
  }
  const token = `sandbox-admin.${randomBytes(32).toString('base64url')}`;
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return token;
}
