// The resources the sandbox serves, and the discovery documents built from them.

export interface ResourceType {
  group: string; // '' = core
  version: string;
  resource: string; // plural
  kind: string;
  namespaced: boolean;
  shortNames?: string[];
  /** `kubectl get all` lists the resources in category "all" */
  categories?: string[];
  verbs: string[];
  /** Subresources; `group`/`version` when their kind is of another group (Scale is autoscaling/v1). */
  subresources?: { name: string; kind: string; verbs: string[]; group?: string; version?: string }[];
}

const ALL = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];
const STATUS = { name: 'status', verbs: ['get', 'patch', 'update'] };
const SCALE = { name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: ['get', 'patch', 'update'] };

export const RESOURCES: ResourceType[] = [
  { group: '', version: 'v1', resource: 'namespaces', kind: 'Namespace', namespaced: false, shortNames: ['ns'], verbs: ALL },
  {
    group: '', version: 'v1', resource: 'nodes', kind: 'Node', namespaced: false, shortNames: ['no'], verbs: ALL,
    subresources: [{ name: 'status', kind: 'Node', verbs: ['get', 'patch', 'update'] }],
  },
  {
    group: '', version: 'v1', resource: 'pods', kind: 'Pod', namespaced: true, categories: ['all'], shortNames: ['po'], verbs: ALL,
    subresources: [{ name: 'log', kind: 'Pod', verbs: ['get'] }, { name: 'status', kind: 'Pod', verbs: ['get'] }],
  },
  {
    group: '', version: 'v1', resource: 'serviceaccounts', kind: 'ServiceAccount', namespaced: true, shortNames: ['sa'], verbs: ALL,
    subresources: [{ name: 'token', kind: 'TokenRequest', verbs: ['create'] }],
  },
  { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true, shortNames: ['cm'], verbs: ALL },
  { group: '', version: 'v1', resource: 'secrets', kind: 'Secret', namespaced: true, verbs: ALL },
  {
    group: '', version: 'v1', resource: 'services', kind: 'Service', namespaced: true, categories: ['all'], shortNames: ['svc'], verbs: ALL,
    subresources: [{ ...STATUS, kind: 'Service' }],
  },
  {
    group: '', version: 'v1', resource: 'persistentvolumeclaims', kind: 'PersistentVolumeClaim', namespaced: true, shortNames: ['pvc'], verbs: ALL,
    subresources: [{ ...STATUS, kind: 'PersistentVolumeClaim' }],
  },
  { group: '', version: 'v1', resource: 'resourcequotas', kind: 'ResourceQuota', namespaced: true, shortNames: ['quota'], verbs: ALL },
  { group: '', version: 'v1', resource: 'limitranges', kind: 'LimitRange', namespaced: true, shortNames: ['limits'], verbs: ALL },
  { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'roles', kind: 'Role', namespaced: true, verbs: ALL },
  { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'rolebindings', kind: 'RoleBinding', namespaced: true, verbs: ALL },
  { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles', kind: 'ClusterRole', namespaced: false, verbs: ALL },
  { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterrolebindings', kind: 'ClusterRoleBinding', namespaced: false, verbs: ALL },
  { group: 'authentication.k8s.io', version: 'v1', resource: 'selfsubjectreviews', kind: 'SelfSubjectReview', namespaced: false, verbs: ['create'] },
  {
    group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', namespaced: true, categories: ['all'], shortNames: ['deploy'], verbs: ALL,
    subresources: [{ ...SCALE }, { ...STATUS, kind: 'Deployment' }],
  },
  {
    group: 'apps', version: 'v1', resource: 'replicasets', kind: 'ReplicaSet', namespaced: true, categories: ['all'], shortNames: ['rs'], verbs: ALL,
    subresources: [{ ...SCALE }, { ...STATUS, kind: 'ReplicaSet' }],
  },
  {
    group: 'batch', version: 'v1', resource: 'jobs', kind: 'Job', namespaced: true, categories: ['all'], verbs: ALL,
    subresources: [{ ...STATUS, kind: 'Job' }],
  },
  { group: 'networking.k8s.io', version: 'v1', resource: 'networkpolicies', kind: 'NetworkPolicy', namespaced: true, shortNames: ['netpol'], verbs: ALL },
];

export const GROUPS = [...new Set(RESOURCES.map((r) => r.group).filter(Boolean))];

export const apiVersionOf = (type: ResourceType) => (type.group ? `${type.group}/${type.version}` : type.version);

/** "pods" or "rolebindings.rbac.authorization.k8s.io", as Kubernetes names resources in messages. */
export const qualifiedName = (type: ResourceType) => (type.group ? `${type.resource}.${type.group}` : type.resource);

export function findResource(group: string, version: string, resource: string): ResourceType | undefined {
  return RESOURCES.find((r) => r.group === group && r.version === version && r.resource === resource);
}

export function apiVersions(serverAddress: string) {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
}

export function apiGroup(group: string) {
  const version = { groupVersion: `${group}/v1`, version: 'v1' };
  return { kind: 'APIGroup', apiVersion: 'v1', name: group, versions: [version], preferredVersion: version };
}

export function apiGroupList() {
  const groups = GROUPS.map((g) => {
    const { kind: _kind, apiVersion: _apiVersion, ...group } = apiGroup(g);
    return group;
  });
  return { kind: 'APIGroupList', apiVersion: 'v1', groups };
}

export function apiResourceList(group: string, version: string) {
  const types = RESOURCES.filter((r) => r.group === group && r.version === version);
  if (types.length === 0) return undefined;
  const resources = types.flatMap((r) => [
    { name: r.resource, singularName: r.kind.toLowerCase(), namespaced: r.namespaced, kind: r.kind, verbs: r.verbs, ...(r.shortNames ? { shortNames: r.shortNames } : {}), ...(r.categories ? { categories: r.categories } : {}) },
    ...(r.subresources ?? []).map((s) => ({
      name: `${r.resource}/${s.name}`, singularName: '', namespaced: r.namespaced, kind: s.kind, verbs: s.verbs,
      ...(s.kind === 'TokenRequest' ? { group: 'authentication.k8s.io', version: 'v1' } : {}),
      ...(s.group ? { group: s.group, version: s.version } : {}),
    })),
  ]);
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: group ? `${group}/${version}` : version, resources };
}
