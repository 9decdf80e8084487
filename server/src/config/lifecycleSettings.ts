import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../db/schema.js';
import type { LifecycleSettings } from './config.js';

// The lifecycle settings as they hold now (docs/lifecycle.md): the environment's defaults
// overlaid with what platform admins changed (`platform_settings`). Here, below the domains,
// because a decision (a workspace's end date at approval) reads them as well as the leader's
// pass; lifecycle/settings.ts stores a change.

const days = (most: number) => z.number().int('Whole days.').min(1, 'At least 1 day.').max(most, `At most ${most} days.`);

const factor = (field: string) =>
  z
    .number({ error: `The ${field} field must be a number.` })
    .min(0, `The ${field} field must be at least 0.`)
    .max(10, `The ${field} field must not be greater than 10.`);

/** PATCH /api/admin/settings: any of the settings; `retention_days: null` means "never delete". */
export const lifecycleSettingsPatch = z
  .object({
    workspace_lifetime_days: days(3650),
    team_review_days: days(3650),
    warning_days: days(365),
    last_warning_hours: z.number().int('Whole hours.').min(1, 'At least 1 hour.').max(24 * 60, 'At most 1440 hours.'),
    retention_days: days(3650).nullable(),
    retention_notice_days: days(365),
    membership_warning_days: days(365),
    policy_validity_days: days(3650),
    credit_cpu_factor: factor('credit_cpu_factor'),
    credit_memory_factor: factor('credit_memory_factor'),
  })
  .partial()
  .strict();

export type LifecycleSettingsPatch = z.infer<typeof lifecycleSettingsPatch>;

export const SETTING_KEYS = Object.keys(lifecycleSettingsPatch.shape) as (keyof LifecycleSettings)[];

export async function lifecycleSettings(db: Kysely<Database>, defaults: LifecycleSettings): Promise<LifecycleSettings> {
  const rows = await db.selectFrom('platform_settings').select(['key', 'value']).where('key', 'in', SETTING_KEYS).execute();
  const settings: LifecycleSettings = { ...defaults };
  for (const row of rows) {
    const parsed = lifecycleSettingsPatch.safeParse({ [row.key]: JSON.parse(row.value) });
    // A stored value that no longer passes (a bound tightened since) falls back to the default.
    if (parsed.success) Object.assign(settings, parsed.data);
  }
  return settings;
}


// Pages read often (the user's own record on every console load, the team page) show statuses
// measured against `warning_days`. The settings change a few times a year, so those pages read
// them at most every few seconds per process, as the policy in force is read (policy/inForce.ts,
// whose forgetting after a settings change forgets this too); another replica sees a change
// within RECENT_MS.
const RECENT_MS = 5000;
const recent = new WeakMap<Kysely<Database>, { value: Promise<LifecycleSettings>; readAt: number }>();

/** The settings as read within the last few seconds in this process (or read now). */
export function recentLifecycleSettings(db: Kysely<Database>, defaults: LifecycleSettings): Promise<LifecycleSettings> {
  const cached = recent.get(db);
  if (cached && Date.now() - cached.readAt < RECENT_MS) return cached.value;
  const value = lifecycleSettings(db, defaults);
  recent.set(db, { value, readAt: Date.now() });
  // A failed read (the database down) is not kept: the next request reads again.
  value.catch(() => recent.delete(db));
  return value;
}

/** After a settings change in this process: the next read is fresh. */
export function forgetRecentLifecycleSettings(db: Kysely<Database>): void {
  recent.delete(db);
}
