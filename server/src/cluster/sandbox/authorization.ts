import { bootstrapTokenUser, CLUSTER_INFO_PATH } from './bootstrap.js';
import type { KubeObject, ObjectStore } from './store.js';

// Who a request is, and what it may do. The admin token may do anything. A service account
// may act only in namespaces where a RoleBinding names it as a subject, and only as far as
// the bound Role or ClusterRole's rules allow. Bootstrap tokens and anonymous requests get
// fixed rights, the ones kubeadm's default RBAC (and, for Nodes, the Node authorizer) gives
// them; see bootstrapperAllows and anonymousAllows.

export type Identity =
  | { kind: 'admin'; admin: true; user: string; groups: string[] }
  | { kind: 'serviceaccount'; admin: false; user: string; groups: string[]; namespace: string; serviceAccount: string }
  | { kind: 'bootstrap'; admin: false; user: string; groups: string[]; tokenId: string }
  | { kind: 'anonymous'; admin: false; user: 'system:anonymous'; groups: string[] };

export interface RequestAttributes {
  verb: string;
  group: string;
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
}

const AUTHENTICATED = 'system:authenticated';

/**
 * The identity of a request, or undefined (401). Without an Authorization header a request is
 * anonymous only on the cluster-info path: the sandbox behaves like an apiserver whose
 * AuthenticationConfiguration enables anonymous auth for that path alone (as kubeadm's
 * discovery needs), so every other request without credentials stays 401.
 */
export function authenticate(store: ObjectStore, adminToken: string, header: string | undefined, path: string): Identity | undefined {
  if (header === undefined) {
    return path === CLUSTER_INFO_PATH ? { kind: 'anonymous', admin: false, user: 'system:anonymous', groups: ['system:unauthenticated'] } : undefined;
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) return undefined;
  const token = match[1];
  if (token === adminToken) return { kind: 'admin', admin: true, user: 'system:admin', groups: ['system:masters', AUTHENTICATED] };
  const bootstrap = bootstrapTokenUser(store, token);
  if (bootstrap) return { kind: 'bootstrap', admin: false, user: bootstrap.user, groups: [...bootstrap.groups, AUTHENTICATED], tokenId: bootstrap.tokenId };
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
    kind: 'serviceaccount',
    admin: false,
    user: `system:serviceaccount:${issued.namespace}:${issued.serviceAccount}`,
    groups: ['system:serviceaccounts', `system:serviceaccounts:${issued.namespace}`, AUTHENTICATED],
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

/** kubeadm's Role kubeadm:bootstrap-signer-clusterinfo, bound to User system:anonymous in kube-public. */
function anonymousAllows(attributes: RequestAttributes): boolean {
  return readsClusterInfo(attributes);
}

const readsClusterInfo = (a: RequestAttributes) =>
  a.verb === 'get' && a.group === '' && a.resource === 'configmaps' && !a.subresource && a.namespace === 'kube-public' && a.name === 'cluster-info';

/**
 * A bootstrap token, simplified from kubeadm's setup: it may read cluster-info, create Nodes,
 * and get/patch/update (also through nodes/status) the Node it created, as the joining
 * node's kubelet would under the Node authorizer once it has its credentials. In a real
 * cluster the token only creates a CertificateSigningRequest and the kubelet registers the
 * Node with the certificate it gets; the sandbox skips the certificate step.
 */
function bootstrapperAllows(store: ObjectStore, identity: Identity, a: RequestAttributes): boolean {
  if (readsClusterInfo(a)) return true;
  if (a.group !== '' || a.resource !== 'nodes') return false;
  if (a.verb === 'create' && !a.subresource) return true;
  if (!['get', 'patch', 'update'].includes(a.verb) || !a.name) return false;
  if (a.subresource !== undefined && a.subresource !== 'status') return false;
  return store.nodeCreators.get(a.name) === identity.user;
}

/** Every authenticated user may ask who it is (system:basic-user). */
const selfSubjectReview = (a: RequestAttributes) => a.verb === 'create' && a.group === 'authentication.k8s.io' && a.resource === 'selfsubjectreviews';

export function authorize(store: ObjectStore, identity: Identity, attributes: RequestAttributes): boolean {
  if (identity.kind === 'admin') return true;
  if (identity.kind === 'anonymous') return anonymousAllows(attributes);
  if (selfSubjectReview(attributes)) return true;
  if (identity.kind === 'bootstrap') return bootstrapperAllows(store, identity, attributes);
  const account = identity;
  const namespace = attributes.namespace;
  if (!namespace) return false; // no ClusterRoleBindings for service accounts in the sandbox
  const bindings = store.list('rolebindings', namespace).filter((binding) =>
    (binding.subjects ?? []).some(
      (s: KubeObject) => s.kind === 'ServiceAccount' && s.name === account.serviceAccount && (s.namespace ?? binding.metadata.namespace) === account.namespace,
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
