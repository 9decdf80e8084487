import type { Kysely } from 'kysely';
import { z } from 'zod';
import { recordActivity } from '../activity/log.js';
import type { LifecycleSettings } from '../config/config.js';
import { timestamp } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { fieldError } from '../http/errors.js';

// The lifecycle settings as they hold now: the environment's defaults (config.lifecycleDefaults)
// overlaid with what platform admins changed (`platform_settings`, one row per key, JSON).
// Read once per lifecycle pass and per decision that needs them: a handful of rows.

export type { LifecycleSettings };

const days = (most: number) => z.number().int('Whole days.').min(1, 'At least 1 day.').max(most, `At most ${most} days.`);

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
  })
  .partial()
  .strict();

export type LifecycleSettingsPatch = z.infer<typeof lifecycleSettingsPatch>;

const KEYS = Object.keys(lifecycleSettingsPatch.shape) as (keyof LifecycleSettings)[];

export async function lifecycleSettings(db: Kysely<Database>, defaults: LifecycleSettings): Promise<LifecycleSettings> {
  const rows = await db.selectFrom('platform_settings').select(['key', 'value']).where('key', 'in', KEYS).execute();
  const settings: LifecycleSettings = { ...defaults };
  for (const row of rows) {
    const parsed = lifecycleSettingsPatch.safeParse({ [row.key]: JSON.parse(row.value) });
    // A stored value that no longer passes (a bound tightened since) falls back to the default.
    if (parsed.success) Object.assign(settings, parsed.data);
  }
  return settings;
}

/**
 * Stores a platform admin's changes and records them. The last warning must come after the
 * first: `last_warning_hours` below `warning_days` in hours, as the settings will be after the
 * change (422 otherwise, nothing stored).
 */
export async function updateLifecycleSettings(
  db: Kysely<Database>,
  defaults: LifecycleSettings,
  patch: LifecycleSettingsPatch,
  actorId: number,
  now: Date,
): Promise<LifecycleSettings> {
  return db.transaction().execute(async (trx) => {
    const before = await lifecycleSettings(trx, defaults);
    const after = { ...before, ...patch };
    if (after.last_warning_hours >= after.warning_days * 24) {
      throw fieldError('last_warning_hours', 'The last warning must come closer to the end than the first one.');
    }
    const changed = KEYS.filter((key) => key in patch && patch[key] !== before[key]);
    for (const key of changed) {
      const value = JSON.stringify(after[key]);
      const row = { key, value, updated_by: actorId, updated_at: timestamp(now) };
      await trx
        .insertInto('platform_settings')
        .values(row)
        .onConflict((conflict) => conflict.column('key').doUpdateSet({ value, updated_by: actorId, updated_at: row.updated_at }))
        .execute();
    }
    if (changed.length > 0) {
      await recordActivity(trx, {
        causerId: actorId,
        description: 'platform settings changed',
        severity: 'warning',
        properties: Object.fromEntries(changed.map((key) => [key, { from: before[key], to: after[key] }])),
      });
    }
    return after;
  });
}
