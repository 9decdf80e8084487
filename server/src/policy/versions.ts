import type { Kysely } from 'kysely';
import { recordActivity } from '../activity/log.js';
import { timestamp } from '../db/database.js';
import type { Database, User } from '../db/schema.js';
import { DAY_MS } from '../clock.js';

// The acceptable use policy's versions (docs/lifecycle.md, "The policy, versioned"). Platform
// admins publish versions; the newest one is the policy in force. Before any is published, the
// text built into the console is the policy (named "initial"), and an acceptance of it (no
// version recorded) holds until a first version is published or it grows older than the
// validity. An acceptance holds while it names the version in force and is younger than
// `policy_validity_days`; otherwise the person is sent back to the policy step of onboarding.

export interface PolicyVersionSummary {
  id: number;
  summary: string;
  published_at: string;
}

export interface PolicyVersion extends PolicyVersionSummary {
  text_en: string;
  text_fr: string;
  published_by: number | null;
}

/** Why an acceptance is needed: never given, a newer version published, or grown too old. */
export type PolicyRenewalReason = 'never' | 'new_version' | 'expired';

export interface PolicyStanding {
  /** True while the person must accept the policy (the onboarding gate refuses the API). */
  required: boolean;
  reason: PolicyRenewalReason | null;
}

/** The version in force: the last one published, or null (the built-in "initial" text). */
export async function currentPolicyVersion(db: Kysely<Database>): Promise<PolicyVersion | null> {
  const row = await db.selectFrom('policy_versions').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirst();
  return row ?? null;
}

/** Every version, newest first, with who published it. */
export function listPolicyVersions(db: Kysely<Database>) {
  return db
    .selectFrom('policy_versions as p')
    .leftJoin('users as u', 'u.id', 'p.published_by')
    .select(['p.id', 'p.summary', 'p.text_en', 'p.text_fr', 'p.published_at', 'p.published_by', 'u.firstname', 'u.lastname', 'u.email'])
    .orderBy('p.id', 'desc')
    .execute();
}

export interface NewPolicyVersion {
  text: { en: string; fr: string };
  summary: string;
}

/**
 * Publishes a version: from now on everyone must accept it at their next visit, except the
 * admin who publishes it, whose publication is their acceptance (so that the console does not
 * send them to the policy step the moment they publish).
 */
export async function publishPolicyVersion(db: Kysely<Database>, input: NewPolicyVersion, actorId: number, now: Date): Promise<PolicyVersion> {
  return db.transaction().execute(async (trx) => {
    const version = await trx
      .insertInto('policy_versions')
      .values({ text_en: input.text.en, text_fr: input.text.fr, summary: input.summary, published_by: actorId, published_at: timestamp(now) })
      .returningAll()
      .executeTakeFirstOrThrow();
    await trx
      .updateTable('users')
      .set({ aup_accepted_at: timestamp(now), aup_version_id: version.id, updated_at: timestamp(now) })
      .where('id', '=', actorId)
      .execute();
    await recordActivity(trx, {
      causerId: actorId,
      description: 'policy version published',
      subject: { type: 'policy_version', id: version.id },
      severity: 'warning',
      properties: { summary: input.summary },
    });
    return version;
  });
}

/**
 * Whether a person must accept the policy now. `current` is the version in force (null: the
 * built-in text), `validityDays` how long an acceptance holds.
 */
export function policyStanding(
  user: Pick<User, 'aup_accepted_at' | 'aup_version_id'>,
  current: { id: number } | null,
  validityDays: number,
  now: Date,
): PolicyStanding {
  if (!user.aup_accepted_at) return { required: true, reason: 'never' };
  if (current && user.aup_version_id !== current.id) return { required: true, reason: 'new_version' };
  const acceptedAt = new Date(user.aup_accepted_at).getTime();
  if (!(now.getTime() - acceptedAt < validityDays * DAY_MS)) return { required: true, reason: 'expired' };
  return { required: false, reason: null };
}

/**
 * Records that the person accepted the version in force now (its id, or null for the built-in
 * text), at the clock's time. Accepting again while the acceptance holds changes nothing.
 */
export async function recordPolicyAcceptance(
  db: Kysely<Database>,
  user: User,
  current: { id: number } | null,
  validityDays: number,
  now: Date,
): Promise<User> {
  if (!policyStanding(user, current, validityDays, now).required) return user;
  return db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('users')
      .set({ aup_accepted_at: timestamp(now), aup_version_id: current?.id ?? null, updated_at: timestamp(now) })
      .where('id', '=', user.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordActivity(trx, {
      causerId: user.id,
      description: 'policy accepted',
      subject: { type: 'user', id: user.id },
      properties: { version: current?.id ?? 'initial' },
    });
    return updated;
  });
}
