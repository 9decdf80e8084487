import type { CoreV1Api, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import type { WorkspaceRole } from '../db/schema.js';
import {
  ClusterError,
  type ClusterGateway,
  clusterRoleFor,
  IDENTITY_NAMESPACE,
  MANAGED_BY,
  type MemberAccessObject,
  parseRoleBindingName,
  parseServiceAccountName,
  roleBindingName,
  serviceAccountName,
  USER_LABEL,
  WORKSPACE_CLUSTER_ROLES,
  WORKSPACE_ID_LABEL,
} from './gateway.js';
import { call, ensureObject, ignoreNotFound, labelledAsManaged, sameJson } from './kubernetesCalls.js';
import { ensureNamespace } from './kubernetesWorkspace.js';

// Members' access to a workspace: the console's two ClusterRoles, a ServiceAccount per
// membership in testbed-identities, a RoleBinding in the workspace, and the tokens of
// downloaded kubeconfigs. Read first, written only when absent or different.

export function accessCalls(
  core: CoreV1Api,
  rbac: RbacAuthorizationV1Api,
): Pick<ClusterGateway, 'ensureClusterRoles' | 'ensureMemberAccess' | 'revokeMemberAccess' | 'listMemberAccess' | 'deleteMemberAccessObject' | 'issueKubeconfigToken'> {
  return {
    // Bindings need these; callers ensure them before binding (once per reconciler pass, and
    // before an on-demand binding), since an API server may lose them (a restarted sandbox).
    async ensureClusterRoles() {
      for (const [role, rules] of Object.entries(WORKSPACE_CLUSTER_ROLES) as [WorkspaceRole, (typeof WORKSPACE_CLUSTER_ROLES)['member']][]) {
        const name = clusterRoleFor(role);
        const body = { metadata: { name, labels: { ...MANAGED_BY } }, rules };
        await ensureObject({
          read: () => rbac.readClusterRole({ name }),
          create: () => rbac.createClusterRole({ body }),
          matches: (existing) => sameJson(existing.rules ?? [], rules),
          update: (existing) =>
            rbac.replaceClusterRole({ name, body: { ...body, metadata: { ...body.metadata, resourceVersion: existing.metadata?.resourceVersion } } }),
        });
      }
    },

    async ensureMemberAccess({ namespace, workspaceId, userId, role }) {
      await ensureNamespace(core, IDENTITY_NAMESPACE, { ...MANAGED_BY });
      const account = serviceAccountName(userId, workspaceId);
      const labels = { ...MANAGED_BY, [USER_LABEL]: String(userId), [WORKSPACE_ID_LABEL]: String(workspaceId) };
      // Created when absent; an existing account is left as it is (its tokens stay valid).
      await ensureObject({
        read: () => core.readNamespacedServiceAccount({ name: account, namespace: IDENTITY_NAMESPACE }),
        create: () =>
          core.createNamespacedServiceAccount({
            namespace: IDENTITY_NAMESPACE,
            body: { metadata: { name: account, namespace: IDENTITY_NAMESPACE, labels } },
          }),
      });
      const name = roleBindingName(userId);
      const body = {
        metadata: { name, namespace, labels },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: clusterRoleFor(role) },
        subjects: [{ kind: 'ServiceAccount', name: account, namespace: IDENTITY_NAMESPACE }],
      };
      await ensureObject({
        read: () => rbac.readNamespacedRoleBinding({ name, namespace }),
        create: () => rbac.createNamespacedRoleBinding({ namespace, body }),
        matches: (existing) =>
          existing.roleRef.name === body.roleRef.name && existing.roleRef.kind === body.roleRef.kind && sameJson(existing.subjects ?? [], body.subjects),
        // roleRef cannot change in place: a binding to another role is replaced.
        update: async () => {
          await rbac.deleteNamespacedRoleBinding({ name, namespace });
          await rbac.createNamespacedRoleBinding({ namespace, body });
        },
      });
    },

    async revokeMemberAccess({ namespace, workspaceId, userId }) {
      await call(() => rbac.deleteNamespacedRoleBinding({ name: roleBindingName(userId), namespace })).catch(ignoreNotFound);
      // Deleting the account voids the tokens issued for it: downloaded kubeconfigs stop working.
      await call(() =>
        core.deleteNamespacedServiceAccount({ name: serviceAccountName(userId, workspaceId), namespace: IDENTITY_NAMESPACE }),
      ).catch(ignoreNotFound);
    },

    async listMemberAccess(namespaces) {
      const objects: MemberAccessObject[] = [];
      const accounts = await call(() => core.listNamespacedServiceAccount({ namespace: IDENTITY_NAMESPACE })).catch(ignoreNotFound);
      for (const account of accounts?.items ?? []) {
        const name = account.metadata?.name ?? '';
        const ids = parseServiceAccountName(name);
        // Kubernetes' own `default` account (and anything else neither named nor labelled as ours) stays.
        if (!ids && !labelledAsManaged(account.metadata)) continue;
        objects.push({ kind: 'ServiceAccount', namespace: IDENTITY_NAMESPACE, name, workspaceId: ids?.workspaceId ?? null, userId: ids?.userId ?? null });
      }
      for (const namespace of namespaces) {
        const bindings = await call(() => rbac.listNamespacedRoleBinding({ namespace })).catch(ignoreNotFound);
        for (const binding of bindings?.items ?? []) {
          const name = binding.metadata?.name ?? '';
          const identities = (binding.subjects ?? []).filter((subject) => subject.kind === 'ServiceAccount' && subject.namespace === IDENTITY_NAMESPACE);
          const userId = parseRoleBindingName(name);
          if (userId === null && identities.length === 0 && !labelledAsManaged(binding.metadata)) continue;
          const subject = identities.length === 1 ? parseServiceAccountName(identities[0].name) : null;
          objects.push({ kind: 'RoleBinding', namespace, name, workspaceId: subject?.workspaceId ?? null, userId });
        }
      }
      return objects;
    },

    async deleteMemberAccessObject({ kind, namespace, name }) {
      if (kind === 'ServiceAccount') await call(() => core.deleteNamespacedServiceAccount({ name, namespace })).catch(ignoreNotFound);
      else await call(() => rbac.deleteNamespacedRoleBinding({ name, namespace })).catch(ignoreNotFound);
    },

    async issueKubeconfigToken({ userId, workspaceId, expirationSeconds }) {
      const answer = await call(() =>
        core.createNamespacedServiceAccountToken({
          name: serviceAccountName(userId, workspaceId),
          namespace: IDENTITY_NAMESPACE,
          body: { spec: { audiences: [], expirationSeconds } },
        }),
      );
      const token = answer.status?.token;
      if (!token) throw new ClusterError('invalid', 'The cluster issued no token.');
      const expires = answer.status?.expirationTimestamp;
      return {
        token,
        expiresAt: expires ? new Date(expires).toISOString() : new Date(Date.now() + expirationSeconds * 1000).toISOString(),
      };
    },
  };
}
