import { Alert, Button, Divider, Stack } from '@mui/material';
import { useContext, useEffect, useState } from 'react';
import type { SignInProvider } from '../../authProvider';
import { useTestbedAuth } from '../../session';
import { SettingsContext } from '../../settings';
import { oidcErrorMessage } from '../oidc/oidcErrors';

// "Sign in with {provider}" (OpenID Connect): one button per configured OpenID provider, each a plain
// navigation to the server's /auth/oidc/{id}, which redirects to the provider. Plain MUI with
// the auth provider (react-admin's auth context, which both bundles have) so that both the
// logged-out bundle and the console can show it: the providers come from the settings, asked
// again of the server (the auth provider's signInProviders) when the settings in context have
// none; the strings come from the caller's translate (keys under `oidc`).
// An error of a sign-in that failed (the server's /oidc/callback?error={code}&provider={id},
// handed on as ?oidc_error={code}&oidc_provider={id} by the callback page) is shown above the
// buttons in the console's own words for that code (oidcErrors.ts), never as the link says it.

export interface InstitutionSignInProps {
  translate: (key: string, options?: Record<string, unknown>) => string;
  /** Where the server's /auth/oidc paths are ('' = this origin); the settings' apiUrl by default. */
  apiUrl?: string;
  /** The providers, when the caller has them; else from the settings. */
  providers?: SignInProvider[];
  /** Before leaving for the provider (the invitation page remembers itself). */
  onStart?: (provider: SignInProvider) => void;
}

const errorInLocation = (): { code: string; provider: string | null } | null => {
  if (typeof window === 'undefined') return null;
  const params = new URLSearchParams(window.location.search);
  const code = params.get('oidc_error');
  return code === null ? null : { code, provider: params.get('oidc_provider') };
};

export const InstitutionSignIn = ({ translate, apiUrl, providers: given, onStart }: InstitutionSignInProps) => {
  const settings = useContext(SettingsContext);
  const auth = useTestbedAuth();
  const [providers, setProviders] = useState<SignInProvider[]>(given ?? settings.oidcProviders ?? []);
  const [error] = useState(errorInLocation);
  const base = apiUrl ?? settings.apiUrl ?? '';

  useEffect(() => {
    if (given || settings.oidcProviders !== undefined) return;
    // The settings in context are the defaults (the server could not be asked at start): ask again.
    const controller = new AbortController();
    auth
      .signInProviders(controller.signal)
      .then((found) => {
        if (found) setProviders(found);
      })
      .catch(() => {});
    return () => controller.abort();
  }, [auth, given, settings.oidcProviders]);

  if (providers.length === 0 && !error) return null;
  return (
    <Stack spacing={1.5} sx={{ mb: 2 }} data-testid="institution-sign-in">
      {error && (
        <Alert severity="error" role="alert">
          {oidcErrorMessage(translate, error.code, error.provider, providers)}
        </Alert>
      )}
      {providers.map((provider) => (
        <Button
          key={provider.id}
          variant="outlined"
          size="large"
          fullWidth
          href={`${base}/auth/oidc/${encodeURIComponent(provider.id)}`}
          onClick={() => onStart?.(provider)}
        >
          {translate('oidc.sign_in_with', { name: provider.name })}
        </Button>
      ))}
      {providers.length > 0 && <Divider>{translate('oidc.or')}</Divider>}
    </Stack>
  );
};

export default InstitutionSignIn;
