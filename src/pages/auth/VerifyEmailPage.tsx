import { Alert, AlertTitle, Box, Button, CircularProgress, Stack, Typography } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { useTranslate } from 'react-admin';
import { SubmitButton } from '../../components/SubmitButton';
import { useSession, useTestbedAuth } from '../../session';
import { errorMessage } from '../../httpClient';
import { FormError } from './FormError';
import { LoggedOutLayout } from './LoggedOutLayout';
import { useScreenLocation, useScreenNavigate, useScreenParams } from './screenRouting';

type State = { kind: 'pending' } | { kind: 'verified'; message: string } | { kind: 'failed'; message: string };

/**
 * /email/verify/:id/:hash (logged in or out): calls the API with the link's query string on
 * load, then shows the outcome. A logged-in user's session is refreshed so the onboarding
 * wizard moves on.
 */
export const VerifyEmailPage = () => {
  const translate = useTranslate();
  const auth = useTestbedAuth();
  const session = useSession();
  const navigate = useScreenNavigate();
  const { id = '', hash = '' } = useScreenParams();
  const { search } = useScreenLocation();
  const [state, setState] = useState<State>({ kind: 'pending' });
  const [resend, setResend] = useState<{ sending: boolean; message?: string; error?: string }>({ sending: false });
  const started = useRef<string | null>(null);
  const loggedIn = session.status !== 'anonymous';

  useEffect(() => {
    const key = `${id}/${hash}${search}`;
    if (started.current === key) return; // once per link, also under StrictMode
    started.current = key;
    setState({ kind: 'pending' });
    auth
      .verifyEmail(id, hash, search)
      .then(async (answer) => {
        if (auth.getSession().status !== 'anonymous') await auth.refreshUser();
        setState({ kind: 'verified', message: answer?.message || 'auth.verify.success' });
      })
      .catch((failure) => {
        if (auth.getSession().status === 'loading') void auth.loadUser();
        setState({ kind: 'failed', message: errorMessage(failure) });
      });
  }, [auth, id, hash, search]);

  const sendNewLink = async () => {
    setResend({ sending: true });
    try {
      const answer = await auth.sendVerificationEmail();
      setResend({ sending: false, message: answer?.message });
    } catch (failure) {
      setResend({ sending: false, error: errorMessage(failure) });
    }
  };

  return (
    // Once the link is checked the page's own button leads on (to the console, or to the login
    // page); a 'Back to login' beside it would offer the same way twice.
    <LoggedOutLayout title="auth.verify.title" backToLogin={state.kind === 'pending'}>
      {state.kind === 'pending' && (
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }} role="status" aria-live="polite">
          <CircularProgress size={28} aria-hidden />
          <Typography>{translate('auth.verify.progress')}</Typography>
        </Stack>
      )}

      {state.kind === 'verified' && (
        <>
          {/* The server's message alone: a title above it would say the same thing twice. */}
          <Alert severity="success" role="status">
            {translate(state.message, { _: state.message })}
          </Alert>
          <Button variant="contained" size="large" fullWidth sx={{ mt: 3 }} onClick={() => navigate('/')}>
            {translate(loggedIn ? 'auth.verify.continue' : 'auth.verify.login')}
          </Button>
        </>
      )}

      {state.kind === 'failed' && (
        <>
          <Alert severity="error" role="alert">
            <AlertTitle>{translate('auth.verify.failed_title')}</AlertTitle>
            {translate(state.message, { _: state.message })}
          </Alert>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
            {translate(loggedIn ? 'auth.verify.failed_logged_in' : 'auth.verify.failed_logged_out')}
          </Typography>
          <Box sx={{ mt: 3 }}>
            {loggedIn ? (
              <>
                <FormError message={resend.error} />
                <FormError message={resend.message} severity="success" role="status" />
                <SubmitButton
                  type="button"
                  label="auth.verify.resend"
                  loading={resend.sending}
                  onClick={sendNewLink}
                  fullWidth
                />
              </>
            ) : (
              <Button variant="contained" fullWidth onClick={() => navigate('/')}>
                {translate('auth.verify.login_to_resend')}
              </Button>
            )}
          </Box>
        </>
      )}
    </LoggedOutLayout>
  );
};
