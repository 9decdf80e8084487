import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { ClusterGateway, Stoppable } from '../cluster/gateway.js';
import type { Database } from '../db/schema.js';
import { findWorkspace } from '../workspaces/workspaces.js';
import type { RealtimeServer } from './pusherServer.js';

// Realtime channels fed from the cluster, started on demand: a workspace channel watches the
// workspace's pods while somebody listens, and a pod-log channel follows the pod's log while
// somebody listens. Each feed starts on the channel's first subscription and stops on its
// last unsubscription, so an idle console costs the cluster nothing. Who may subscribe is
// decided by POST /broadcasting/auth (realtime/routes.ts).

/** Events on `private-workspace.{id}` and on the pod-log channels (docs/api-contract.md, "Realtime"). */
export const FeedEvent = {
  /** A pod of the workspace was added, changed or deleted; `type` RESYNC after a gap (list again). */
  PodsChanged: 'PodsChanged',
  /** New log lines: `{lines: [{seq, text, time}]}`; seq grows by one per line of the stream. */
  PodLogLines: 'PodLogLines',
  /** Where the log stream stands: `{state: 'connecting'|'streaming'|'waiting'|'ended', message?}`. */
  PodLogStatus: 'PodLogStatus',
} as const;

/** The channel of one pod's log (laravel-echo: `Echo.private('pod-logs.{workspaceId}.{pod}')`). */
export const podLogChannel = (workspaceId: number, pod: string) => `private-pod-logs.${workspaceId}.${pod}`;

const WORKSPACE_CHANNEL = /^private-workspace\.(\d{1,9})$/;
/** Pod names are DNS subdomains (lowercase letters, digits, '-' and '.'). */
export const POD_LOG_CHANNEL = /^private-pod-logs\.(\d{1,9})\.([a-z0-9](?:[-a-z0-9.]*[a-z0-9])?)$/;

/** Lines replayed to whoever subscribes to a log (the stream itself starts with this many). */
export const LOG_TAIL_LINES = 200;
/** Lines are sent in batches: at most this often… */
const FLUSH_MS = 150;
/** …and at most this many bytes of text per message (well under Pusher's 10 KiB). */
const MAX_BATCH_BYTES = 8 * 1024;

/** Splits lines into messages under the size limit; one enormous line is cut, not dropped. */
function batches(lines: LogLine[]): LogLine[][] {
  const result: LogLine[][] = [];
  let batch: LogLine[] = [];
  let bytes = 0;
  for (const original of lines) {
    const line = original.text.length > MAX_BATCH_BYTES ? { ...original, text: `${original.text.slice(0, MAX_BATCH_BYTES - 1)}…` } : original;
    const size = Buffer.byteLength(line.text) + 64;
    if (batch.length > 0 && bytes + size > MAX_BATCH_BYTES) {
      result.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(line);
    bytes += size;
  }
  if (batch.length > 0) result.push(batch);
  return result;
}

export interface FeedTimings {
  /** Wait before restarting a feed whose upstream failed (doubles up to 30 s). */
  retryMs: number;
}

interface LogLine {
  seq: number;
  text: string;
  time: string | null;
}

interface Feed {
  channel: string;
  closed: boolean;
  upstream: Stoppable | null;
  retry: NodeJS.Timeout | null;
  failures: number;
  /** Pod logs only: the recent lines (for late subscribers), the next seq, and the batch to send. */
  recent: LogLine[];
  nextSeq: number;
  pending: LogLine[];
  flush: NodeJS.Timeout | null;
  lastTime: string | null;
  status: { state: string; message?: string };
}

export interface ClusterFeeds {
  /** Channels with a running feed (for tests and diagnostics). */
  active(): string[];
  close(): void;
}

type FeedServer = Pick<RealtimeServer, 'broadcast' | 'sendToSocket' | 'onFirstSubscribe' | 'onSubscribe' | 'onLastUnsubscribe'>;

export function attachClusterFeeds(input: {
  realtime: FeedServer;
  gateway: ClusterGateway;
  db: Kysely<Database>;
  logger?: FastifyBaseLogger;
  timings?: Partial<FeedTimings>;
}): ClusterFeeds {
  const { realtime, gateway, db, logger } = input;
  const retryMs = input.timings?.retryMs ?? 2000;
  const feeds = new Map<string, Feed>();

  const namespaceOf = async (workspaceId: number) => {
    const workspace = await findWorkspace(db, workspaceId);
    return workspace && workspace.cluster_state === 'ready' ? workspace.namespace : null;
  };

  const scheduleRetry = (feed: Feed, start: () => void) => {
    if (feed.closed || feed.retry) return;
    const delay = Math.min(retryMs * 2 ** Math.min(feed.failures, 4), 30_000);
    feed.failures++;
    feed.retry = setTimeout(() => {
      feed.retry = null;
      if (!feed.closed) start();
    }, delay);
    feed.retry.unref();
  };

  const setStatus = (feed: Feed, state: string, message?: string) => {
    if (feed.status.state === state && feed.status.message === message) return;
    feed.status = message ? { state, message } : { state };
    realtime.broadcast(feed.channel, FeedEvent.PodLogStatus, feed.status);
  };

  const flushLines = (feed: Feed) => {
    feed.flush = null;
    const lines = feed.pending.splice(0);
    for (const batch of batches(lines)) realtime.broadcast(feed.channel, FeedEvent.PodLogLines, { lines: batch });
  };

  const startPods = (feed: Feed, workspaceId: number) => {
    void (async () => {
      try {
        const namespace = await namespaceOf(workspaceId);
        if (feed.closed) return;
        if (!namespace) return scheduleRetry(feed, () => startPods(feed, workspaceId));
        const upstream = await gateway.watchPods(namespace, {
          onChange: (type, pod) => realtime.broadcast(feed.channel, FeedEvent.PodsChanged, { namespace, type, pod }),
          onEnd: (error) => {
            feed.upstream = null;
            if (error) logger?.warn({ err: error, channel: feed.channel }, 'pod watch ended');
            scheduleRetry(feed, () => startPods(feed, workspaceId));
          },
        });
        if (feed.closed) return upstream.stop();
        feed.upstream = upstream;
        // Events may have been missed while the watch was down: listeners list the pods again.
        if (feed.failures > 0) realtime.broadcast(feed.channel, FeedEvent.PodsChanged, { namespace, type: 'RESYNC', pod: null });
        feed.failures = 0;
      } catch (error) {
        logger?.warn({ err: error, channel: feed.channel }, 'pod watch could not start');
        scheduleRetry(feed, () => startPods(feed, workspaceId));
      }
    })();
  };

  const startLogs = (feed: Feed, workspaceId: number, pod: string) => {
    setStatus(feed, feed.recent.length > 0 ? 'streaming' : 'connecting');
    void (async () => {
      try {
        const namespace = await namespaceOf(workspaceId);
        if (feed.closed) return;
        if (!namespace) {
          setStatus(feed, 'waiting', 'The workspace is not ready in the cluster yet.');
          return scheduleRetry(feed, () => startLogs(feed, workspaceId, pod));
        }
        // After a reconnection the stream repeats its tail: lines not newer than the last one
        // already sent are skipped.
        const resumeAfter = feed.lastTime;
        const upstream = await gateway.streamPodLogs(
          { namespace, pod, tailLines: LOG_TAIL_LINES },
          {
            onLine: (text, time) => {
              if (resumeAfter && time && time <= resumeAfter) return;
              const line = { seq: feed.nextSeq++, text, time };
              if (time) feed.lastTime = time;
              feed.recent.push(line);
              if (feed.recent.length > LOG_TAIL_LINES) feed.recent.shift();
              feed.pending.push(line);
              feed.failures = 0;
              feed.flush ??= setTimeout(() => flushLines(feed), FLUSH_MS);
            },
            onEnd: (error) => {
              feed.upstream = null;
              if (feed.closed) return;
              if (feed.flush) {
                clearTimeout(feed.flush);
                flushLines(feed);
              }
              if (error && error.kind === 'not-found') return setStatus(feed, 'ended', 'The pod no longer exists.');
              if (!error) return setStatus(feed, 'ended', 'The log stream has ended.');
              setStatus(feed, 'waiting', error.message);
              scheduleRetry(feed, () => startLogs(feed, workspaceId, pod));
            },
          },
        );
        if (feed.closed) return upstream.stop();
        feed.upstream = upstream;
        setStatus(feed, 'streaming');
      } catch (error) {
        const message = (error as Error).message;
        if ((error as { kind?: string }).kind === 'not-found') return setStatus(feed, 'ended', 'The pod no longer exists.');
        // A pod that is still starting answers 400 ("waiting to start"): try again shortly.
        setStatus(feed, 'waiting', message);
        scheduleRetry(feed, () => startLogs(feed, workspaceId, pod));
      }
    })();
  };

  const newFeed = (channel: string): Feed => ({
    channel,
    closed: false,
    upstream: null,
    retry: null,
    failures: 0,
    recent: [],
    nextSeq: 1,
    pending: [],
    flush: null,
    lastTime: null,
    status: { state: 'connecting' },
  });

  const stopFeed = (feed: Feed) => {
    feed.closed = true;
    feed.upstream?.stop();
    feed.upstream = null;
    if (feed.retry) clearTimeout(feed.retry);
    if (feed.flush) clearTimeout(feed.flush);
    feeds.delete(feed.channel);
  };

  realtime.onFirstSubscribe((channel) => {
    if (gateway.mode === 'none' || feeds.has(channel)) return;
    const workspace = WORKSPACE_CHANNEL.exec(channel);
    if (workspace) {
      const feed = newFeed(channel);
      feeds.set(channel, feed);
      startPods(feed, Number(workspace[1]));
      return;
    }
    const log = POD_LOG_CHANNEL.exec(channel);
    if (log) {
      const feed = newFeed(channel);
      feeds.set(channel, feed);
      startLogs(feed, Number(log[1]), log[2]);
    }
  });

  // A later subscriber gets what the others already have: the recent lines and the state.
  realtime.onSubscribe((channel, socketId) => {
    const feed = feeds.get(channel);
    if (!feed || !POD_LOG_CHANNEL.test(channel)) return;
    // Lines still waiting for the next flush reach this subscriber with everybody else's.
    const sent = feed.recent.filter((line) => !feed.pending.includes(line));
    for (const batch of batches(sent)) realtime.sendToSocket(socketId, channel, FeedEvent.PodLogLines, { lines: batch });
    realtime.sendToSocket(socketId, channel, FeedEvent.PodLogStatus, feed.status);
  });

  realtime.onLastUnsubscribe((channel) => {
    const feed = feeds.get(channel);
    if (feed) stopFeed(feed);
  });

  return {
    active: () => [...feeds.keys()],
    close() {
      for (const feed of [...feeds.values()]) stopFeed(feed);
    },
  };
}
