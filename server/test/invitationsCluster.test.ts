import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDENTITY_NAMESPACE } from '../src/cluster/gateway.js';
import { timestamp } from '../src/db/database.js';
import { createTestContext, linkIn, type TestContext, unique, uniqueEmail } from './helpers.js';

// An accepted invitation reaches the cluster like an approved JoinWorkspace (the
// reconciler gives the person's service account and role binding in the workspace's namespace
// of the real sandbox cluster, over HTTPS), and the realtime side hears of it (rights re-checked,
// InvitationAccepted to the inviter). On SQLite and PostgreSQL.

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext({ cluster: true, reconciler: true });
});

afterAll(async () => {
  await ctx?.close();
});

const person = (firstname: string) => ctx.signedInUser({ firstname, lastname: 'Tester', email: uniqueEmail(firstname.toLowerCase()) });

describe('an accepted invitation', () => {
  it('gives cluster access in the invited workspaces through the reconciler, and tells the realtime side', async () => {
    const owner = await person('Olivia');
    const guest = await person('Gus');
    const now = timestamp();
    const name = unique('inv');
    const team = await ctx.db
      .insertInto('teams')
      .values({ name, fullname: `Team ${name}`, shortname: name, affiliation: 'Uni', city: null, country: 'FR', url: 'https://example.org', joining_reason: 'why', joining_category: 'Research', created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
    await ctx.db.insertInto('team_members').values({ team_id: team.id, user_id: owner.user.id, role: 'owner', enabled: 1, created_at: now }).execute();
    const workspace = await ctx.db
      .insertInto('workspaces')
      .values({ team_id: team.id, name: 'radio', label: 'Radio', description: null, namespace: `${name}-radio`, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
    expect((await ctx.reconciler.reconcileOnce()).failed).toBe(0);
    const binding = () => ctx.cluster.sandbox.store.get('rolebindings', workspace.namespace, `testbed-user-${guest.user.id}`);
    expect(binding()).toBeUndefined();

    const invited = await ctx.inject('POST', `/api/tenants/${team.id}/invitations`, { token: owner.token, body: { email: guest.user.email, role: 'member', workspace_ids: [workspace.id] } });
    expect(invited.statusCode, invited.body).toBe(201);
    await ctx.idle();
    const link = linkIn(await ctx.mailbox.waitFor(guest.user.email, { subject: /invites you/ }), '/invitations/');
    const accepted = await ctx.inject('POST', `/api${link.pathname}/accept`, { token: guest.token });
    expect(accepted.statusCode, accepted.body).toBe(200);

    expect(ctx.rightsChanges).toContainEqual([guest.user.id]);
    expect(ctx.broadcasts).toContainEqual({
      userId: owner.user.id,
      event: 'InvitationAccepted',
      payload: { id: invited.json().id, team_id: team.id, email: guest.user.email, user_id: guest.user.id },
    });

    expect((await ctx.reconciler.reconcileOnce()).failed).toBe(0);
    expect(binding()).toBeDefined();
    expect(ctx.cluster.sandbox.store.get('serviceaccounts', IDENTITY_NAMESPACE, `member-w${workspace.id}-u${guest.user.id}`)).toBeDefined();
    const membership = await ctx.db
      .selectFrom('workspace_members')
      .select('cluster_state')
      .where('workspace_id', '=', workspace.id)
      .where('user_id', '=', guest.user.id)
      .executeTakeFirstOrThrow();
    expect(membership.cluster_state).toBe('ready');
    // And the kubeconfig of the workspace is theirs to download.
    const kubeconfig = await ctx.inject('POST', `/api/subnamespaces/${workspace.id}/kubeconfig`, { token: guest.token });
    expect(kubeconfig.statusCode, kubeconfig.body).toBe(201);
  });
});
