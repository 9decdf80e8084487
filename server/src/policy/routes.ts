import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { currentUser, requireAdmin } from '../http/authenticate.js';
import { bearerAuth, requiredMultilineText } from '../http/schemas.js';
import { forgetPolicyInForce, policyInForce } from './inForce.js';
import { listPolicyVersions, publishPolicyVersion } from './versions.js';

// The acceptable use policy's versions (docs/lifecycle.md): anyone reads the version in force
// (the onboarding step shows it, also to people not signed in yet); platform admins list the
// versions and publish a new one, which everybody must then accept at their next visit.

const security = bearerAuth;

/** The longest text of a version, in each language: a long policy, well under the body limit. */
export const MAX_POLICY_TEXT = 100_000;

const publishBody = z
  .object({
    text: z
      .object({ en: requiredMultilineText('text.en', MAX_POLICY_TEXT), fr: requiredMultilineText('text.fr', MAX_POLICY_TEXT) }, { error: 'The text field is required.' })
      .strict(),
    summary: requiredMultilineText('summary', 1000),
  })
  .strict();

const versionAnswer = z.object({
  id: z.number(),
  summary: z.string(),
  text: z.object({ en: z.string(), fr: z.string() }),
  published_at: z.string(),
  published_by: z.object({ id: z.number(), name: z.string(), email: z.string() }).nullable(),
});

const policyAnswer = z.object({
  /** The version's id as text, or "initial": the text built into the console, before any version. */
  version: z.string(),
  id: z.number().nullable(),
  summary: z.string().nullable(),
  published_at: z.string().nullable(),
  /** Null for "initial": the console shows its built-in text. */
  text: z.object({ en: z.string(), fr: z.string() }).nullable(),
  /** How long an acceptance holds, in days. */
  validity_days: z.number(),
});

export function policyRoutes({ db, config, clock }: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/policy',
      { schema: { tags: ['accounts'], summary: 'The acceptable use policy in force, in English and French', response: { 200: policyAnswer } } },
      async () => {
        const { version, validityDays } = await policyInForce(db, config.lifecycleDefaults);
        if (!version) return { version: 'initial', id: null, summary: null, published_at: null, text: null, validity_days: validityDays };
        return {
          version: String(version.id),
          id: version.id,
          summary: version.summary,
          published_at: version.published_at,
          text: { en: version.text_en, fr: version.text_fr },
          validity_days: validityDays,
        };
      },
    );

    app.get(
      '/api/admin/policy',
      {
        schema: { tags: ['admin'], summary: "The policy's published versions, newest first", security, response: { 200: z.array(versionAnswer) } },
        onRequest: requireAdmin,
      },
      async () =>
        (await listPolicyVersions(db)).map((row) => ({
          id: row.id,
          summary: row.summary,
          text: { en: row.text_en, fr: row.text_fr },
          published_at: row.published_at,
          published_by: row.published_by !== null && row.email !== null ? { id: row.published_by, name: `${row.firstname} ${row.lastname}`, email: row.email } : null,
        })),
    );

    app.post(
      '/api/admin/policy',
      {
        schema: {
          tags: ['admin'],
          summary: 'Publish a new version of the policy: everybody accepts it again at their next visit',
          security,
          body: publishBody,
          response: { 201: versionAnswer },
        },
        onRequest: requireAdmin,
      },
      async (request, reply) => {
        const actor = currentUser(request);
        const version = await publishPolicyVersion(db, request.body, actor.id, clock.now());
        forgetPolicyInForce(db);
        return reply.code(201).send({
          id: version.id,
          summary: version.summary,
          text: { en: version.text_en, fr: version.text_fr },
          published_at: version.published_at,
          published_by: { id: actor.id, name: `${actor.firstname} ${actor.lastname}`, email: actor.email },
        });
      },
    );
  };
}
