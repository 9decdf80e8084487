import type { KubeObject, ObjectStore } from './store.js';

// Who a bearer token is, and RBAC for service accounts: a service account may act only in
// namespaces where a RoleBinding names it as a subject, and only as far as the bound Role or
// ClusterRole's rules allow. The admin token may do anything.

export type Identity =
  | { admin: true; user: string }
  | { admin: false; user: string; namespace: string; serviceAccount: string };

export interface RequestAttributes {
  verb: string;
  group: string;
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
}

export function authenticate(store: ObjectStore, adminToken: string, header: string | undefined): Identity | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (!match) return undefined;
  const token = match[1];
  if (token === adminToken) return { admin: true, user: 'system:admin' };
  const issued = store.tokens.get(token);
  if (!issued) return undefined;
  if (issued.expiresAt <= Date.now()) {
    store.tokens.delete(token);
    return undefined;
  }
  const account = store.get('serviceaccounts', issued.namespace, issued.serviceAccount);
  if (!account || account.metadata.uid !== issued.serviceAccountUid) {
    store.tokens.delete(token);
    return undefined;
  }
  return {
    admin: false,
    user: `system:serviceaccount:${issued.namespace}:${issued.serviceAccount}`,
    namespace: issued.namespace,
    serviceAccount: issued.serviceAccount,
  };
}

const matches = (list: string[] | undefined, value: string) => (list ?? []).includes('*') || (list ?? []).includes(value);

function ruleAllows(rule: KubeObject, attributes: RequestAttributes): boolean {
  const resource = attributes.subresource ? `${attributes.resource}/${attributes.subresource}` : attributes.resource;
  if (!matches(rule.apiGroups, attributes.group)) return false;
  if (!matches(rule.resources, resource) && !(rule.resources ?? []).includes(`${attributes.resource}/*`)) return false;
  if (!matches(rule.verbs, attributes.verb)) return false;
  if (rule.resourceNames?.length && !(attributes.name && rule.resourceNames.includes(attributes.name))) return false;
  return true;
}

export function authorize(store: ObjectStore, identity: Identity, attributes: RequestAttributes): boolean {
  if (identity.admin) return true;
  const namespace = attributes.namespace;
  if (!namespace) return false; // no ClusterRoleBindings for service accounts in the sandbox
  const bindings = store.list('rolebindings', namespace).filter((binding) =>
    (binding.subjects ?? []).some(
      (s: KubeObject) => s.kind === 'ServiceAccount' && s.name === identity.serviceAccount && (s.namespace ?? binding.metadata.namespace) === identity.namespace,
    ),
  );
  return bindings.some((binding) => {
    const ref = binding.roleRef ?? {};
    const role = ref.kind === 'ClusterRole' ? store.get('clusterroles', undefined, ref.name) : ref.kind === 'Role' ? store.get('roles', namespace, ref.name) : undefined;
    return (role?.rules ?? []).some((rule: KubeObject) => ruleAllows(rule, attributes));
  });
}

export function forbiddenMessage(identity: Identity, attributes: RequestAttributes, qualifiedResource: string): string {
  const what = attributes.name ? `${qualifiedResource} "${attributes.name}"` : qualifiedResource;
  const resource = attributes.subresource ? `${attributes.resource}/${attributes.subresource}` : attributes.resource;
  const where = attributes.namespace ? `in the namespace "${attributes.namespace}"` : 'at the cluster scope';
  return `${what} is forbidden: User "${identity.user}" cannot ${attributes.verb} resource "${resource}" in API group "${attributes.group}" ${where}`;
}

/** The cluster roles a fresh sandbox has, like the default ones of Kubernetes (trimmed). */
export function defaultClusterRoles(): KubeObject[] {
  const read = ['get', 'list', 'watch'];
  const write = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
  const view = [
    { apiGroups: [''], resources: ['pods', 'pods/log', 'pods/status', 'configmaps', 'serviceaccounts', 'resourcequotas', 'limitranges', 'namespaces'], verbs: read },
    { apiGroups: ['networking.k8s.io'], resources: ['networkpolicies'], verbs: read },
  ];
  const edit = [
    { apiGroups: [''], resources: ['pods', 'configmaps', 'secrets', 'serviceaccounts'], verbs: write },
    { apiGroups: [''], resources: ['pods/log', 'pods/status', 'resourcequotas', 'limitranges', 'namespaces'], verbs: read },
    { apiGroups: [''], resources: ['serviceaccounts/token'], verbs: ['create'] },
    { apiGroups: ['networking.k8s.io'], resources: ['networkpolicies'], verbs: write },
  ];
  const admin = [...edit, { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles', 'rolebindings'], verbs: write }];
  const role = (name: string, rules: unknown[]): KubeObject => ({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name, labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' } },
    rules,
  });
  return [
    role('cluster-admin', [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }]),
    role('admin', admin),
    role('edit', edit),
    role('view', view),
  ];
}
