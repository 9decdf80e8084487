import type { ApiContext } from '../context.js';
import { remove } from '../objects.js';
import { RESOURCES } from '../resources.js';
import { ApiError } from '../status.js';
import { type KubeObject, type StoreEvent, StoreError } from '../store.js';
import { controllerOf } from './common.js';
import { syncDeployment } from './deployments.js';
import { syncJob } from './jobs.js';
import { syncReplicaSet } from './replicaSets.js';

// The sandbox's kube-controller-manager for workloads: watches the store, queues the
// Deployments, ReplicaSets and Jobs whose objects changed (a pod's owner, a ReplicaSet's
// Deployment), syncs each once per turn of the event loop, and runs the garbage collector
// (dependents of a deleted owner go too). A periodic resync retries what admission refused
// (a pod beyond the quota) and notices progress deadlines.

const SYNCS: Record<string, (context: ApiContext, object: KubeObject) => void> = {
  deployments: syncDeployment,
  replicasets: syncReplicaSet,
  jobs: syncJob,
};

const OWNER_RESOURCE: Record<string, string> = { Deployment: 'deployments', ReplicaSet: 'replicasets', Job: 'jobs' };

export class WorkloadControllers {
  private readonly queue = new Set<string>();
  private scheduled = false;
  private closed = false;
  private readonly resync: NodeJS.Timeout;
  private readonly onEvent = (event: StoreEvent) => this.observe(event);

  constructor(
    private readonly context: ApiContext,
    resyncMs: number,
  ) {
    context.store.events.on('event', this.onEvent);
    this.resync = setInterval(() => this.enqueueAll(), resyncMs);
    this.resync.unref();
    this.enqueueAll(); // a restored state is brought in line at start
  }

  stop() {
    this.closed = true;
    clearInterval(this.resync);
    this.context.store.events.off('event', this.onEvent);
  }

  private enqueueAll(namespace?: string) {
    for (const resource of Object.keys(SYNCS)) for (const o of this.context.store.list(resource, namespace)) this.enqueue(resource, o.metadata.namespace!, o.metadata.name);
  }

  private enqueue(resource: string, namespace: string, name: string) {
    this.queue.add(`${resource}/${namespace}/${name}`);
    if (!this.scheduled && !this.closed) {
      this.scheduled = true;
      setImmediate(() => this.drain());
    }
  }

  private observe({ resource, type, object }: StoreEvent) {
    const namespace = object.metadata.namespace;
    if (this.closed || !namespace) return;
    // after the deletion's own event has reached every watcher
    if (type === 'DELETED') {
      setImmediate(() => {
        try {
          if (!this.closed) this.collectDependents(object);
        } catch (error) {
          process.emitWarning(`sandbox cluster: collecting what ${object.metadata.name} owned failed: ${(error as Error)?.message ?? String(error)}`);
        }
      });
    }
    if (SYNCS[resource] && type !== 'DELETED') this.enqueue(resource, namespace, object.metadata.name);
    const owner = controllerOf(object);
    if (owner && OWNER_RESOURCE[owner.kind]) this.enqueue(OWNER_RESOURCE[owner.kind], namespace, owner.name);
    // room may have been made: retry what quota or limits refused
    if (resource === 'resourcequotas' || resource === 'limitranges') this.enqueueAll(namespace);
  }

  private drain() {
    this.scheduled = false;
    const keys = [...this.queue];
    this.queue.clear();
    for (const key of keys) {
      if (this.closed) return;
      const [resource, namespace, name] = key.split('/');
      const object = this.context.store.get(resource, namespace, name);
      if (!object || object.metadata.deletionTimestamp) continue;
      try {
        SYNCS[resource](this.context, object);
      } catch (error) {
        // Never the server's end (this runs outside any request): the next event or resync
        // syncs it again; what is not a refusal or a lost race is said.
        if (!(error instanceof ApiError) && !(error instanceof StoreError)) process.emitWarning(`sandbox cluster: syncing ${key} failed: ${(error as Error)?.message ?? String(error)}`);
      }
    }
  }

  /** The garbage collector's background propagation: what the deleted object owned goes too. */
  private collectDependents(owner: KubeObject) {
    const uid = owner.metadata.uid;
    const namespace = owner.metadata.namespace!;
    for (const type of RESOURCES.filter((t) => t.namespaced)) {
      for (const dependent of this.context.store.list(type.resource, namespace)) {
        const refs = (dependent.metadata.ownerReferences ?? []) as { uid: string }[];
        if (!refs.some((r) => r.uid === uid)) continue;
        if (refs.length > 1) {
          this.context.store.modify(type.resource, namespace, dependent.metadata.name, (o) => {
            o.metadata.ownerReferences = refs.filter((r) => r.uid !== uid);
          });
          continue;
        }
        try {
          remove(this.context, { type, namespace, name: dependent.metadata.name }, new URLSearchParams(), undefined);
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
        }
      }
    }
  }
}

/**
 * DELETE with propagationPolicy Orphan (kubectl delete --cascade=orphan, and a Job deleted
 * through the API without a policy, batch/v1's default): the dependents lose their owner
 * reference and stay.
 */
export function orphanDependents(context: ApiContext, owner: KubeObject, query: URLSearchParams, options: KubeObject | undefined): void {
  const policy = query.get('propagationPolicy') ?? options?.propagationPolicy ?? (options?.orphanDependents === true || query.get('orphanDependents') === 'true' ? 'Orphan' : undefined);
  const orphan = policy === 'Orphan' || (policy === undefined && owner.kind === 'Job');
  if (!orphan) return;
  for (const type of RESOURCES.filter((t) => t.namespaced)) {
    for (const dependent of context.store.list(type.resource, owner.metadata.namespace)) {
      const refs = (dependent.metadata.ownerReferences ?? []) as { uid: string }[];
      if (!refs.some((r) => r.uid === owner.metadata.uid)) continue;
      context.store.modify(type.resource, owner.metadata.namespace, dependent.metadata.name, (o) => {
        const left = refs.filter((r) => r.uid !== owner.metadata.uid);
        if (left.length) o.metadata.ownerReferences = left;
        else delete o.metadata.ownerReferences;
      });
    }
  }
}
