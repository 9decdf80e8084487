import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.js';
import type { Config, LifecycleSettings } from '../config/config.js';
import type { Database } from '../db/schema.js';
import { type AfterCommit, type AfterCommitServices, applyAfterCommit } from '../effects/afterCommit.js';
import { lifecycleSettings } from './settings.js';

// The leader's lifecycle pass (docs/lifecycle.md): every LIFECYCLE_INTERVAL_SECONDS, each step
// looks for what is due at the clock's "now" (warnings, suspensions, deletions, memberships that
// end) and acts on it. Steps are idempotent and find their work from the database alone (rows
// whose due date has passed and that are not yet marked done), so a pass after downtime catches
// up, and a pass repeated by a restart or a new leader does nothing twice. Only the leader runs
// it; a step's writes commit before its effects are applied.

/** What a step reads: the database, the settings as they hold now, and the clock's now. */
export interface LifecycleInput {
  db: Kysely<Database>;
  config: Config;
  settings: LifecycleSettings;
  now: Date;
}

export interface LifecycleStep {
  /** Names the step in logs and in the pass's result. */
  name: string;
  /** Does what is due; answers what must follow its commits. */
  run(input: LifecycleInput): Promise<AfterCommit | void>;
}

export interface LifecyclePassResult {
  /** Each step in order, with its error if it failed (the others still ran). */
  steps: { name: string; error?: string }[];
}

export interface LifecycleRunner {
  /** One pass now (serialized with the background one). */
  runOnce(): Promise<LifecyclePassResult>;
  start(): void;
  stop(): Promise<void>;
}

export interface LifecycleRunnerOptions {
  db: Kysely<Database>;
  config: Config;
  clock: Clock;
  steps: readonly LifecycleStep[];
  /** Where the steps' effects go: the app's broadcaster, outbox, cluster sync and tasks. */
  services: AfterCommitServices;
  logger?: Pick<FastifyBaseLogger, 'warn' | 'error'>;
  /** Default: config.lifecycleIntervalSeconds. */
  intervalMs?: number;
}

export function createLifecycleRunner(options: LifecycleRunnerOptions): LifecycleRunner {
  const { db, config, clock, steps, services, logger } = options;
  const intervalMs = options.intervalMs ?? config.lifecycleIntervalSeconds * 1000;
  let chain: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;

  async function pass(): Promise<LifecyclePassResult> {
    const settings = await lifecycleSettings(db, config.lifecycleDefaults);
    const result: LifecyclePassResult = { steps: [] };
    for (const step of steps) {
      try {
        const effects = await step.run({ db, config, settings, now: clock.now() });
        applyAfterCommit(services, effects ?? undefined);
        result.steps.push({ name: step.name });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        logger?.warn({ err: error, step: step.name }, 'lifecycle step failed; the next pass retries it');
        result.steps.push({ name: step.name, error: message });
      }
    }
    return result;
  }

  const runOnce = (): Promise<LifecyclePassResult> => {
    const next = chain.then(pass, pass);
    chain = next.catch(() => undefined);
    return next;
  };

  return {
    runOnce,
    start() {
      if (timer) return;
      timer = setInterval(() => {
        runOnce().catch((error) => logger?.error({ err: error }, 'lifecycle pass failed'));
      }, intervalMs);
      timer.unref();
      // At once too: what fell due while no server ran is caught up now.
      runOnce().catch((error) => logger?.error({ err: error }, 'lifecycle pass failed'));
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await chain;
    },
  };
}
