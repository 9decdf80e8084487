import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { APP_NAME, type Config } from '../config/config.js';
import type { AppContext } from '../context.js';

const settingsSchema = z.object({
  appName: z.string(),
  apiUrl: z.string(),
  sandbox: z.boolean(),
  cluster: z.enum(['kubernetes', 'sandbox', 'none']),
  realtime: z.object({ key: z.string(), host: z.string(), port: z.number(), forceTLS: z.boolean() }),
  /** The generic (machine-first) installer: public, it carries no secret. */
  nodeInstall: z.object({ scriptUrl: z.string(), imageUrl: z.string() }),
  /** Institutional sign-in (OpenID Connect): a "Sign in with {name}" button each, leading to /auth/oidc/{id}. */
  oidcProviders: z.array(z.object({ id: z.string(), name: z.string() })),
  /** The avatar service's address with `{hash}` and `{size}` in it, or null: initials, nothing asked of anyone. */
  avatarUrl: z.string().nullable(),
});

/** What the console needs at start (docs/api-contract.md, "Runtime settings"). */
export function runtimeSettings(config: Config): z.infer<typeof settingsSchema> {
  return {
    appName: APP_NAME,
    // The console and the API share an origin.
    apiUrl: '',
    sandbox: config.cluster === 'sandbox',
    cluster: config.cluster,
    realtime: { key: config.realtime.key, host: config.realtime.host, port: config.realtime.publicPort, forceTLS: config.realtime.scheme === 'https' },
    nodeInstall: { scriptUrl: `${config.appUrl}/agent/install`, imageUrl: `${config.appUrl}/agent/image` },
    oidcProviders: config.oidcProviders.map(({ id, name }) => ({ id, name })),
    avatarUrl: config.avatarUrl,
  };
}

export function settingsRoutes({ config }: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/settings',
      { schema: { tags: ['settings'], summary: 'Runtime settings for the console (public)', response: { 200: settingsSchema } } },
      async () => runtimeSettings(config),
    );
  };
}
