import type { ApiContext } from '../context.js';
import { create, remove } from '../objects.js';
import { findResource } from '../resources.js';
import { ApiError } from '../status.js';
import type { KubeObject } from '../store.js';
import { controllerIdentity, controllerReference, isPodActive, isPodReady, ownedBy, setCondition } from './common.js';

// The ReplicaSet controller of the sandbox: keeps spec.replicas pods of the template running
// (created through the API, so LimitRanger, Pod Security and ResourceQuota admission apply to
// them as to any pod), and reports what it has in status. A pod that admission refuses is
// what the real controller reports too: condition ReplicaFailure (FailedCreate) with the
// API server's message, retried when the namespace changes (controllers.ts).

const POD = findResource('', 'v1', 'pods')!;
const IDENTITY = controllerIdentity('replicaset-controller');

/** A pod of the template: generateName `<owner>-`, the template's labels, owned by `owner`. */
export function podFromTemplate(owner: KubeObject, template: KubeObject): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: '',
      generateName: `${owner.metadata.name}-`,
      namespace: owner.metadata.namespace,
      labels: { ...template.metadata?.labels },
      ...(template.metadata?.annotations ? { annotations: { ...template.metadata.annotations } } : {}),
      ownerReferences: [controllerReference(owner)],
    },
    spec: structuredClone(template.spec),
  };
}

/** Creates pods until `count` are made or admission refuses one; answers the refusal's message. */
export function createPods(context: ApiContext, owner: KubeObject, template: KubeObject, count: number, identity = IDENTITY): string | undefined {
  for (let i = 0; i < count; i++) {
    try {
      create(context, { type: POD, namespace: owner.metadata.namespace }, podFromTemplate(owner, template), identity);
    } catch (error) {
      if (error instanceof ApiError) return error.message;
      throw error;
    }
  }
  return undefined;
}

/** Pods not yet running go first, then the newest (the real controller's ranking, simplified). */
const deletionOrder = (a: KubeObject, b: KubeObject) =>
  Number(isPodReady(a)) - Number(isPodReady(b)) || String(b.metadata.creationTimestamp).localeCompare(String(a.metadata.creationTimestamp));

export function deletePods(context: ApiContext, pods: KubeObject[]) {
  for (const pod of pods) {
    try {
      remove(context, { type: POD, namespace: pod.metadata.namespace, name: pod.metadata.name }, new URLSearchParams(), undefined);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
    }
  }
}

/** Omits zero counts, as the API's omitempty fields do. */
const counts = (status: Record<string, number>) => Object.fromEntries(Object.entries(status).filter(([k, v]) => v !== 0 || k === 'replicas'));

export function syncReplicaSet(context: ApiContext, rs: KubeObject) {
  const { store } = context;
  const namespace = rs.metadata.namespace;
  const owned = () => store.list('pods', namespace).filter((p) => ownedBy(p, rs) && isPodActive(p));
  const active = owned();
  const want = Number(rs.spec?.replicas ?? 1);
  let failure: string | undefined;
  if (active.length < want) failure = createPods(context, rs, rs.spec.template, want - active.length);
  else if (active.length > want) deletePods(context, active.sort(deletionOrder).slice(0, active.length - want));
  const pods = owned();
  const ready = pods.filter(isPodReady).length;
  // A retry refused for the same reason keeps the condition as it is (only the generated pod
  // name in the message would differ): no status write, so no event that would retry at once.
  const previous = rs.status?.conditions?.find((c: KubeObject) => c.type === 'ReplicaFailure');
  const unnamed = (message: string) => message.replace(/^pods "[^"]*"/, 'pods');
  if (failure && previous?.status === 'True' && unnamed(previous.message) === unnamed(failure)) failure = previous.message;
  const conditions = setCondition(rs.status?.conditions, 'ReplicaFailure', failure ? { status: 'True', reason: 'FailedCreate', message: failure } : undefined);
  const status = {
    ...counts({ replicas: pods.length, fullyLabeledReplicas: pods.length, readyReplicas: ready, availableReplicas: ready }),
    observedGeneration: rs.metadata.generation ?? 1,
    ...(conditions.length ? { conditions } : {}),
  };
  if (JSON.stringify(status) !== JSON.stringify(rs.status ?? {})) {
    store.modify('replicasets', namespace, rs.metadata.name, (o) => {
      if (o.metadata.uid === rs.metadata.uid) o.status = status;
    });
  }
}
