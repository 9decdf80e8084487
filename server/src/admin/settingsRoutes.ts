import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { currentUser, requireAdmin } from '../http/authenticate.js';
import { bearerAuth } from '../http/schemas.js';
import { lifecycleSettings, lifecycleSettingsPatch, updateLifecycleSettings } from '../lifecycle/settings.js';
import { forgetPolicyInForce } from '../policy/inForce.js';

// The platform's settings for platform admins (docs/lifecycle.md): how long workspaces and teams
// last, when people are warned, how long expired workspaces are kept, how long an acceptance of
// the policy holds. The environment gives the defaults; what is changed here wins.

const tags = ['admin'];
const security = bearerAuth;

const settingsAnswer = z.object({
  workspace_lifetime_days: z.number(),
  team_review_days: z.number(),
  warning_days: z.number(),
  last_warning_hours: z.number(),
  retention_days: z.number().nullable(),
  retention_notice_days: z.number(),
  membership_warning_days: z.number(),
  policy_validity_days: z.number(),
  /** Contributor credit: the share of a Ready node's CPU and memory its team's caps gain (0: none). */
  credit_cpu_factor: z.number(),
  credit_memory_factor: z.number(),
  /** What the environment gives, for "back to the default". */
  defaults: z.record(z.string(), z.number().nullable()),
});

export function adminSettingsRoutes(context: AppContext): FastifyPluginAsyncZod {
  const { db, config, clock } = context;
  const answer = (settings: Awaited<ReturnType<typeof lifecycleSettings>>) => ({ ...settings, defaults: { ...config.lifecycleDefaults } });
  return async (app) => {
    app.get(
      '/api/admin/settings',
      { schema: { tags, summary: 'The lifecycle settings as they hold now, with the defaults', security, response: { 200: settingsAnswer } }, onRequest: requireAdmin },
      async () => answer(await lifecycleSettings(db, config.lifecycleDefaults)),
    );

    app.patch(
      '/api/admin/settings',
      {
        schema: {
          tags,
          summary: 'Change lifecycle settings (any of them); retention_days null keeps expired workspaces forever',
          security,
          body: lifecycleSettingsPatch,
          response: { 200: settingsAnswer },
        },
        onRequest: requireAdmin,
      },
      async (request) => {
        const settings = await updateLifecycleSettings(db, config.lifecycleDefaults, request.body, currentUser(request).id, clock.now());
        // The policy's validity may have changed: the onboarding gate reads it afresh.
        forgetPolicyInForce(db);
        return answer(settings);
      },
    );
  };
}
