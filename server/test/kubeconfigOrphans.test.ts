import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDENTITY_NAMESPACE, type MemberAccessObject, roleBindingName, serviceAccountName } from '../src/cluster/gateway.js';
import { kubeconfigYaml } from '../src/cluster/http.js';
import { justified } from '../src/cluster/sweep.js';
import { createTestContext, type TestContext } from './helpers.js';
import { FAST_SANDBOX_TIMINGS, kubectlAvailable, kubectlWith } from './kubectl.js';
import {
  kubectlOutcome,
  saveKubeconfig,
  signedIn,
  teamWithWorkspace,
  UNAUTHORIZED,
} from './kubeconfigFixtures.js';

// The reconciler's full resync deletes member service accounts and role bindings that no
// entitled membership justifies, so access that slipped past the revocations (made by hand,
// or left by a revocation that never ran) lasts until the next resync at most.

const haveKubectl = kubectlAvailable('server/test/kubeconfigOrphans.test.ts', 'the sweep of unjustified cluster access');

describe('justified (the sweep rule)', () => {
  const entitled = new Map([['7:3', {}]]);
  const workspaceOf = new Map([['lab-vision', 7]]);
  const object = (over: Partial<MemberAccessObject>): MemberAccessObject => ({
    kind: 'ServiceAccount',
    namespace: IDENTITY_NAMESPACE,
    name: serviceAccountName(3, 7),
    workspaceId: 7,
    userId: 3,
    ...over,
  });

  it('keeps what an entitled membership justifies', () => {
    expect(justified(object({}), entitled, workspaceOf)).toBe(true);
    expect(justified(object({ kind: 'RoleBinding', namespace: 'lab-vision', name: roleBindingName(3) }), entitled, workspaceOf)).toBe(true);
  });

  it('deletes the rest', () => {
    expect(justified(object({ name: serviceAccountName(4, 7), userId: 4 }), entitled, workspaceOf)).toBe(false);
    expect(justified(object({ name: 'leftover', workspaceId: null, userId: null }), entitled, workspaceOf)).toBe(false);
    expect(justified(object({ namespace: 'lab-vision' }), entitled, workspaceOf)).toBe(false);
    expect(justified(object({ kind: 'RoleBinding', namespace: 'lab-other', name: roleBindingName(3) }), entitled, workspaceOf)).toBe(false);
    expect(justified(object({ kind: 'RoleBinding', namespace: 'lab-vision', name: 'sneaky', userId: null }), entitled, workspaceOf)).toBe(false);
  });
});

describe.skipIf(!haveKubectl)('the full resync on the sandbox cluster', () => {
  let ctx: TestContext;
  let admin: (...args: string[]) => Promise<string>;

  beforeAll(async () => {
    ctx = await createTestContext({ cluster: { timings: FAST_SANDBOX_TIMINGS }, reconciler: true });
    const file = join(ctx.dir, 'admin.kubeconfig');
    const info = ctx.cluster.gateway.clusterInfo()!;
    writeFileSync(file, kubeconfigYaml({ server: info.server, caPem: info.ca, namespace: 'default', user: 'admin', token: ctx.cluster.sandbox.adminToken }));
    admin = kubectlWith(() => file);
  });

  afterAll(async () => {
    await ctx?.close();
  });

  it('deletes service accounts and role bindings that no membership justifies, and only those', async () => {
    const { workspace, people } = await teamWithWorkspace(ctx);
    const { namespace } = workspace;
    const outsider = await signedIn(ctx, 'Otto');
    const downloaded = await ctx.inject('POST', `/api/subnamespaces/${workspace.id}/kubeconfig`, { token: people.member.token });
    expect(downloaded.statusCode).toBe(201);
    const memberKubeconfig = saveKubeconfig(ctx, downloaded.json().kubeconfig);

    // Behind the console's back: access for someone who is no member (what a lost race would leave) …
    const target = { namespace, workspaceId: workspace.id, userId: outsider.user.id };
    await ctx.cluster.gateway.ensureMemberAccess({ ...target, role: 'manager' });
    const issued = await ctx.cluster.gateway.issueKubeconfigToken({ ...target, expirationSeconds: 3600 });
    const info = ctx.cluster.gateway.clusterInfo()!;
    const outsiderKubeconfig = saveKubeconfig(ctx, kubeconfigYaml({ server: info.server, caPem: info.ca, namespace, user: 'outsider', token: issued.token }));
    // … a second binding of the member's account, to the manager role, and an account labelled
    // as the console's that no membership names (kubectl create -f).
    const manifest = join(ctx.dir, 'behind-the-back.json');
    writeFileSync(
      manifest,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'List',
        items: [
          {
            apiVersion: 'rbac.authorization.k8s.io/v1',
            kind: 'RoleBinding',
            metadata: { name: 'sneaky', namespace },
            roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'testbed-workspace-manager' },
            subjects: [{ kind: 'ServiceAccount', name: serviceAccountName(people.member.user.id, workspace.id), namespace: IDENTITY_NAMESPACE }],
          },
          { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'leftover', namespace: IDENTITY_NAMESPACE, labels: { 'app.kubernetes.io/managed-by': 'testbed-console' } } },
        ],
      }),
    );
    await admin('create', '-f', manifest);
    expect(ctx.cluster.sandbox.store.get('rolebindings', namespace, 'sneaky')).toBeDefined();

    expect((await kubectlOutcome(outsiderKubeconfig, 'get', 'pods')).ok).toBe(true);
    // A pass over pending work only does not look for them.
    expect((await ctx.reconciler.reconcileOnce()).failed).toBe(0);
    expect((await kubectlOutcome(outsiderKubeconfig, 'get', 'pods')).ok).toBe(true);

    expect((await ctx.reconciler.reconcileOnce({ all: true })).failed).toBe(0);
    const refused = await kubectlOutcome(outsiderKubeconfig, 'get', 'pods');
    expect(refused.ok).toBe(false);
    expect(refused.output).toMatch(UNAUTHORIZED);
    const store = ctx.cluster.sandbox.store;
    expect(store.get('serviceaccounts', IDENTITY_NAMESPACE, serviceAccountName(outsider.user.id, workspace.id))).toBeUndefined();
    expect(store.get('rolebindings', namespace, roleBindingName(outsider.user.id))).toBeUndefined();
    expect(store.get('rolebindings', namespace, 'sneaky')).toBeUndefined();
    expect(store.get('serviceaccounts', IDENTITY_NAMESPACE, 'leftover')).toBeUndefined();

    // What memberships justify stays: the member's kubeconfig works, with the member role only.
    expect((await kubectlOutcome(memberKubeconfig, 'get', 'pods')).ok).toBe(true);
    expect(store.get('rolebindings', namespace, roleBindingName(people.member.user.id))?.roleRef.name).toBe('testbed-workspace-member');
    expect(store.get('rolebindings', namespace, roleBindingName(people.owner.user.id))?.roleRef.name).toBe('testbed-workspace-manager');
  });

  it('deletes the access of a membership deleted without its revocation', async () => {
    const { workspace, people } = await teamWithWorkspace(ctx);
    const downloaded = await ctx.inject('POST', `/api/subnamespaces/${workspace.id}/kubeconfig`, { token: people.member.token });
    const kubeconfig = saveKubeconfig(ctx, downloaded.json().kubeconfig);
    // As a database restored from before the revocation would leave it: no row, no revocation.
    await ctx.db.deleteFrom('workspace_members').where('workspace_id', '=', workspace.id).where('user_id', '=', people.member.user.id).execute();
    expect((await ctx.reconciler.reconcileOnce()).failed).toBe(0);
    expect((await kubectlOutcome(kubeconfig, 'get', 'pods')).ok).toBe(true);
    expect((await ctx.reconciler.reconcileOnce({ all: true })).failed).toBe(0);
    expect((await kubectlOutcome(kubeconfig, 'get', 'pods')).output).toMatch(UNAUTHORIZED);
  });
});
