import type { KubeObject } from './store.js';
import { WORKLOAD_COLUMNS } from './workloads/columns.js';

// meta.k8s.io/v1 Table answers, which kubectl asks for (Accept: ...;as=Table) to print
// `kubectl get` columns the way a real API server defines them.

export interface Column {
  name: string;
  type: string;
  format?: string;
  priority?: number;
  cell: (o: KubeObject) => string | number;
}

export const wantsTable = (accept: string | undefined) => /as=Table/.test(accept ?? '');

export function age(created: string | undefined, now = Date.now()): string {
  if (!created) return '<unknown>';
  const seconds = Math.floor((now - Date.parse(created)) / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 120) return `${Math.max(seconds, 0)}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) return seconds % 60 ? `${minutes}m${seconds % 60}s` : `${minutes}m`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) return minutes % 60 ? `${hours}h${minutes % 60}m` : `${hours}h`;
  if (hours < 48) return `${hours}h`;
  const days = Math.floor(hours / 24);
  if (hours < 24 * 8) return hours % 24 ? `${days}d${hours % 24}h` : `${days}d`;
  if (days < 365 * 2) return `${days}d`;
  return `${Math.floor(days / 365)}y`;
}

const name: Column = { name: 'Name', type: 'string', format: 'name', cell: (o) => o.metadata.name };
const ageColumn: Column = { name: 'Age', type: 'string', cell: (o) => age(o.metadata.creationTimestamp) };

function podStatus(pod: KubeObject): string {
  if (pod.metadata.deletionTimestamp) return 'Terminating';
  for (const c of pod.status?.containerStatuses ?? []) {
    if (c.state?.waiting?.reason) return c.state.waiting.reason;
    if (c.state?.terminated?.reason) return c.state.terminated.reason; // a Job's pod: Completed
  }
  return pod.status?.phase ?? 'Pending';
}

/** As kubectl's node printer: Ready / NotReady (Unknown without a Ready condition), plus SchedulingDisabled when cordoned. */
function nodeStatus(node: KubeObject): string {
  const ready = node.status?.conditions?.find((c: KubeObject) => c.type === 'Ready');
  const status = [ready ? (ready.status === 'True' ? 'Ready' : 'NotReady') : 'Unknown'];
  if (node.spec?.unschedulable) status.push('SchedulingDisabled');
  return status.join(',');
}

const COLUMNS: Record<string, Column[]> = {
  pods: [
    name,
    { name: 'Ready', type: 'string', cell: (p) => `${(p.status?.containerStatuses ?? []).filter((c: KubeObject) => c.ready).length}/${p.spec?.containers?.length ?? 0}` },
    { name: 'Status', type: 'string', cell: podStatus },
    { name: 'Restarts', type: 'string', cell: (p) => String((p.status?.containerStatuses ?? []).reduce((n: number, c: KubeObject) => n + (c.restartCount ?? 0), 0)) },
    ageColumn,
    { name: 'IP', type: 'string', priority: 1, cell: (p) => p.status?.podIP ?? '<none>' },
    { name: 'Node', type: 'string', priority: 1, cell: (p) => p.spec?.nodeName ?? '<none>' },
    { name: 'Nominated Node', type: 'string', priority: 1, cell: () => '<none>' },
    { name: 'Readiness Gates', type: 'string', priority: 1, cell: () => '<none>' },
  ],
  nodes: [
    name,
    { name: 'Status', type: 'string', cell: nodeStatus },
    { name: 'Roles', type: 'string', cell: () => '<none>' },
    ageColumn,
    { name: 'Version', type: 'string', cell: (n) => n.status?.nodeInfo?.kubeletVersion ?? '' },
    { name: 'Internal-IP', type: 'string', priority: 1, cell: (n) => n.status?.addresses?.find((a: KubeObject) => a.type === 'InternalIP')?.address ?? '<none>' },
    { name: 'External-IP', type: 'string', priority: 1, cell: () => '<none>' },
    { name: 'OS-Image', type: 'string', priority: 1, cell: (n) => n.status?.nodeInfo?.osImage ?? '' },
    { name: 'Kernel-Version', type: 'string', priority: 1, cell: (n) => n.status?.nodeInfo?.kernelVersion ?? '' },
    { name: 'Container-Runtime', type: 'string', priority: 1, cell: (n) => n.status?.nodeInfo?.containerRuntimeVersion ?? '' },
  ],
  namespaces: [name, { name: 'Status', type: 'string', cell: (n) => n.status?.phase ?? 'Active' }, ageColumn],
  configmaps: [name, { name: 'Data', type: 'integer', cell: (c) => Object.keys(c.data ?? {}).length + Object.keys(c.binaryData ?? {}).length }, ageColumn],
  secrets: [name, { name: 'Type', type: 'string', cell: (s) => s.type ?? 'Opaque' }, { name: 'Data', type: 'integer', cell: (s) => Object.keys(s.data ?? {}).length }, ageColumn],
  serviceaccounts: [name, { name: 'Secrets', type: 'integer', cell: (s) => (s.secrets ?? []).length }, ageColumn],
  ...WORKLOAD_COLUMNS,
  rolebindings: [name, { name: 'Role', type: 'string', cell: (b) => `${b.roleRef?.kind}/${b.roleRef?.name}` }, ageColumn],
};

function columnsFor(resource: string): Column[] {
  return COLUMNS[resource] ?? [name, ageColumn];
}

function row(columns: Column[], object: KubeObject, includeObject: string | null) {
  const { apiVersion: _apiVersion, kind: _kind, metadata } = object;
  const embedded =
    includeObject === 'None'
      ? undefined
      : includeObject === 'Object'
        ? object
        : { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata };
  return { cells: columns.map((c) => c.cell(object)), ...(embedded ? { object: embedded } : {}) };
}

export function toTable(resource: string, objects: KubeObject[], resourceVersion: string | undefined, includeObject: string | null) {
  const columns = columnsFor(resource);
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: resourceVersion ? { resourceVersion } : {},
    columnDefinitions: columns.map((c) => ({ name: c.name, type: c.type, format: c.format ?? '', description: '', priority: c.priority ?? 0 })),
    rows: objects.map((o) => row(columns, o, includeObject)),
  };
}
