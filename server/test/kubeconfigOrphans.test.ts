import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDENTITY_NAMESPACE, type MemberAccessObject, roleBindingName, serviceAccountName } from '../src/cluster/gateway.js';
import { kubeconfigYaml } from '../src/cluster/http.js';
import { justified } from '../src/cluster/sweep.js';
import { kubectlAvailable, kubectlWith } from './kubectl.js';
import {
  injector,
  type KubeconfigWorld,
  kubectlOutcome,
  saveKubeconfig,
  signedIn,
  startKubeconfigWorld,
  teamWithWorkspace,
  UNAUTHORIZED,
} from './kubeconfigWorld.js';

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
  let world: KubeconfigWorld;
  let inject: ReturnType<typeof injector>;
  let admin: (...args: string[]) => Promise<string>;

  beforeAll(async () => {
    world = await startKubeconfigWorld();
    inject = injector(world);
    const file = join(world.dir, 'admin.kubeconfig');
    const info = world.gateway.clusterInfo()!;
    writeFileSync(file, kubeconfigYaml({ server: info.server, caPem: info.ca, namespace: 'default', user: 'admin', token: world.sandbox.adminToken }));
    admin = kubectlWith(() => file);
  });

  afterAll(async () => {
    await world?.close();
  });

  it('deletes service accounts and role bindings that no membership justifies, and only those', async () => {
    const { workspace, people } = await teamWithWorkspace(world);
    const { namespace } = workspace;
    const outsider = await signedIn(world, 'Otto');
    const downloaded = await inject('POST', `/api/subnamespaces/${workspace.id}/kubeconfig`, people.member.token);
    expect(downloaded.statusCode).toBe(201);
    const memberKubeconfig = saveKubeconfig(world, downloaded.json().kubeconfig);

    // Behind the console's back: access for someone who is no member (what a lost race would leave) …
    const target = { namespace, workspaceId: workspace.id, userId: outsider.user.id };
    await world.gateway.ensureMemberAccess({ ...target, role: 'manager' });
    const issued = await world.gateway.issueKubeconfigToken({ ...target, expirationSeconds: 3600 });
    const info = world.gateway.clusterInfo()!;
    const outsiderKubeconfig = saveKubeconfig(world, kubeconfigYaml({ server: info.server, caPem: info.ca, namespace, user: 'outsider', token: issued.token }));
    // … a second binding of the member's account, to the manager role, and an account labelled
    // as the console's that no membership names (kubectl create -f; --validate=false: the
    // sandbox serves no OpenAPI document).
    const manifest = join(world.dir, 'behind-the-back.json');
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
    await admin('create', '-f', manifest, '--validate=false');
    expect(world.sandbox.store.get('rolebindings', namespace, 'sneaky')).toBeDefined();

    expect((await kubectlOutcome(outsiderKubeconfig, 'get', 'pods')).ok).toBe(true);
    // A pass over pending work only does not look for them.
    expect((await world.reconciler.reconcileOnce()).failed).toBe(0);
    expect((await kubectlOutcome(outsiderKubeconfig, 'get', 'pods')).ok).toBe(true);

    expect((await world.reconciler.reconcileOnce({ all: true })).failed).toBe(0);
    const refused = await kubectlOutcome(outsiderKubeconfig, 'get', 'pods');
    expect(refused.ok).toBe(false);
    expect(refused.output).toMatch(UNAUTHORIZED);
    const store = world.sandbox.store;
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
    const { workspace, people } = await teamWithWorkspace(world);
    const downloaded = await inject('POST', `/api/subnamespaces/${workspace.id}/kubeconfig`, people.member.token);
    const kubeconfig = saveKubeconfig(world, downloaded.json().kubeconfig);
    // As a database restored from before the revocation would leave it: no row, no revocation.
    await world.database.db.deleteFrom('workspace_members').where('workspace_id', '=', workspace.id).where('user_id', '=', people.member.user.id).execute();
    expect((await world.reconciler.reconcileOnce()).failed).toBe(0);
    expect((await kubectlOutcome(kubeconfig, 'get', 'pods')).ok).toBe(true);
    expect((await world.reconciler.reconcileOnce({ all: true })).failed).toBe(0);
    expect((await kubectlOutcome(kubeconfig, 'get', 'pods')).output).toMatch(UNAUTHORIZED);
  });
});
