// Why an institutional sign-in or linking failed, as the server's redirect to /oidc/callback
// names it: `error={code}` (one of a fixed set) and `provider={id}`. The console words each code
// itself (oidc.errors.* in en.ts and fr.ts), in the person's language; an unknown code gets a
// generic message. The text of the link is never shown: anyone can make such a link.

export const OIDC_ERROR_CODES = [
  'expired',
  'unknown_provider',
  'provider_down',
  'consent_denied',
  'failed',
  'no_email',
  'invalid_email',
  'email_unverified',
  'email_taken',
  'linked_elsewhere',
  'account_disabled',
] as const;
export type OidcErrorCode = (typeof OIDC_ERROR_CODES)[number];

export const isOidcErrorCode = (value: unknown): value is OidcErrorCode => OIDC_ERROR_CODES.includes(value as OidcErrorCode);

type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * The message for `code`, naming the provider `providerId` when it is one of `providers` (else
 * "your institution"). Never the code or the id themselves.
 */
export const oidcErrorMessage = (
  translate: Translate,
  code: string | null | undefined,
  providerId: string | null | undefined,
  providers: readonly { id: string; name: string }[] = [],
): string => {
  const name = providers.find((provider) => provider.id === providerId)?.name ?? translate('oidc.your_institution');
  return translate(`oidc.errors.${isOidcErrorCode(code) ? code : 'unknown'}`, { name });
};
