import type { Kysely } from 'kysely';
import { recordActivity } from '../activity/log.js';
import type { ClusterNode } from '../cluster/gateway.js';
import type { RateLimit } from '../config/config.js';
import { timestamp } from '../db/database.js';
import type { Database, NodeRecord, User } from '../db/schema.js';
import { FORBIDDEN } from '../http/authenticate.js';
import { fieldError, HttpError, notFound } from '../http/errors.js';
import { reserveEach, type Throttle } from '../http/throttle.js';
import { changeNode, loadNode, type NodeServices, nodeSubject, withNodeCluster } from './records.js';
import type { NewNodeInput } from './schemas.js';
import { CODE_UNKNOWN, HOSTNAME_TAKEN } from './schemas.js';
import { claimNodeName } from './names.js';
import { newNodeSecret } from './secrets.js';

// What people do with nodes through the console (docs/nodes-contract.md): list and read their
// own (platform admins: any), add a node to install, claim a machine by the code it shows,
// and, for platform admins, disable or enable a cluster Node. The routes are routes.ts and
// admin/nodeRoutes.ts.

/** The wrong-code limit of POST /api/nodes (nodeClaim, per user) and where it is counted. */
export interface ClaimThrottle {
  throttle: Throttle;
  limit: RateLimit;
}

// ---------------------------------------------------------------------------------------
// Reading

/** A node the user may see: their own, or any for a platform admin; else 404 (existence is not revealed). */
export async function nodeForUser(db: Kysely<Database>, user: User, id: number): Promise<NodeRecord> {
  const node = await loadNode(db, id);
  if (!node || (node.owner_id !== user.id && user.admin !== 1)) throw notFound();
  return node;
}

/**
 * GET /api/nodes: the user's nodes, newest first. Platform admins may ask for another
 * user's (`owner` = id) or every node (`owner` = 'all', unclaimed machines included).
 */
export async function listNodesFor(db: Kysely<Database>, user: User, owner?: string): Promise<NodeRecord[]> {
  const ownerId = owner === undefined || owner === 'all' ? user.id : Number(owner);
  if ((owner === 'all' || ownerId !== user.id) && user.admin !== 1) throw new HttpError(403, FORBIDDEN);
  return db
    .selectFrom('nodes')
    .selectAll()
    .$if(owner !== 'all', (query) => query.where('owner_id', '=', ownerId))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export function nodeActivity(db: Kysely<Database>, nodeId: number, limit = 200) {
  return db
    .selectFrom('activity_log')
    .selectAll()
    .where('subject_type', '=', 'node')
    .where('subject_id', '=', nodeId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

// ---------------------------------------------------------------------------------------
// Adding nodes: console first, or claiming a machine by its code

/**
 * POST /api/nodes: claims a machine when a code is given, else adds a node to install. A
 * hostname another node already goes by is refused on `hostname` (names.ts), nothing written.
 */
export async function createNode(
  services: NodeServices,
  user: User,
  input: NewNodeInput,
  claimThrottle: ClaimThrottle | null,
): Promise<NodeRecord> {
  if (input.code) return claimNode(services, user, { ...input, code: input.code }, claimThrottle);
  // The body schema requires a type when no code is given.
  const type = input.type!;
  const { db, config } = services;
  const { salt, hash } = newNodeSecret(config.appKey);
  const now = timestamp();
  return db.transaction().execute(async (trx) => {
    if (input.hostname && !(await claimNodeName(trx, input.hostname))) throw fieldError('hostname', HOSTNAME_TAKEN);
    const node = await trx
      .insertInto('nodes')
      .values({
        owner_id: user.id,
        name: null,
        type,
        dhcp: input.dhcp ? 1 : 0,
        hostname: input.hostname,
        ipv4: input.ipv4,
        ip_v6: null,
        notes: input.notes,
        status: 'to install',
        disabled_at: null,
        secret_hash: hash,
        secret_salt: salt,
        claim_code: null,
        claim_code_expires_at: null,
        info: '{}',
        last_active_at: null,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordActivity(trx, {
      causerId: user.id,
      description: 'node added',
      subject: nodeSubject(node.id),
      properties: { type: node.type, hostname: node.hostname },
    });
    return node;
  });
}

/**
 * Claims the unclaimed machine showing `code`: one-time (the code is cleared), and only
 * before it expires. Wrong codes count towards the user's limit (429 once reached), so codes
 * cannot be guessed. The attempt is reserved before the code is looked up, so that
 * concurrent guesses cannot all be checked before the first failure is counted; a claim that
 * succeeds gives its reservation back.
 */
export async function claimNode(
  services: NodeServices,
  user: User,
  input: NewNodeInput & { code: string },
  claimThrottle: ClaimThrottle | null,
): Promise<NodeRecord> {
  const { db } = services;
  const [reservation] = claimThrottle
    ? await reserveEach(claimThrottle.throttle, [[`node-claim:user:${user.id}`, claimThrottle.limit]])
    : [];
  const now = timestamp();
  const claimed = await db.transaction().execute(async (trx): Promise<NodeRecord | 'name taken' | undefined> => {
    const candidate = await trx
      .selectFrom('nodes')
      .selectAll()
      .where('claim_code', '=', input.code)
      .where('owner_id', 'is', null)
      .where('claim_code_expires_at', '>', now)
      .executeTakeFirst();
    if (!candidate) return undefined;
    if (input.hostname && !(await claimNodeName(trx, input.hostname, candidate.id))) return 'name taken';
    const node = await trx
      .updateTable('nodes')
      .set({
        owner_id: user.id,
        claim_code: null,
        claim_code_expires_at: null,
        type: input.type ?? candidate.type,
        dhcp: input.dhcp ? 1 : 0,
        hostname: input.hostname ?? candidate.hostname,
        ipv4: input.ipv4 ?? candidate.ipv4,
        notes: input.notes,
        updated_at: now,
      })
      .where('id', '=', candidate.id)
      // Of two users typing the same code at once, one wins.
      .where('owner_id', 'is', null)
      .returningAll()
      .executeTakeFirst();
    if (!node) return undefined;
    await recordActivity(trx, { causerId: user.id, description: 'node claimed', subject: nodeSubject(node.id), properties: { type: node.type } });
    return node;
  });
  if (!claimed) throw fieldError('code', CODE_UNKNOWN);
  // The code was right: it does not count as a guess, whatever else is wrong.
  if (claimThrottle && reservation) await claimThrottle.throttle.release(reservation);
  if (claimed === 'name taken') throw fieldError('hostname', HOSTNAME_TAKEN);
  return claimed;
}

// ---------------------------------------------------------------------------------------
// Platform admins

/**
 * Disables (cordons, and marks the console node disabled) or enables a cluster Node. Nodes
 * the console did not add are only cordoned/uncordoned; the entry has no node subject then.
 */
export async function setClusterNodeDisabled(
  services: NodeServices,
  admin: User,
  name: string,
  disabled: boolean,
): Promise<{ cluster: ClusterNode; node: NodeRecord | undefined }> {
  const cluster = await withNodeCluster(() => services.cluster.setNodeUnschedulable(name, disabled));
  const existing = await services.db.selectFrom('nodes').select('id').where('name', '=', name).executeTakeFirst();
  const description = disabled ? 'node disabled' : 'node enabled';
  const severity = disabled ? 'warning' : 'info';
  if (!existing) {
    await recordActivity(services.db, { causerId: admin.id, description, severity, properties: { node_name: name } });
    return { cluster, node: undefined };
  }
  const node = await changeNode(
    services,
    existing.id,
    (current) => ({
      changes: { disabled_at: disabled ? (current.disabled_at ?? timestamp()) : null },
      activity: [{ causerId: admin.id, description, severity, properties: { node_name: name } }],
    }),
    admin.id,
  );
  return { cluster, node };
}
