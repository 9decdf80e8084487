import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { currentUser, requireUser } from '../http/authenticate.js';
import { bearerAuth, requiredText } from '../http/schemas.js';
import { LOCALES } from '../i18n/messages.js';
import { presentUserWithRelations, userSchema } from './presenter.js';
import { updateProfile } from '../users/users.js';
import type { User } from '../db/schema.js';
import { policyInForce, userPolicyFields } from '../policy/inForce.js';
import { recordPolicyAcceptance } from '../policy/versions.js';
import { recentLifecycleSettings } from '../config/lifecycleSettings.js';

const tags = ['accounts'];
const security = bearerAuth;

/** The signed-in user's own account: read it, edit the names or the language, accept the policy. */
export function userRoutes({ db, config, clock }: AppContext): FastifyPluginAsyncZod {
  const present = async (user: User) => {
    const now = clock.now();
    // The workspaces' and teams' statuses (the home's banner) are measured against the warning
    // time, read at most every few seconds: GET /user is on every console load.
    const [policy, settings] = await Promise.all([
      userPolicyFields(db, config.lifecycleDefaults, user, now),
      recentLifecycleSettings(db, config.lifecycleDefaults),
    ]);
    return presentUserWithRelations(db, user, { now, warningDays: settings.warning_days }, policy);
  };
  return async (app) => {
    app.get(
      '/user',
      { schema: { tags, summary: 'The current user', security, response: { 200: userSchema } }, onRequest: requireUser },
      async (request) => present(currentUser(request)),
    );

    app.patch(
      '/user',
      {
        schema: {
          tags,
          summary: 'Edit the first and last name, or the language (locale: en or fr)',
          security,
          // The names (the profile form: both required) or the language alone (the language
          // menu), or both.
          body: z
            .object({
              firstname: requiredText('firstname').optional(),
              lastname: requiredText('lastname').optional(),
              locale: z.enum(LOCALES, { error: 'The selected locale is invalid.' }).optional(),
            })
            .superRefine((body, context) => {
              if (body.locale !== undefined) return;
              for (const field of ['firstname', 'lastname'] as const) {
                if (body[field] === undefined) context.addIssue({ code: 'custom', path: [field], message: `The ${field} field is required.` });
              }
            }),
          response: { 200: userSchema },
        },
        onRequest: requireUser,
      },
      async (request) => present(await updateProfile(db, currentUser(request), request.body)),
    );

    app.post(
      '/aup/accept',
      {
        schema: { tags, summary: 'Accept the acceptable use policy in force (GET /api/policy)', security, response: { 200: userSchema } },
        onRequest: requireUser,
      },
      async (request) => {
        const { version, validityDays } = await policyInForce(db, config.lifecycleDefaults);
        return present(await recordPolicyAcceptance(db, currentUser(request), version, validityDays, clock.now()));
      },
    );
  };
}
