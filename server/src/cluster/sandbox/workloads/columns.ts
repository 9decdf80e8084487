import type { KubeObject } from '../store.js';
import { age, type Column } from '../table.js';
import { selectorString } from './common.js';

// The `kubectl get` columns of Deployments, ReplicaSets, Jobs, Services and
// PersistentVolumeClaims, as kube-apiserver's table printers define them (wide ones with
// priority 1).

// (table.ts imports this file: only its hoisted function `age` is used here)
const name: Column = { name: 'Name', type: 'string', format: 'name', cell: (o) => o.metadata.name };
const ageColumn: Column = { name: 'Age', type: 'string', cell: (o) => age(o.metadata.creationTimestamp) };
const containers = (template: KubeObject | undefined) => (template?.spec?.containers ?? []) as KubeObject[];
const wide = (title: string, cell: Column['cell']): Column => ({ name: title, type: 'string', priority: 1, cell });
const count = (title: string, cell: (o: KubeObject) => number): Column => ({ name: title, type: 'integer', cell });

function servicePorts(service: KubeObject): string {
  const ports = (service.spec?.ports ?? []) as KubeObject[];
  if (!ports.length) return '<none>';
  return ports.map((p) => `${p.port}${p.nodePort ? `:${p.nodePort}` : ''}/${p.protocol ?? 'TCP'}`).join(',');
}

function externalIp(service: KubeObject): string {
  const type = service.spec?.type ?? 'ClusterIP';
  if (type === 'ExternalName') return service.spec?.externalName ?? '<none>';
  const ips = [...(service.spec?.externalIPs ?? []), ...((service.status?.loadBalancer?.ingress ?? []) as KubeObject[]).map((i) => i.ip ?? i.hostname)];
  if (ips.length) return ips.join(',');
  return type === 'LoadBalancer' ? '<pending>' : '<none>';
}

function jobStatus(job: KubeObject): string {
  const has = (type: string) => (job.status?.conditions ?? []).some((c: KubeObject) => c.type === type && c.status === 'True');
  if (has('Complete')) return 'Complete';
  if (has('Failed')) return 'Failed';
  if (job.metadata.deletionTimestamp) return 'Terminating';
  if (has('SuccessCriteriaMet')) return 'SuccessCriteriaMet';
  if (has('FailureTarget')) return 'FailureTarget';
  if (job.spec?.suspend) return 'Suspended';
  return 'Running';
}

function duration(job: KubeObject): string {
  const start = job.status?.startTime;
  if (!start) return '';
  const end = job.status?.completionTime ? Date.parse(job.status.completionTime) : Date.now();
  return age(start, end);
}

export const WORKLOAD_COLUMNS: Record<string, Column[]> = {
  deployments: [
    name,
    { name: 'Ready', type: 'string', cell: (d) => `${d.status?.readyReplicas ?? 0}/${d.spec?.replicas ?? 0}` },
    count('Up-to-date', (d) => d.status?.updatedReplicas ?? 0),
    count('Available', (d) => d.status?.availableReplicas ?? 0),
    ageColumn,
    wide('Containers', (d) => containers(d.spec?.template).map((c) => c.name).join(',')),
    wide('Images', (d) => containers(d.spec?.template).map((c) => c.image).join(',')),
    wide('Selector', (d) => selectorString(d.spec?.selector)),
  ],
  replicasets: [
    name,
    count('Desired', (r) => r.spec?.replicas ?? 0),
    count('Current', (r) => r.status?.replicas ?? 0),
    count('Ready', (r) => r.status?.readyReplicas ?? 0),
    ageColumn,
    wide('Containers', (r) => containers(r.spec?.template).map((c) => c.name).join(',')),
    wide('Images', (r) => containers(r.spec?.template).map((c) => c.image).join(',')),
    wide('Selector', (r) => selectorString(r.spec?.selector)),
  ],
  jobs: [
    name,
    { name: 'Status', type: 'string', cell: jobStatus },
    { name: 'Completions', type: 'string', cell: (j) => `${j.status?.succeeded ?? 0}/${j.spec?.completions ?? 1}` },
    { name: 'Duration', type: 'string', cell: duration },
    ageColumn,
    wide('Containers', (j) => containers(j.spec?.template).map((c) => c.name).join(',')),
    wide('Images', (j) => containers(j.spec?.template).map((c) => c.image).join(',')),
    wide('Selector', (j) => selectorString(j.spec?.selector)),
  ],
  services: [
    name,
    { name: 'Type', type: 'string', cell: (s) => s.spec?.type ?? 'ClusterIP' },
    { name: 'Cluster-IP', type: 'string', cell: (s) => s.spec?.clusterIP || '<none>' },
    { name: 'External-IP', type: 'string', cell: externalIp },
    { name: 'Port(s)', type: 'string', cell: servicePorts },
    ageColumn,
    wide('Selector', (s) => Object.entries(s.spec?.selector ?? {}).map(([k, v]) => `${k}=${v}`).join(',') || '<none>'),
  ],
  persistentvolumeclaims: [
    name,
    { name: 'Status', type: 'string', cell: (p) => p.status?.phase ?? 'Pending' },
    { name: 'Volume', type: 'string', cell: (p) => p.spec?.volumeName ?? '' },
    { name: 'Capacity', type: 'string', cell: (p) => p.status?.capacity?.storage ?? '' },
    { name: 'Access Modes', type: 'string', cell: (p) => (p.status?.accessModes ?? []).map((m: string) => ({ ReadWriteOnce: 'RWO', ReadOnlyMany: 'ROX', ReadWriteMany: 'RWX', ReadWriteOncePod: 'RWOP' })[m] ?? m).join(',') },
    { name: 'StorageClass', type: 'string', cell: (p) => p.spec?.storageClassName ?? '<unset>' },
    { name: 'VolumeAttributesClass', type: 'string', cell: (p) => p.spec?.volumeAttributesClassName ?? '<unset>' },
    ageColumn,
    wide('VolumeMode', (p) => p.spec?.volumeMode ?? 'Filesystem'),
  ],
};
