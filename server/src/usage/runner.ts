import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.js';
import type { ClusterGateway } from '../cluster/gateway.js';
import type { Database } from '../db/schema.js';
import { accountUsage, type UsagePassResult } from './accounting.js';

// The leader runs the accounting pass (accounting.ts) every USAGE_SAMPLE_SECONDS, at once when
// it starts leading, on the clock the app and the lifecycle pass go by. Passes never overlap
// within a process; across replicas the cursor keeps them from counting anything twice.

export interface UsageRunner {
  /** One pass now (serialized with the background ones). */
  runOnce(): Promise<UsagePassResult>;
  start(): void;
  stop(): Promise<void>;
}

export interface UsageRunnerOptions {
  db: Kysely<Database>;
  gateway: Pick<ClusterGateway, 'listWorkspacePods'>;
  clock: Clock;
  intervalMs: number;
  logger?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
}

export function createUsageRunner({ db, gateway, clock, intervalMs, logger }: UsageRunnerOptions): UsageRunner {
  let chain: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  /** Since when the cluster could not be read (said once, and again when it comes back). */
  let unreadableSince: string | null = null;

  async function pass(): Promise<UsagePassResult> {
    const result = await accountUsage({ db, gateway, now: clock.now() });
    if (result.outcome === 'cluster-unreadable') {
      if (unreadableSince === null) {
        unreadableSince = result.from;
        logger?.warn({ error: result.error, accountedUntil: result.from }, 'usage accounting cannot read the cluster; usage stays accounted until then, and a later pass catches up');
      }
    } else if (result.outcome === 'accounted' && unreadableSince !== null) {
      logger?.info({ from: result.from, to: result.to }, 'usage accounting reads the cluster again and caught up');
      unreadableSince = null;
    }
    return result;
  }

  const runOnce = (): Promise<UsagePassResult> => {
    const next = chain.then(pass, pass);
    chain = next.catch(() => undefined);
    return next;
  };
  const background = () => {
    runOnce().catch((error) => logger?.error({ err: error }, 'usage accounting pass failed; the next pass covers its time'));
  };

  return {
    runOnce,
    start() {
      if (timer) return;
      timer = setInterval(background, intervalMs);
      timer.unref();
      background();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await chain;
    },
  };
}
