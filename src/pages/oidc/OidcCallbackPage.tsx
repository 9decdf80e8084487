import { Alert, Button, CircularProgress, Link, Stack, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { useTranslate } from 'react-admin';
import { serverMessage, tokenStore } from '../../httpClient';
import { useTestbedAuth } from '../../session';
import type { User } from '../../types';
import { LoggedOutLayout } from '../auth/LoggedOutLayout';
import { useScreenLocation } from '../auth/screenRouting';
import { browserNavigation } from '../../utils/browserNavigation';
import { isOidcErrorCode } from './oidcErrors';

// /oidc/callback (institutional sign-in): where the server's /auth/oidc/callback sends the browser back.
//   ?code=…                  a sign-in: exchanged at once (POST /auth/oidc/exchange, which only
//                            this browser's sign-in cookie opens; the calls are the auth
//                            provider's, as the page is in both bundles) for the session token; then on
//                            to where the sign-in began (an invitation page) or home. The code
//                            never stays in the history. Someone already signed in here is never
//                            replaced without being asked: the page names both accounts and lets
//                            the person continue as the new one or stay (the new session is then
//                            ended at once).
//   ?linked=…                a linking: on to the profile, which says so.
//   ?intent=…&error=…        on to the login page (or the profile for a linking) with the error's
//                            CODE and the provider's id, which those pages word themselves
//                            (oidcErrors.ts): the link's text is never shown.

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

const withQuery = (path: string, query: Record<string, string | null>) => {
  const pairs = Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== null);
  return `${path}${path.includes('?') ? '&' : '?'}${new URLSearchParams(pairs)}`;
};

const PROVIDER_ID = /^[a-z0-9][a-z0-9-]{0,39}$/;

/** Two accounts to choose between: the one signed in here, and the one the sign-in is for. */
interface Switch {
  token: string;
  current: { token: string; user: User };
  next: User;
}

const fullName = (user: User) => user.name?.trim() || [user.firstname, user.lastname].filter(Boolean).join(' ');
const label = (user: User) => `${fullName(user)} (${user.email})`;

export const OidcCallbackPage = () => {
  const translate = useTranslate();
  const auth = useTestbedAuth();
  const [failure, setFailure] = useState<string | null>(null);
  const [choice, setChoice] = useState<Switch | null>(null);
  const [busy, setBusy] = useState(false);
  const { search } = useScreenLocation();

  useEffect(() => {
    const params = new URLSearchParams(search);
    const code = params.get('code');
    const error = params.get('error');
    const linked = params.get('linked');
    if (linked) {
      browserNavigation.replace(withQuery('/profile', { identity_linked: linked }));
      return;
    }
    if (error !== null) {
      const reason = isOidcErrorCode(error) ? error : 'unknown';
      const provider = params.get('provider');
      const providerId = provider && PROVIDER_ID.test(provider) ? provider : null;
      if (params.get('intent') === 'link') browserNavigation.replace(withQuery('/profile', { identity_error: reason, identity_provider: providerId }));
      else browserNavigation.replace(withQuery(takeAfterSignIn(), { oidc_error: reason, oidc_provider: providerId }));
      return;
    }
    if (!code) {
      browserNavigation.replace('/');
      return;
    }
    // Strict mode runs effects twice in development: the code works once, so claim it once.
    const controller = new AbortController();
    const timer = setTimeout(() => {
      const signal = controller.signal;
      auth
        .exchangeSignInCode(code, signal)
        .then(async (token) => {
          const currentToken = tokenStore.get();
          if (currentToken && currentToken !== token) {
            const [current, next] = await Promise.all([
              auth.userOf(currentToken, signal).catch(() => null),
              auth.userOf(token, signal).catch(() => null),
            ]);
            if (current && (!next || next.id !== current.id)) {
              if (!next) {
                void auth.endSession(token);
                throw new Error('oidc.callback_failed');
              }
              window.history.replaceState(null, '', '/oidc/callback');
              setChoice({ token, current: { token: currentToken, user: current }, next });
              return;
            }
          }
          tokenStore.set(token);
          browserNavigation.replace(takeAfterSignIn());
        })
        .catch((reason: unknown) => {
          if (controller.signal.aborted) return;
          // The server's reason for refusing the code, else the page's own words.
          const message = serverMessage(reason, 'oidc.callback_failed');
          window.history.replaceState(null, '', '/oidc/callback');
          setFailure(translate(message, { _: message }));
        });
    }, 0);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [auth, translate, search]);

  const switchAccounts = async () => {
    if (!choice) return;
    setBusy(true);
    // The account signed in before ends its session here; the new one takes over.
    await auth.endSession(choice.current.token);
    tokenStore.set(choice.token);
    browserNavigation.replace(takeAfterSignIn());
  };

  const stay = async () => {
    if (!choice) return;
    setBusy(true);
    await auth.endSession(choice.token);
    takeAfterSignIn();
    browserNavigation.replace('/');
  };

  if (choice) {
    const current = label(choice.current.user);
    const next = label(choice.next);
    return (
      <LoggedOutLayout title="oidc.switch_title">
        <Stack spacing={2} data-testid="oidc-switch">
          <Alert severity="warning">{translate('oidc.switch_intro', { current, next })}</Alert>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
            {/* The safe answer has the focus: Enter keeps the account signed in here. */}
            <Button variant="contained" autoFocus disabled={busy} onClick={stay}>
              {translate('oidc.switch_stay', { name: fullName(choice.current.user) || choice.current.user.email })}
            </Button>
            <Button variant="outlined" disabled={busy} onClick={switchAccounts}>
              {translate('oidc.switch_continue', { name: fullName(choice.next) || choice.next.email })}
            </Button>
          </Stack>
        </Stack>
      </LoggedOutLayout>
    );
  }

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
