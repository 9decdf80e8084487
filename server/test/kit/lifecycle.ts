import type { Clock } from '../../src/clock.js';
import type { AfterCommitServices } from '../../src/effects/afterCommit.js';
import { createLifecycleRunner } from '../../src/lifecycle/runner.js';
import { lifecycleSteps } from '../../src/lifecycle/steps.js';
import type { TestContext } from './context.js';

/**
 * The leader's lifecycle pass as a test runs it: the app's database and settings, the test's
 * movable clock, every step. What follows a commit goes nowhere unless the test hands the
 * service it watches (a count of cluster syncs, the users whose rights changed).
 */
export function lifecycleRunner(ctx: Pick<TestContext, 'db' | 'config'>, clock: Clock, services: Partial<AfterCommitServices> = {}) {
  return createLifecycleRunner({
    db: ctx.db,
    config: ctx.config,
    clock,
    steps: lifecycleSteps,
    services: {
      broadcaster: { toUser() {}, toWorkspace() {}, rightsChanged() {} },
      clusterSync: { request() {}, listen: () => () => {} },
      outbox: { kick() {} },
      ...services,
    },
  });
}
