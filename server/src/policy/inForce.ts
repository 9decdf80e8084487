import type { Kysely } from 'kysely';
import type { LifecycleSettings } from '../config/config.js';
import { forgetRecentLifecycleSettings, recentLifecycleSettings } from '../config/lifecycleSettings.js';
import type { Database, User } from '../db/schema.js';
import { currentPolicyVersion, type PolicyStanding, policyStanding, type PolicyVersion } from './versions.js';

// The onboarding gate asks on every API request whether the person must accept the policy again.
// What that depends on besides the person (the version in force and how long an acceptance
// holds) changes a few times a year, so it is read at most every few seconds per process and
// forgotten at once when this process publishes a version or changes the settings; another
// replica sees a new version within CACHE_MS.

const CACHE_MS = 5000;

export interface PolicyInForce {
  version: PolicyVersion | null;
  validityDays: number;
}

const cache = new WeakMap<Kysely<Database>, { value: Promise<PolicyInForce>; readAt: number }>();

export function policyInForce(db: Kysely<Database>, defaults: LifecycleSettings): Promise<PolicyInForce> {
  const cached = cache.get(db);
  if (cached && Date.now() - cached.readAt < CACHE_MS) return cached.value;
  const value = (async () => {
    // The settings through the pages' own recent read: one read of them serves both.
    const [version, settings] = await Promise.all([currentPolicyVersion(db), recentLifecycleSettings(db, defaults)]);
    return { version, validityDays: settings.policy_validity_days };
  })();
  cache.set(db, { value, readAt: Date.now() });
  // A failed read (the database down) is not kept: the next request reads again.
  value.catch(() => cache.delete(db));
  return value;
}

/**
 * After a publication or a settings change in this process: the next request reads afresh, the
 * other settings the pages show statuses with included (recentLifecycleSettings).
 */
export function forgetPolicyInForce(db: Kysely<Database>): void {
  cache.delete(db);
  forgetRecentLifecycleSettings(db);
}

/** The person's standing against the policy in force at `now`. */
export async function policyStandingNow(db: Kysely<Database>, defaults: LifecycleSettings, user: User, now: Date): Promise<PolicyStanding> {
  const { version, validityDays } = await policyInForce(db, defaults);
  return policyStanding(user, version, validityDays, now);
}

/** What GET /user says of the person's acceptance (docs/api-contract.md, "The user"). */
export interface UserPolicyFields {
  aup_version_id: number | null;
  aup_required: boolean;
  aup_renewal: { reason: 'new_version' | 'expired'; summary: string | null } | null;
}

export async function userPolicyFields(db: Kysely<Database>, defaults: LifecycleSettings, user: User, now: Date): Promise<UserPolicyFields> {
  const { version, validityDays } = await policyInForce(db, defaults);
  const standing = policyStanding(user, version, validityDays, now);
  const renewal =
    standing.reason === 'new_version' || standing.reason === 'expired'
      ? { reason: standing.reason, summary: standing.reason === 'new_version' ? (version?.summary ?? null) : null }
      : null;
  return { aup_version_id: user.aup_version_id, aup_required: standing.required, aup_renewal: renewal };
}
