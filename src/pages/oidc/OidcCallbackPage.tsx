import { Alert, CircularProgress, Link, Stack, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { useTranslate } from 'react-admin';
import { useLocation } from 'react-router-dom';
import { tokenStore } from '../../httpClient';
import { useSettings } from '../../settings';
import { LoggedOutLayout } from '../auth/LoggedOutLayout';
import { browserNavigation } from '../../utils/browserNavigation';

// /oidc/callback (issue 16): where the server's /auth/oidc/callback sends the browser back.
//   ?code=…                  a sign-in: exchanged at once (POST /auth/oidc/exchange) for the
//                            session token, which is stored; then on to where the sign-in began
//                            (an invitation page) or home. The code never stays in the history.
//   ?linked=…                a linking: on to the profile, which says so.
//   ?intent=…&error=…        on to the login page (or the profile for a linking) with the message.

/** Where to go after an institutional sign-in (the invitation page sets it before leaving). */
export const AFTER_SIGN_IN_KEY = 'testbed.after_sign_in';

const takeAfterSignIn = (): string => {
  try {
    const next = window.sessionStorage.getItem(AFTER_SIGN_IN_KEY);
    window.sessionStorage.removeItem(AFTER_SIGN_IN_KEY);
    // Only a path of this console.
    return next && next.startsWith('/') && !next.startsWith('//') ? next : '/';
  } catch {
    return '/';
  }
};

const withQuery = (path: string, key: string, value: string) => `${path}${path.includes('?') ? '&' : '?'}${key}=${encodeURIComponent(value)}`;

export const OidcCallbackPage = () => {
  const translate = useTranslate();
  const { apiUrl } = useSettings();
  const [failure, setFailure] = useState<string | null>(null);
  const { search } = useLocation();

  useEffect(() => {
    const params = new URLSearchParams(search);
    const code = params.get('code');
    const error = params.get('error');
    const linked = params.get('linked');
    if (linked) {
      browserNavigation.replace(withQuery('/profile', 'identity_linked', linked));
      return;
    }
    if (error) {
      if (params.get('intent') === 'link') browserNavigation.replace(withQuery('/profile', 'identity_error', error));
      else browserNavigation.replace(withQuery(takeAfterSignIn(), 'oidc_error', error));
      return;
    }
    if (!code) {
      browserNavigation.replace('/');
      return;
    }
    // Strict mode runs effects twice in development: the code works once, so claim it once.
    const controller = new AbortController();
    const timer = setTimeout(() => {
      fetch(`${apiUrl}/auth/oidc/exchange`, {
        method: 'POST',
        headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
        body: JSON.stringify({ code }),
        signal: controller.signal,
      })
        .then(async (response) => {
          const body = (await response.json().catch(() => ({}))) as { token?: string; message?: string };
          if (!response.ok || !body.token) throw new Error(body.message || translate('oidc.callback_failed'));
          tokenStore.set(body.token);
          browserNavigation.replace(takeAfterSignIn());
        })
        .catch((reason: unknown) => {
          if (controller.signal.aborted) return;
          const message = reason instanceof Error ? reason.message : String(reason);
          window.history.replaceState(null, '', '/oidc/callback');
          setFailure(message);
        });
    }, 0);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [apiUrl, translate, search]);

  return (
    <LoggedOutLayout title={failure ? 'oidc.callback_failed' : 'oidc.callback_title'}>
      {failure ? (
        <Stack spacing={2}>
          <Alert severity="error">{failure}</Alert>
          <Link href="/">{translate('auth.back_to_login')}</Link>
        </Stack>
      ) : (
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          <CircularProgress size={24} />
          <Typography>{translate('oidc.callback_title')}</Typography>
        </Stack>
      )}
    </LoggedOutLayout>
  );
};

export default OidcCallbackPage;
