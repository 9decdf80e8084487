import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { newNodeBody } from './schemas.js';

// One name, one node. People see a node under its Kubernetes Node name, and before the node
// has one under the hostname its owner typed (src/resources/nodes/nodeParts.tsx, nodeLabel).
// Kubernetes Node names are unique in the whole cluster, so a name is refused when any node
// of the console, whoever owns it, already goes by it: as its Node name or as its hostname.
// Nodes are never soft-deleted (a machine-first node nobody claimed is deleted outright, and
// it has no hostname), so every row holds its names.
//
// Existing databases may already hold nodes sharing a hostname, so no unique index can say
// it; the check runs inside the writing transaction instead. On SQLite the console's
// transactions are serialised already (one connection). On PostgreSQL two replicas could
// each check and then both insert, so the transaction first takes an advisory lock on the
// name: whoever comes second waits, then sees the first one's row.

/** The advisory locks' first key for node names (the second is the name's hash). */
const NODE_NAME_LOCK_SPACE = 0x6e6f6465; // "node"

/** Takes, until the end of the transaction, the lock on `name` (PostgreSQL; a no-op on SQLite). */
export async function lockNodeName(trx: Kysely<Database>, name: string): Promise<void> {
  if (dialectOf(trx) !== 'postgres') return;
  await sql`select pg_advisory_xact_lock(${NODE_NAME_LOCK_SPACE}, hashtext(${name}))`.execute(trx);
}

/** Whether a node other than `exceptId` goes by `name` (its Node name or its hostname). */
export async function nodeNameTaken(db: Kysely<Database>, name: string, exceptId?: number): Promise<boolean> {
  const found = await db
    .selectFrom('nodes')
    .select('id')
    .where((eb) => eb.or([eb('name', '=', name), eb('hostname', '=', name)]))
    .$if(exceptId !== undefined, (query) => query.where('id', '!=', exceptId!))
    .limit(1)
    .executeTakeFirst();
  return found !== undefined;
}

/** Locks `name`, then tells whether it is taken: the check to run before writing it. */
export async function claimNodeName(trx: Kysely<Database>, name: string, exceptId?: number): Promise<boolean> {
  await lockNodeName(trx, name);
  return !(await nodeNameTaken(trx, name, exceptId));
}

/**
 * Whether the hostname of a new-node body the schema refused for another field is valid and
 * taken: so that one answer says both, rather than the name only once the rest is fixed.
 */
export async function refusedBodyHostnameTaken(db: Kysely<Database>, body: unknown): Promise<boolean> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const hostname = newNodeBody.shape.hostname.safeParse((body as Record<string, unknown>).hostname);
  return hostname.success && hostname.data !== null && (await nodeNameTaken(db, hostname.data));
}
