import type { Kysely } from 'kysely';
import { recordActivity } from '../activity/log.js';
import type { LifecycleSettings } from '../config/config.js';
import { lifecycleSettings, type LifecycleSettingsPatch, SETTING_KEYS } from '../config/lifecycleSettings.js';
import { timestamp } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { fieldError } from '../http/errors.js';

// The lifecycle settings as they hold now: the environment's defaults (config.lifecycleDefaults)
// overlaid with what platform admins changed (`platform_settings`, one row per key, JSON).
// Read once per lifecycle pass and per decision that needs them: a handful of rows. The reading
// lives in config/lifecycleSettings.ts, below the domains (decisions read it too); the change,
// which is recorded in the activity log, here.

export type { LifecycleSettings };
export { lifecycleSettings, lifecycleSettingsPatch, type LifecycleSettingsPatch } from '../config/lifecycleSettings.js';

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
    const changed = SETTING_KEYS.filter((key) => key in patch && patch[key] !== before[key]);
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
