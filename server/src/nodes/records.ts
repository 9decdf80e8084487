import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Updateable } from 'kysely';
import { type ActivityInput, recordActivity } from '../activity/log.js';
import { type ClusterGateway, ClusterError, ClusterUnavailable } from '../cluster/gateway.js';
import { CLUSTER_UNREACHABLE, NO_CLUSTER } from '../cluster/http.js';
import type { Config, RateLimits } from '../config/config.js';
import type { AppContext } from '../context.js';
import { dialectOf, timestamp } from '../db/database.js';
import type { Database, NodeRecord, NodesTable } from '../db/schema.js';
import { HttpError, notFound } from '../http/errors.js';
import { applyAfterCommit } from '../effects/afterCommit.js';
import { type Broadcaster, RealtimeEvent } from '../broadcasting/broadcaster.js';
import { parseInfo, type PresenterConfig, presentedStatus, presentNode, withOwners } from './presenter.js';
import { severityOfStatus, statusWord } from './status.js';

// The node row and the one way to change it, beneath the three audiences of the nodes domain
// (docs/nodes-contract.md): people in the console (people.ts), the node agent on the machine
// (agent.ts) and the cluster's view of its Nodes (clusterSync.ts). The rules are plain
// functions of the services they need, so the routes, the node watcher and the tests share
// them. Every status change goes through `changeNode`: one transaction for the row and its
// activity entries, then the realtime event to the owner.

/** The realtime event on the owner's channel (`private-App.User.{id}`); payload: the Node JSON. */
export const NODE_STATUS_CHANGED = RealtimeEvent.NodeStatusChanged;

export interface NodeServices {
  db: Kysely<Database>;
  config: PresenterConfig;
  broadcaster: Broadcaster;
  cluster: ClusterGateway;
  logger?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
}

/** The nodes services of the app's context. */
export const nodeServices = (context: AppContext, logger?: NodeServices['logger']): NodeServices => ({
  db: context.db,
  config: context.config,
  broadcaster: context.broadcaster,
  cluster: context.cluster,
  logger,
});

// ---------------------------------------------------------------------------------------
// Rate limits

export type NodeRateLimits = Pick<RateLimits, 'nodeClaim' | 'agentRegister'>;

/** The nodes' limits (config/config.ts, DEFAULT_RATE_LIMITS); null with RATE_LIMITS=off. */
export function nodeRateLimits(config: Pick<Config, 'rateLimits'>): NodeRateLimits | null {
  return config.rateLimits;
}

// ---------------------------------------------------------------------------------------
// Cluster failures as answers (never a 500)

export function nodeClusterError(error: unknown): unknown {
  if (error instanceof ClusterUnavailable) return new HttpError(503, NO_CLUSTER);
  if (error instanceof ClusterError) {
    if (error.kind === 'not-found') return notFound();
    if (error.kind === 'conflict') return new HttpError(409, 'The node changed in the cluster meanwhile. Try again.');
    return new HttpError(503, CLUSTER_UNREACHABLE);
  }
  return error;
}

export async function withNodeCluster<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw nodeClusterError(error);
  }
}

// ---------------------------------------------------------------------------------------
// Reading

/** The node as the subject of an activity entry. */
export const nodeSubject = (nodeId: number) => ({ type: 'node', id: nodeId });

export const loadNode = (db: Kysely<Database>, id: number) => db.selectFrom('nodes').selectAll().where('id', '=', id).executeTakeFirst();

/** Whether the cluster has seen the node (the watcher stored its Node's facts). */
export const hasJoined = (node: NodeRecord) => parseInfo(node).cluster !== undefined;

// ---------------------------------------------------------------------------------------
// Changing a node

export type NodeChanges = Omit<Updateable<NodesTable>, 'id' | 'created_at' | 'updated_at'>;

export interface NodeChange {
  changes: NodeChanges;
  activity?: Omit<ActivityInput, 'subject'>[];
}

/**
 * Applies `decide(current row)` in one transaction: the row update, the given activity
 * entries, and a "status changed" entry when the status moved (not while disabled, when the
 * console shows Disabled whatever the cluster says). After the commit, the owner gets
 * NodeStatusChanged when the status the console shows changed. `decide` may answer null:
 * nothing to do.
 */
export async function changeNode(
  services: NodeServices,
  nodeId: number,
  decide: (current: NodeRecord) => NodeChange | null,
  causerId: number | null = null,
): Promise<NodeRecord | undefined> {
  const { db } = services;
  const result = await db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom('nodes')
      .selectAll()
      .where('id', '=', nodeId)
      // PostgreSQL: the watcher and an agent may change the same node at once. (SQLite
      // transactions are serialised already, and it has no FOR UPDATE.)
      .$if(dialectOf(db) === 'postgres', (query) => query.forUpdate())
      .executeTakeFirst();
    if (!current) return undefined;
    const change = decide(current);
    if (!change) return { before: current, after: current };
    const after = await trx
      .updateTable('nodes')
      .set({ ...change.changes, updated_at: timestamp() })
      .where('id', '=', nodeId)
      .returningAll()
      .executeTakeFirstOrThrow();
    for (const entry of change.activity ?? []) await recordActivity(trx, { ...entry, subject: nodeSubject(nodeId) });
    if (after.status !== current.status && !after.disabled_at) {
      await recordActivity(trx, {
        causerId,
        description: `status changed from ${statusWord(current.status)} to ${statusWord(after.status)}`,
        subject: nodeSubject(nodeId),
        severity: severityOfStatus(after.status),
        properties: { from: current.status, to: after.status },
      });
    }
    return { before: current, after };
  });
  if (!result) return undefined;
  if (presentedStatus(result.before) !== presentedStatus(result.after)) await announceStatus(services, result.after);
  return result.after;
}

/** NodeStatusChanged with the Node JSON to the owner (nobody for an unclaimed machine). */
async function announceStatus(services: NodeServices, node: NodeRecord): Promise<void> {
  if (node.owner_id === null) return;
  const [withOwner] = await withOwners(services.db, [node]);
  applyAfterCommit(services, { notices: [{ userId: node.owner_id, event: NODE_STATUS_CHANGED, payload: presentNode(services.config, withOwner) }] });
}
