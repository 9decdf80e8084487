import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { accessKey, entitledMemberships } from './entitlement.js';
import { type ClusterGateway, IDENTITY_NAMESPACE, type MemberAccessObject, serviceAccountName } from './gateway.js';

// The reconciler's full resync ends with this sweep: every member service account and role
// binding that no current, entitled membership justifies is deleted (a deleted service account
// voids every token issued for it). Whatever slipped past the revocations (an object made by
// hand, a race not foreseen, a revocation lost with a database restore) thus lasts until the
// next resync at most.
//
// The cluster is listed first and the database read after: an object made after the listing is
// not judged this time, and one in the listing was made for a membership that, if it still
// gives the right, the database read afterwards shows (entitlement.ts).

/**
 * Whether a current entitled membership justifies the object: a service account named for
 * (workspace, user), or a role binding named for the user in that workspace's namespace.
 * `workspaceOf` maps the namespaces of the workspaces to their ids.
 */
export function justified(
  object: MemberAccessObject,
  entitled: ReadonlyMap<string, unknown>,
  workspaceOf: ReadonlyMap<string, number>,
): boolean {
  if (object.userId === null) return false;
  if (object.kind === 'ServiceAccount') {
    return (
      object.namespace === IDENTITY_NAMESPACE &&
      object.workspaceId !== null &&
      object.name === serviceAccountName(object.userId, object.workspaceId) &&
      entitled.has(accessKey(object.workspaceId, object.userId))
    );
  }
  const workspaceId = workspaceOf.get(object.namespace);
  return workspaceId !== undefined && entitled.has(accessKey(workspaceId, object.userId));
}

/** Deletes the member-access objects nothing justifies; answers them. */
export async function sweepMemberAccess(db: Kysely<Database>, gateway: ClusterGateway): Promise<MemberAccessObject[]> {
  const workspaces = await db.selectFrom('workspaces').select(['id', 'namespace']).where('cluster_state', '=', 'ready').execute();
  const found = await gateway.listMemberAccess(workspaces.map((workspace) => workspace.namespace));
  const entitled = await entitledMemberships(db);
  const workspaceOf = new Map(workspaces.map((workspace) => [workspace.namespace, workspace.id]));
  const orphans = found.filter((object) => !justified(object, entitled, workspaceOf));
  for (const orphan of orphans) await gateway.deleteMemberAccessObject(orphan);
  return orphans;
}
