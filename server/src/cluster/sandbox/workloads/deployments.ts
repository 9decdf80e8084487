import type { ApiContext } from '../context.js';
import { create } from '../objects.js';
import { findResource } from '../resources.js';
import { ApiError } from '../status.js';
import type { KubeObject } from '../store.js';
import { type Condition, controllerIdentity, controllerReference, ownedBy, podTemplateHash, setCondition, stableJson } from './common.js';

// The Deployment controller of the sandbox: one ReplicaSet per pod template (named
// <deployment>-<pod-template-hash>, labelled and owned as the real controller does), a rolling
// update within maxSurge/maxUnavailable (or Recreate), old ReplicaSets kept up to
// revisionHistoryLimit, and the status `kubectl rollout status` reads: observedGeneration,
// replicas, updatedReplicas, readyReplicas, availableReplicas, conditions Available,
// Progressing and ReplicaFailure.

const REPLICA_SET = findResource('apps', 'v1', 'replicasets')!;
const IDENTITY = controllerIdentity('deployment-controller');
const REVISION = 'deployment.kubernetes.io/revision';

const revisionOf = (rs: KubeObject) => Number(rs.metadata.annotations?.[REVISION] ?? 0);

/** An IntOrString of maxSurge/maxUnavailable against the desired count ("25%" rounds up for surge, down for unavailable). */
function resolve(value: unknown, total: number, roundUp: boolean): number {
  if (typeof value === 'number') return value;
  const match = /^(\d+)%$/.exec(String(value ?? ''));
  if (!match) return Number(value) || 0;
  const exact = (Number(match[1]) * total) / 100;
  return roundUp ? Math.ceil(exact) : Math.floor(exact);
}

function newReplicaSet(deployment: KubeObject, hash: string, revision: number, replicas: number): KubeObject {
  const template = structuredClone(deployment.spec.template);
  template.metadata = { ...template.metadata, labels: { ...template.metadata?.labels, 'pod-template-hash': hash } };
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: `${deployment.metadata.name}-${hash}`,
      namespace: deployment.metadata.namespace,
      labels: { ...template.metadata.labels },
      annotations: {
        'deployment.kubernetes.io/desired-replicas': String(deployment.spec.replicas),
        'deployment.kubernetes.io/max-replicas': String(deployment.spec.replicas + resolve(deployment.spec.strategy?.rollingUpdate?.maxSurge, deployment.spec.replicas, true)),
        [REVISION]: String(revision),
      },
      ownerReferences: [controllerReference({ ...deployment, apiVersion: 'apps/v1', kind: 'Deployment' })],
    },
    spec: {
      replicas,
      selector: { ...deployment.spec.selector, matchLabels: { ...deployment.spec.selector?.matchLabels, 'pod-template-hash': hash } },
      template,
    },
  };
}

export function syncDeployment(context: ApiContext, deployment: KubeObject) {
  const { store } = context;
  const namespace = deployment.metadata.namespace;
  const spec = deployment.spec;
  const desired = Number(spec.replicas ?? 1);
  const hash = podTemplateHash(spec.template, deployment.status?.collisionCount ?? 0);
  const owned = () => store.list('replicasets', namespace).filter((rs) => ownedBy(rs, deployment));
  let all = owned();
  // the ReplicaSet of this template (equal but for the hash label, as the real controller compares)
  const withoutHash = (template: KubeObject) => {
    const { 'pod-template-hash': _hash, ...labels } = template?.metadata?.labels ?? {};
    return stableJson({ ...template, metadata: { ...template?.metadata, labels } });
  };
  const wanted = withoutHash(spec.template);
  let current = all.find((rs) => withoutHash(rs.spec.template) === wanted);
  const maxRevision = Math.max(0, ...all.map(revisionOf));
  let failure: string | undefined;
  let created = false;
  const scale = (rs: KubeObject, replicas: number) => {
    if (rs.spec.replicas === replicas) return;
    store.modify('replicasets', namespace, rs.metadata.name, (o) => {
      o.spec.replicas = replicas;
      o.metadata.annotations = { ...o.metadata.annotations, 'deployment.kubernetes.io/desired-replicas': String(desired) };
    });
  };
  if (!spec.paused) {
    const olds = () => all.filter((rs) => rs !== current && rs.metadata.uid !== current?.metadata.uid);
    const recreate = spec.strategy?.type === 'Recreate';
    const oldPods = olds().reduce((n, rs) => n + (rs.status?.replicas ?? 0), 0);
    if (!current) {
      // Recreate: the new ReplicaSet starts at 0 until the old pods are gone
      const start = recreate ? 0 : olds().every((rs) => !rs.spec.replicas) ? desired : 0;
      try {
        current = create(context, { type: REPLICA_SET, namespace }, newReplicaSet(deployment, hash, maxRevision + 1, start), IDENTITY);
        created = true;
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        failure = error.message;
      }
      all = owned();
    } else if (revisionOf(current) < maxRevision) {
      // a rollback to an earlier template: its ReplicaSet becomes the newest revision
      store.modify('replicasets', namespace, current.metadata.name, (o) => {
        o.metadata.annotations = { ...o.metadata.annotations, [REVISION]: String(maxRevision + 1) };
      });
    }
    if (current) {
      const rs = current;
      if (recreate) {
        for (const old of olds()) scale(old, 0);
        if (oldPods === 0) scale(rs, desired);
      } else if (olds().every((o) => !o.spec.replicas)) {
        scale(rs, desired);
      } else {
        const maxSurge = resolve(spec.strategy?.rollingUpdate?.maxSurge ?? '25%', desired, true);
        let maxUnavailable = resolve(spec.strategy?.rollingUpdate?.maxUnavailable ?? '25%', desired, false);
        if (maxSurge === 0 && maxUnavailable === 0) maxUnavailable = 1;
        const total = all.reduce((n, r) => n + (r.spec.replicas ?? 0), 0);
        // scale the new ReplicaSet up within maxSurge
        const up = Math.min(desired + maxSurge - total, desired - rs.spec.replicas);
        if (up > 0) scale(rs, rs.spec.replicas + up);
        // and the old ones down while at least desired - maxUnavailable pods stay available
        const available = all.reduce((n, r) => n + (r.status?.availableReplicas ?? 0), 0);
        let room = available - (desired - maxUnavailable);
        for (const old of olds().sort((a, b) => revisionOf(a) - revisionOf(b))) {
          if (room <= 0) break;
          const down = Math.min(old.spec.replicas ?? 0, room);
          if (down > 0) {
            scale(old, old.spec.replicas - down);
            room -= down;
          }
        }
      }
      // history beyond revisionHistoryLimit: old ReplicaSets with no pods left
      const idle = olds().filter((o) => !o.spec.replicas && !o.status?.replicas).sort((a, b) => revisionOf(a) - revisionOf(b));
      for (const old of idle.slice(0, Math.max(0, idle.length - Number(spec.revisionHistoryLimit ?? 10)))) store.delete('replicasets', namespace, old.metadata.name);
    }
  }
  writeStatus(context, deployment, owned(), current, desired, { failure, created });
}

function writeStatus(context: ApiContext, deployment: KubeObject, all: KubeObject[], current: KubeObject | undefined, desired: number, what: { failure?: string; created: boolean }) {
  const { store } = context;
  const sum = (field: string) => all.reduce((n, rs) => n + Number(rs.status?.[field] ?? 0), 0);
  const replicas = sum('replicas');
  const updated = current ? Number(current.status?.replicas ?? 0) : 0;
  const ready = sum('readyReplicas');
  const available = sum('availableReplicas');
  const maxUnavailable = deployment.spec.strategy?.type === 'Recreate' ? 0 : resolve(deployment.spec.strategy?.rollingUpdate?.maxUnavailable ?? '25%', desired, false);
  let conditions = deployment.status?.conditions as Condition[] | undefined;
  conditions = setCondition(
    conditions,
    'Available',
    available >= desired - maxUnavailable
      ? { status: 'True', reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.' }
      : { status: 'False', reason: 'MinimumReplicasUnavailable', message: 'Deployment does not have minimum availability.' },
    true,
  );
  const rsName = current?.metadata.name ?? `${deployment.metadata.name}`;
  const complete = current && updated === desired && replicas === desired && available === desired;
  const progressing = conditions.find((c) => c.type === 'Progressing');
  const deadline = Number(deployment.spec.progressDeadlineSeconds ?? 600) * 1000;
  if (complete) conditions = setCondition(conditions, 'Progressing', { status: 'True', reason: 'NewReplicaSetAvailable', message: `ReplicaSet "${rsName}" has successfully progressed.` }, true);
  else if (what.created) conditions = setCondition(conditions, 'Progressing', { status: 'True', reason: 'NewReplicaSetCreated', message: `Created new replica set "${rsName}"` }, true);
  else if (progressing?.reason === 'ProgressDeadlineExceeded') {
    // stays until the rollout completes
  } else if (progressing && Date.parse(progressing.lastUpdateTime) + deadline < Date.now() && progressing.reason !== 'NewReplicaSetAvailable') {
    conditions = setCondition(conditions, 'Progressing', { status: 'False', reason: 'ProgressDeadlineExceeded', message: `ReplicaSet "${rsName}" has timed out progressing.` }, true);
  } else if (progressing?.reason !== 'NewReplicaSetCreated' || updated > 0) {
    conditions = setCondition(conditions, 'Progressing', { status: 'True', reason: 'ReplicaSetUpdated', message: `ReplicaSet "${rsName}" is progressing.` }, true);
  }
  // what a ReplicaSet could not create (quota, Pod Security …) shows on the Deployment
  const rsFailure = [current, ...all].map((rs) => rs?.status?.conditions?.find((c: KubeObject) => c.type === 'ReplicaFailure' && c.status === 'True')).find(Boolean);
  const failure = what.failure ?? rsFailure?.message;
  conditions = setCondition(conditions, 'ReplicaFailure', failure ? { status: 'True', reason: 'FailedCreate', message: failure } : undefined, true);
  const status = {
    observedGeneration: deployment.metadata.generation ?? 1,
    ...Object.fromEntries(
      Object.entries({ replicas, updatedReplicas: updated, readyReplicas: ready, availableReplicas: available, unavailableReplicas: Math.max(0, desired - available) }).filter(([, v]) => v !== 0),
    ),
    conditions,
    ...(deployment.status?.collisionCount ? { collisionCount: deployment.status.collisionCount } : {}),
  };
  if (JSON.stringify(status) !== JSON.stringify(deployment.status ?? {})) {
    store.modify('deployments', deployment.metadata.namespace, deployment.metadata.name, (o) => {
      if (o.metadata.uid === deployment.metadata.uid) o.status = status;
    });
  }
}
