import { randomInt } from 'node:crypto';
import { invalid, type StatusCause } from '../status.js';
import type { KubeObject, ObjectStore } from '../store.js';
import { defaultPodTemplate, selectorMatches } from './common.js';

// What kube-apiserver does to Deployments, ReplicaSets, Jobs, Services and PersistentVolumeClaims
// on the way into storage: the API defaults, the validation a first manifest runs into, the
// fields the server owns (status, generation, a Service's cluster IP). The controllers that act
// on them are deployments.ts, replicaSets.ts and jobs.ts.

export const WORKLOAD_KINDS = new Set(['deployments', 'replicasets', 'jobs', 'services', 'persistentvolumeclaims']);

/** Service cluster IPs come from 10.96.0.0/12, as kubeadm's default --service-cluster-ip-range. */
function allocateClusterIp(store: ObjectStore): string {
  const used = new Set(store.list('services').map((s) => s.spec?.clusterIP));
  for (;;) {
    const n = randomInt(10, 0xfffff - 1);
    const ip = `10.${96 + (n >> 16)}.${(n >> 8) & 0xff}.${n & 0xff}`;
    if (!used.has(ip)) return ip;
  }
}

function allocateNodePort(store: ObjectStore, taken: Set<number>): number {
  for (const s of store.list('services')) for (const p of s.spec?.ports ?? []) if (p.nodePort) taken.add(p.nodePort);
  for (;;) {
    const port = randomInt(30000, 32768);
    if (!taken.has(port)) return port;
  }
}

function defaultService(store: ObjectStore, object: KubeObject, current: KubeObject | undefined) {
  const spec = (object.spec ??= {});
  spec.type ??= 'ClusterIP';
  spec.sessionAffinity ??= 'None';
  spec.internalTrafficPolicy ??= 'Cluster';
  if (spec.type !== 'ExternalName') {
    // the cluster IP is immutable: an update keeps the allocated one
    spec.clusterIP ??= current?.spec?.clusterIP ?? allocateClusterIp(store);
    spec.clusterIPs ??= current?.spec?.clusterIPs ?? (spec.clusterIP === 'None' ? ['None'] : [spec.clusterIP]);
    spec.ipFamilies ??= ['IPv4'];
    spec.ipFamilyPolicy ??= 'SingleStack';
  }
  const taken = new Set<number>();
  for (const p of Array.isArray(spec.ports) ? spec.ports : []) {
    if (!p || typeof p !== 'object') continue;
    p.protocol ??= 'TCP';
    p.targetPort ??= p.port;
    if (spec.type === 'NodePort' || spec.type === 'LoadBalancer') {
      p.nodePort ??= current?.spec?.ports?.find((c: KubeObject) => c.port === p.port)?.nodePort ?? allocateNodePort(store, taken);
      taken.add(p.nodePort);
    }
  }
  if (spec.type === 'NodePort' || spec.type === 'LoadBalancer') spec.externalTrafficPolicy ??= 'Cluster';
  // No load balancer controller in the sandbox: a LoadBalancer's EXTERNAL-IP stays <pending>.
  object.status = current?.status ?? { loadBalancer: {} };
}

/** Defaults, before validation (create and update; `current` on update). */
export function prepareWorkload(store: ObjectStore, resource: string, object: KubeObject, current?: KubeObject) {
  const spec = object.spec && typeof object.spec === 'object' ? object.spec : undefined;
  switch (resource) {
    case 'deployments':
      if (spec) {
        spec.replicas ??= 1;
        spec.strategy = { ...spec.strategy, type: spec.strategy?.type || 'RollingUpdate' };
        if (spec.strategy.type === 'RollingUpdate') spec.strategy.rollingUpdate = { maxUnavailable: '25%', maxSurge: '25%', ...spec.strategy.rollingUpdate };
        spec.revisionHistoryLimit ??= 10;
        spec.progressDeadlineSeconds ??= 600;
        defaultPodTemplate(spec.template);
      }
      break;
    case 'replicasets':
      if (spec) {
        spec.replicas ??= 1;
        defaultPodTemplate(spec.template);
      }
      break;
    case 'jobs':
      if (spec) {
        spec.parallelism ??= 1;
        spec.completions ??= 1;
        spec.backoffLimit ??= 6;
        spec.completionMode ??= 'NonIndexed';
        spec.suspend ??= false;
        spec.manualSelector ??= undefined;
        spec.podReplacementPolicy ??= 'TerminatingOrFailed';
        defaultPodTemplate(spec.template, 'Never');
        const uid = current?.metadata.uid ?? object.metadata.uid;
        if (!current && uid && !spec.selector) {
          // the Job controller's generated selector (spec.manualSelector unset)
          const labels = { 'batch.kubernetes.io/controller-uid': uid, 'batch.kubernetes.io/job-name': object.metadata.name, 'controller-uid': uid, 'job-name': object.metadata.name };
          spec.selector = { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } };
          if (spec.template && typeof spec.template === 'object') {
            spec.template.metadata = { ...spec.template.metadata, labels: { ...spec.template.metadata?.labels, ...labels } };
          }
        }
        if (current) spec.selector = current.spec.selector;
      }
      break;
    case 'services':
      defaultService(store, object, current);
      return;
    case 'persistentvolumeclaims':
      if (spec) spec.volumeMode ??= 'Filesystem';
      // No provisioner and no PersistentVolumes in the sandbox: a claim stays Pending (as with
      // a StorageClass that nothing provisions); it is stored, counted by quota, and deletable.
      object.status = current?.status ?? { phase: 'Pending' };
      return;
  }
  // status is the controllers' (the status subresource), generation counts spec changes
  if (current) {
    object.status = current.status;
    const changed = JSON.stringify(current.spec) !== JSON.stringify(object.spec);
    object.metadata.generation = Number(current.metadata.generation ?? 1) + (changed ? 1 : 0);
  } else {
    object.status = {};
    object.metadata.generation = 1;
  }
}

/** Validation of the fields a controller relies on, with kube-apiserver's field paths and wording. */
export function validateWorkload(resource: string, object: KubeObject): StatusCause[] {
  const causes: StatusCause[] = [];
  const required = (field: string, message = 'Required value') => causes.push({ reason: 'FieldValueRequired', message, field });
  const spec = object.spec;
  if (resource === 'services' || resource === 'persistentvolumeclaims') {
    if (resource === 'services' && spec?.type !== 'ExternalName' && spec?.clusterIP !== 'None' && !(Array.isArray(spec?.ports) && spec.ports.length)) required('spec.ports');
    if (resource === 'persistentvolumeclaims') {
      if (!Array.isArray(spec?.accessModes) || spec.accessModes.length === 0) required('spec.accessModes', 'Required value: at least 1 access mode is required');
      if (!spec?.resources?.requests?.storage) required('spec.resources[storage]');
    }
    return causes;
  }
  if (!spec || typeof spec !== 'object') {
    required('spec');
    return causes;
  }
  const template = spec.template;
  const labels = template?.metadata?.labels ?? {};
  if (!spec.selector) required('spec.selector');
  else if (!selectorMatches(spec.selector, labels)) {
    causes.push({ reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(labels)}: \`selector\` does not match template \`labels\``, field: 'spec.template.metadata.labels' });
  }
  if (!Array.isArray(template?.spec?.containers) || template.spec.containers.length === 0) required('spec.template.spec.containers');
  else {
    template.spec.containers.forEach((c: KubeObject, i: number) => {
      if (!c?.name) required(`spec.template.spec.containers[${i}].name`);
      if (!c?.image) required(`spec.template.spec.containers[${i}].image`);
    });
  }
  for (const field of ['replicas', 'parallelism', 'completions']) {
    if (spec[field] !== undefined && spec[field] !== null && !(Number.isInteger(spec[field]) && spec[field] >= 0)) {
      causes.push({ reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(spec[field])}: must be greater than or equal to 0`, field: `spec.${field}` });
    }
  }
  if (resource === 'jobs' && !['Never', 'OnFailure'].includes(template?.spec?.restartPolicy)) {
    causes.push({ reason: 'FieldValueNotSupported', message: `Unsupported value: ${JSON.stringify(template?.spec?.restartPolicy)}: supported values: "OnFailure", "Never"`, field: 'spec.template.spec.restartPolicy' });
  }
  return causes;
}

export function throwIfInvalid(kind: string, group: string, object: KubeObject, causes: StatusCause[]) {
  if (causes.length) throw invalid(kind, group, object.metadata.name ?? '', causes);
}
