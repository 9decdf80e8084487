import { z } from 'zod';

// Which OpenID providers people may sign in with (institutional sign-in): OIDC_PROVIDERS, a JSON array of
// {id?, name, issuer, client_id, client_secret}, or one provider from OIDC_ISSUER,
// OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, OIDC_NAME (and OIDC_ID). Each is discovered from its
// issuer's /.well-known/openid-configuration at the first sign-in.

export interface OidcProviderConfig {
  /** In URLs and the database: lowercase letters, digits and dashes. */
  id: string;
  /** Shown on the buttons: "Sign in with {name}". */
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
}

const ID = /^[a-z0-9][a-z0-9-]{0,39}$/;
const slug = (name: string) =>
  name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40) || 'oidc';

const providerSchema = z.object({
  id: z.string().regex(ID, 'id must be lowercase letters, digits and dashes (at most 40)').optional(),
  name: z.string().min(1, 'name is required').max(100),
  issuer: z.url({ protocol: /^https?$/, error: 'issuer must be an http:// or https:// URL' }),
  client_id: z.string().min(1, 'client_id is required'),
  client_secret: z.string().min(1, 'client_secret is required'),
});

export const OIDC_VARIABLES = ['OIDC_PROVIDERS', 'OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'OIDC_NAME', 'OIDC_ID'] as const;
type OidcVariables = Partial<Record<(typeof OIDC_VARIABLES)[number], string>>;

/** The providers, or the problems to report as a ConfigError. */
export function oidcProvidersFrom(vars: OidcVariables): { providers: OidcProviderConfig[] } | { problems: string[] } {
  const entries: unknown[] = [];
  if (vars.OIDC_PROVIDERS) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(vars.OIDC_PROVIDERS);
    } catch {
      return { problems: ['OIDC_PROVIDERS must be a JSON array of {id?, name, issuer, client_id, client_secret}'] };
    }
    if (!Array.isArray(parsed)) return { problems: ['OIDC_PROVIDERS must be a JSON array of {id?, name, issuer, client_id, client_secret}'] };
    entries.push(...parsed);
  }
  if (vars.OIDC_ISSUER || vars.OIDC_CLIENT_ID || vars.OIDC_CLIENT_SECRET) {
    entries.push({
      id: vars.OIDC_ID,
      name: vars.OIDC_NAME ?? 'your institution',
      issuer: vars.OIDC_ISSUER,
      client_id: vars.OIDC_CLIENT_ID,
      client_secret: vars.OIDC_CLIENT_SECRET,
    });
  }
  const problems: string[] = [];
  const providers: OidcProviderConfig[] = [];
  entries.forEach((entry, index) => {
    const result = providerSchema.safeParse(entry);
    if (!result.success) {
      problems.push(...result.error.issues.map((issue) => `OIDC provider ${index + 1}: ${issue.path.join('.') || 'entry'}: ${issue.message}`));
      return;
    }
    const id = result.data.id ?? slug(result.data.name);
    if (id === 'callback' || id === 'exchange') {
      problems.push(`OIDC provider ${index + 1}: the id ${id} is reserved (set another "id")`);
      return;
    }
    if (providers.some((provider) => provider.id === id)) {
      problems.push(`OIDC provider ${index + 1}: the id ${id} is used twice (set "id")`);
      return;
    }
    providers.push({
      id,
      name: result.data.name,
      issuer: result.data.issuer,
      clientId: result.data.client_id,
      clientSecret: result.data.client_secret,
    });
  });
  return problems.length > 0 ? { problems } : { providers };
}
