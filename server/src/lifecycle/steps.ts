import { allocationStep } from '../allocations/step.js';
import { retentionStep } from './retention.js';
import type { LifecycleStep } from './runner.js';
import { membershipSteps } from '../memberships/endingStep.js';
import { suspensionStep } from './suspension.js';
import { warningStep } from './warnings.js';
import { quotaGrantSteps } from '../workspaces/quotaGrant.js';

/**
 * The lifecycle pass's steps, in the order they run. Warnings come before the ends they warn
 * of, so that a pass after a long downtime still sends the last warning before it suspends.
 */
export const lifecycleSteps: LifecycleStep[] = [
  // Workspaces and teams that end: warnings, then suspensions, then deletions after retention.
  warningStep,
  suspensionStep,
  retentionStep,
  // Memberships that end: the warning, then the removal (memberships/endingStep.ts).
  ...membershipSteps,
  // More quota granted until a date: the warning 72 h before, then the return to the former quota.
  ...quotaGrantSteps,
  // Monthly CPU allocations: the warning at 90 %, no new pods at 100 % (allocations/).
  allocationStep,
];
