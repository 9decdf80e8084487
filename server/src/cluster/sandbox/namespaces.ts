import type { ApiContext } from './context.js';
import { timestamp } from './context.js';
import { RESOURCES } from './resources.js';
import { forbidden } from './status.js';
import type { KubeObject } from './store.js';

// Namespaces: what creating one adds (as kube-controller-manager's service account and root CA
// publishers do) and what deleting one removes.

export const namespaceObject = (name: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name, labels: { 'kubernetes.io/metadata.name': name } },
  spec: { finalizers: ['kubernetes'] },
  status: { phase: 'Active' },
});

/** A namespace's `default` service account and `kube-root-ca.crt` config map. */
export function namespaceCreated({ store, caPem }: Pick<ApiContext, 'store' | 'caPem'>, name: string) {
  store.create('serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: name } });
  store.create('configmaps', {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'kube-root-ca.crt', namespace: name, annotations: { 'kubernetes.io/description': "Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters." } },
    data: { 'ca.crt': caPem },
  });
}

/** What the server sets on a namespace being created. */
export function prepareNamespace(object: KubeObject) {
  object.metadata.labels = { ...object.metadata.labels, 'kubernetes.io/metadata.name': object.metadata.name };
  object.spec = { finalizers: ['kubernetes'] };
  object.status = { phase: 'Active' };
}

/** Deletes the namespace and everything in it at once (no finalization); answers it as Terminating. */
export function deleteNamespace({ store, runtime }: ApiContext, current: KubeObject, erase: () => KubeObject): KubeObject {
  const name = current.metadata.name;
  if (['default', 'kube-system', 'kube-public'].includes(name)) throw forbidden(`namespaces "${name}" is forbidden: this namespace may not be deleted`, 'namespaces', '', name);
  for (const t of RESOURCES.filter((t) => t.namespaced)) {
    for (const o of store.list(t.resource, name)) {
      if (t.resource === 'pods') runtime.stopped(name, o.metadata.name);
      store.delete(t.resource, name, o.metadata.name);
    }
  }
  erase();
  return { ...current, metadata: { ...current.metadata, deletionTimestamp: timestamp() }, status: { phase: 'Terminating' } };
}
