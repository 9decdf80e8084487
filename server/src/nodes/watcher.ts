import type { ClusterNode, Stoppable } from '../cluster/gateway.js';
import { applyClusterNode, namedNodes } from './clusterSync.js';
import type { NodeServices } from './records.js';

// Keeps console nodes in line with their cluster Nodes (docs/nodes-contract.md): a watch on
// every Node applies each change as it happens; a full re-list runs at start, every minute
// (it also catches kubelets that went silent: a stale heartbeat is 'unknown' without any
// event), and whenever the watch ends or fails. A watch that cannot be opened again is
// retried with backoff (1 s, 2 s, 4 s … capped at 60 s).

export interface NodeWatcherOptions {
  /** How often to re-list every Node (ms). */
  resyncIntervalMs?: number;
  /** First delay before reconnecting after a failure (ms); doubles up to `maxBackoffMs`. */
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  now?: () => Date;
}

export interface SyncResult {
  /** Console nodes looked at. */
  checked: number;
  /** Console nodes whose row changed. */
  changed: number;
}

export interface NodeWatcher {
  /** One full pass now: list every cluster Node and apply it to the console nodes. */
  syncNodesOnce(): Promise<SyncResult>;
  /** Re-list, then watch, for as long as it runs. */
  start(): void;
  stop(): Promise<void>;
  /** Whether a watch is open right now. */
  readonly watching: boolean;
  /** How many watches were opened so far (tests wait for a reconnect with it). */
  readonly watchesOpened: number;
  readonly lastError: string | null;
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function createNodeWatcher(services: NodeServices, options: NodeWatcherOptions = {}): NodeWatcher {
  const resyncIntervalMs = options.resyncIntervalMs ?? 60_000;
  const initialBackoffMs = options.initialBackoffMs ?? 1000;
  const maxBackoffMs = options.maxBackoffMs ?? 60_000;
  const now = options.now ?? (() => new Date());
  const { db, cluster, logger } = services;

  let running = false;
  let watch: Stoppable | null = null;
  let watchesOpened = 0;
  let failures = 0;
  let lastError: string | null = null;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let resyncTimer: NodeJS.Timeout | undefined;
  // Changes are applied one at a time, in the order the cluster sent them.
  let chain: Promise<unknown> = Promise.resolve();
  const serialized = <T>(work: () => Promise<T>): Promise<T> => {
    const next = chain.then(work);
    chain = next.catch(() => undefined);
    return next;
  };

  /** Applies the cluster's view to one console node; whether its row changed. */
  async function apply(nodeId: number, clusterNode: ClusterNode | null): Promise<boolean> {
    const before = await db.selectFrom('nodes').selectAll().where('id', '=', nodeId).executeTakeFirst();
    const after = await applyClusterNode(services, nodeId, clusterNode, now());
    return after !== undefined && JSON.stringify(after) !== JSON.stringify(before);
  }

  async function applyOne(clusterNode: ClusterNode | null, name: string): Promise<boolean> {
    const node = await db.selectFrom('nodes').select('id').where('name', '=', name).executeTakeFirst();
    return node ? apply(node.id, clusterNode) : false;
  }

  async function sync(): Promise<SyncResult> {
    const clusterNodes = await cluster.listNodes();
    const byName = new Map(clusterNodes.map((node) => [node.name, node]));
    const result: SyncResult = { checked: 0, changed: 0 };
    for (const node of await namedNodes(db)) {
      result.checked++;
      if (await apply(node.id, byName.get(node.name) ?? null)) result.changed++;
    }
    return result;
  }

  function scheduleReconnect(): void {
    if (!running || reconnectTimer) return;
    const delay = Math.min(maxBackoffMs, initialBackoffMs * 2 ** Math.max(0, failures - 1));
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      void connect();
    }, delay);
    reconnectTimer.unref();
  }

  /** Re-list, then open the watch; on failure, try again later. */
  async function connect(): Promise<void> {
    if (!running) return;
    try {
      await serialized(sync);
      if (!running) return;
      const opened = await cluster.watchNodes({
        onChange(type, clusterNode) {
          void serialized(() => applyOne(type === 'DELETED' ? null : clusterNode, clusterNode.name)).catch((error: unknown) => {
            logger?.error({ err: error, node: clusterNode.name }, 'Could not apply a node change');
          });
        },
        onEnd(error) {
          watch = null;
          if (!running) return;
          if (error) {
            failures++;
            lastError = describe(error);
            logger?.warn({ error: lastError }, 'The node watch failed; re-listing and watching again');
          } else {
            // The server closed it (its timeout): reconnect at once, re-listing first.
            failures = 0;
          }
          scheduleReconnect();
        },
      });
      if (!running) {
        opened.stop();
        return;
      }
      watch = opened;
      watchesOpened++;
      failures = 0;
      lastError = null;
    } catch (error) {
      failures++;
      lastError = describe(error);
      logger?.warn({ error: lastError, retryInMs: Math.min(maxBackoffMs, initialBackoffMs * 2 ** (failures - 1)) }, 'Cannot watch the cluster nodes');
      scheduleReconnect();
    }
  }

  return {
    syncNodesOnce: () => serialized(sync),
    start() {
      if (running) return;
      running = true;
      resyncTimer = setInterval(() => {
        void serialized(sync).catch((error: unknown) => {
          lastError = describe(error);
          logger?.warn({ error: lastError }, 'Node re-list failed');
        });
      }, resyncIntervalMs);
      resyncTimer.unref();
      void connect();
    },
    async stop() {
      running = false;
      clearInterval(resyncTimer);
      clearTimeout(reconnectTimer);
      reconnectTimer = undefined;
      watch?.stop();
      watch = null;
      await chain;
    },
    get watching() {
      return watch !== null;
    },
    get watchesOpened() {
      return watchesOpened;
    },
    get lastError() {
      return lastError;
    },
  };
}
