import { writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { expect } from 'vitest';
import { timestamp } from '../src/db/database.js';
import { type SignedInUser, type TestContext, unique, uniqueEmail } from './helpers.js';
import { kubectlWith } from './kubectl.js';
import { addTeamMember, addWorkspaceMember } from './teamFixtures.js';

// What the kubeconfig tests share, in a context with the sandbox cluster and a reconciler
// (createTestContext({ cluster: …, reconciler: … })): people and teams made directly in the
// database, and ways to ask the cluster whether a downloaded kubeconfig still works (kubectl, or
// one HTTPS request with its token when there are many to try).

/** A signed-in person named "<firstname> Tester". */
export const signedIn = (ctx: TestContext, firstname: string, options: { admin?: boolean } = {}): Promise<SignedInUser> =>
  ctx.signedInUser({ firstname, lastname: 'Tester', email: uniqueEmail(firstname.toLowerCase()), admin: options.admin ?? false });

/**
 * A team (owner, member) with one workspace in the cluster, both of them in it; and a platform
 * admin. The owner and the admin may be given (signing people in is slow: Argon2); the member is new.
 */
export async function teamWithWorkspace(ctx: TestContext, given: { owner?: SignedInUser; admin?: SignedInUser } = {}) {
  const [owner, member, admin] = await Promise.all([
    given.owner ?? signedIn(ctx, 'Olivia'),
    signedIn(ctx, 'Mia'),
    given.admin ?? signedIn(ctx, 'Ada', { admin: true }),
  ]);
  const name = unique('kc');
  const now = timestamp();
  const db = ctx.db;
  const team = await db
    .insertInto('teams')
    .values({ name, fullname: `Team ${name}`, shortname: name, affiliation: 'Uni', city: null, country: 'FR', url: 'https://example.org', joining_reason: 'why', joining_category: 'Research', created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  await addTeamMember(ctx, team.id, owner.user.id, 'owner');
  await addTeamMember(ctx, team.id, member.user.id, 'member');
  const workspace = await db
    .insertInto('workspaces')
    .values({ team_id: team.id, name: 'ws', label: 'Space', description: null, namespace: `${name}-ws`, created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  await addWorkspaceMember(ctx, workspace.id, owner.user.id, 'manager');
  await addWorkspaceMember(ctx, workspace.id, member.user.id, 'member');
  expect((await ctx.reconciler.reconcileOnce()).failed).toBe(0);
  return { team, workspace, people: { owner, member, admin } };
}

/** Writes a downloaded kubeconfig to a file; answers its path. */
export function saveKubeconfig(ctx: TestContext, kubeconfig: string): string {
  const file = join(ctx.dir, `${unique('kubeconfig')}.yaml`);
  writeFileSync(file, kubeconfig);
  return file;
}

/**
 * What kubectl prints when the cluster refuses a kubeconfig's token (401): "Unauthorized", or
 * "the server has asked for the client to provide credentials", depending on the request.
 */
export const UNAUTHORIZED = /Unauthorized|provide credentials/;

/** kubectl with this kubeconfig: its stdout, or what it printed on stderr when it failed. */
export async function kubectlOutcome(file: string, ...args: string[]): Promise<{ ok: boolean; output: string }> {
  return kubectlWith(() => file)(...args).then(
    (stdout) => ({ ok: true, output: stdout }),
    (error: { stderr?: string; message: string }) => ({ ok: false, output: error.stderr || error.message }),
  );
}

/**
 * The HTTP status the cluster answers a kubeconfig's token for listing the pods of its namespace
 * (200: it works; 401: the token is void; 403: valid, but bound to nothing there). One HTTPS
 * request, for the many kubeconfigs of a race; kubectl checks a few of them as a person would.
 */
export function clusterStatusFor(ctx: TestContext, kubeconfig: string): Promise<number> {
  const parsed = yaml.load(kubeconfig) as {
    clusters: { cluster: { server: string } }[];
    users: { user: { token: string } }[];
    contexts: { context: { namespace: string } }[];
  };
  const url = new URL(`/api/v1/namespaces/${parsed.contexts[0].context.namespace}/pods`, parsed.clusters[0].cluster.server);
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, { method: 'GET', ca: ctx.cluster.sandbox.caPem, headers: { authorization: `Bearer ${parsed.users[0].user.token}` } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}
