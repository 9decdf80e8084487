import { Alert, Box, Button, CircularProgress, Stack, Tab, Tabs, TextField, Typography } from '@mui/material';
import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { HttpError, useTranslate } from 'react-admin';
import type { InvitationPreview } from '../../authProvider';
import { errorMessage, fieldErrors as fieldErrorsOf, HTTP_ERROR, serverMessage, tokenStore } from '../../httpClient';
import { PasswordStrength } from '../../components/PasswordStrengthMeter';
import { useTestbedAuth } from '../../session';
import { useSettings } from '../../settings';
import { InstitutionSignIn } from '../auth/InstitutionSignIn';
import { LoggedOutLayout } from '../auth/LoggedOutLayout';
import { useScreenLocation, useScreenParams } from '../auth/screenRouting';
import { AFTER_SIGN_IN_KEY } from '../oidc/OidcCallbackPage';
import { browserNavigation } from '../../utils/browserNavigation';

// /invitations/{id}/{token}, in both bundles. The mailed link: shows the invitation
// (GET /api/invitations/{id}/{token}); a person signed in with the invited address joins at once
// (POST …/accept) and goes to the team; one signed in with another address is told and may
// sign out; anyone else logs in, registers (the invited address, fixed) or signs in with their
// institution, then joins. Joining through the link also verifies the address. A link that
// cannot be used (used, withdrawn, expired, a suspended team, an inviter who may no longer give
// the role) shows the server's reason, in the console's language (the http client's
// Accept-Language). Signing up here is the registration form's: the same field labels and the
// same password strength meter. The calls are the auth provider's: the page is in both bundles, and the
// logged-out one has no data provider. Each names its token: the stored one, one just obtained
// by logging in, or none.

interface Me {
  email: string;
}

type Fields = Record<string, string>;

export const InvitationPage = () => {
  const translate = useTranslate();
  const { apiUrl } = useSettings();
  const auth = useTestbedAuth();
  const { id = '', token: secret = '' } = useScreenParams();
  const { pathname } = useScreenLocation();
  const [preview, setPreview] = useState<InvitationPreview | null>(null);
  const [me, setMe] = useState<Me | null | undefined>(undefined);
  const [problem, setProblem] = useState<string | null>(null);
  const [joining, setJoining] = useState(false);
  const [tab, setTab] = useState<'login' | 'register'>('login');
  const [values, setValues] = useState<Fields>({});
  const [fieldErrors, setFieldErrors] = useState<Fields>({});
  const [formError, setFormError] = useState<string | null>(null);

  /** What went wrong, to show: the server's reason (a suspended team, an inviter who may no longer invite…). */
  const reasonOf = useCallback(
    (error: unknown): string => {
      const message = error instanceof HttpError ? serverMessage(error, HTTP_ERROR) : errorMessage(error);
      return translate(message, { _: message });
    },
    [translate],
  );

  /** Joins with `token`, stores it as the session and goes to the team (a full load: the console starts with the new membership). */
  const accept = useCallback(
    async (token: string) => {
      setJoining(true);
      try {
        const joined = await auth.acceptInvitation(id, secret, token);
        if (tokenStore.get() !== token) tokenStore.set(token);
        browserNavigation.assign(`/teams/${joined.team.id}`);
      } catch (error) {
        setJoining(false);
        throw error;
      }
    },
    [auth, id, secret],
  );

  // Once per page: joining works once (and strict mode runs effects twice in development).
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const token = tokenStore.get();
    void (async () => {
      try {
        const invitation = await auth.invitation(id, secret);
        setPreview(invitation);
        const user: Me | null = token ? await auth.userOf(token).catch(() => null) : null;
        setMe(user);
        if (user && token && user.email === invitation.email) await accept(token);
      } catch (error) {
        setProblem(reasonOf(error));
      }
    })();
  }, [auth, id, secret, accept, reasonOf]);

  const signOut = async () => {
    const token = tokenStore.get();
    if (token) await auth.endSession(token);
    tokenStore.clear();
    browserNavigation.reload();
  };

  const set = (field: string) => (event: React.ChangeEvent<HTMLInputElement>) => setValues((old) => ({ ...old, [field]: event.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!preview) return;
    setFormError(null);
    setFieldErrors({});
    setJoining(true);
    try {
      if (tab === 'register') {
        await auth.register({
          firstname: values.firstname ?? '',
          lastname: values.lastname ?? '',
          email: preview.email,
          password: values.password ?? '',
          password_confirmation: values.password_confirmation ?? '',
          invitation: { id, token: secret },
        });
      }
      // The new token is stored only once it has joined: stored now, it would switch the
      // logged-out bundle to the console, which opens this page again.
      const token = await auth.createToken({ email: preview.email, password: values.password ?? '' });
      await accept(token);
    } catch (error) {
      setJoining(false);
      const errors = fieldErrorsOf(error);
      if (errors) setFieldErrors(errors);
      else setFormError(reasonOf(error));
    }
  };

  const role = preview ? translate(`roles.${preview.role}`, { _: preview.role }) : '';
  const field = (name: string, label: string, type = 'text', autoComplete?: string) => (
    <TextField
      key={name}
      name={name}
      label={translate(label)}
      type={type}
      autoComplete={autoComplete}
      value={values[name] ?? ''}
      onChange={set(name)}
      error={!!fieldErrors[name]}
      helperText={fieldErrors[name]}
      fullWidth
      required
      margin="dense"
    />
  );

  return (
    <LoggedOutLayout title="invitations.landing.title" subtitle="invitations.landing.subtitle">
      {problem ? (
        <Alert severity="error" role="alert">
          <Typography sx={{ fontWeight: 600 }}>{translate('invitations.landing.invalid_title')}</Typography>
          {problem}
        </Alert>
      ) : !preview || me === undefined ? (
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          <CircularProgress size={24} />
          <Typography>{translate('invitations.landing.loading')}</Typography>
        </Stack>
      ) : (
        <Stack spacing={2}>
          <Alert severity="info" icon={false}>
            <Typography>
              {translate(preview.invited_by ? 'invitations.landing.offer' : 'invitations.landing.offer_anonymous', {
                inviter: preview.invited_by,
                email: preview.email,
                team: preview.team.fullname,
                role,
              })}
            </Typography>
            {preview.workspaces.length > 0 && (
              <Typography variant="body2" sx={{ mt: 1 }}>
                {translate('invitations.landing.workspaces', { names: preview.workspaces.map((workspace) => workspace.label).join(', ') })}
              </Typography>
            )}
          </Alert>
          {joining && me ? (
            <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
              <CircularProgress size={24} />
              <Typography>{translate('invitations.landing.joining', { team: preview.team.fullname })}</Typography>
            </Stack>
          ) : me ? (
            <Stack spacing={2}>
              {formError && <Alert severity="error">{formError}</Alert>}
              <Alert severity="warning">{translate('invitations.landing.other_account', { email: preview.email, current: me.email })}</Alert>
              <Button variant="contained" onClick={() => void signOut()}>
                {translate('invitations.landing.switch', { email: preview.email })}
              </Button>
            </Stack>
          ) : (
            <Box>
              <InstitutionSignIn
                translate={translate}
                apiUrl={apiUrl}
                onStart={() => {
                  try {
                    window.sessionStorage.setItem(AFTER_SIGN_IN_KEY, pathname);
                  } catch {
                    // No session storage: the person follows the mailed link again.
                  }
                }}
              />
              <Tabs value={tab} onChange={(_event, value: 'login' | 'register') => setTab(value)} variant="fullWidth" sx={{ mb: 1 }}>
                <Tab value="login" label={translate('invitations.landing.have_account')} />
                <Tab value="register" label={translate('invitations.landing.new_account')} />
              </Tabs>
              <Box component="form" onSubmit={(event) => void submit(event)} noValidate>
                {formError && (
                  <Alert severity="error" sx={{ mb: 1 }}>
                    {formError}
                  </Alert>
                )}
                <TextField label={translate('auth.fields.email')} value={preview.email} fullWidth margin="dense" slotProps={{ input: { readOnly: true } }} />
                {tab === 'register' && (
                  <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 0, sm: 2 }}>
                    {field('firstname', 'auth.fields.firstname', 'text', 'given-name')}
                    {field('lastname', 'auth.fields.lastname', 'text', 'family-name')}
                  </Stack>
                )}
                {field('password', 'auth.fields.password', 'password', tab === 'login' ? 'current-password' : 'new-password')}
                {tab === 'register' && (
                  <PasswordStrength
                    password={values.password}
                    person={{ email: preview.email, firstname: values.firstname, lastname: values.lastname }}
                    refused={!!fieldErrors.password}
                  />
                )}
                {tab === 'register' && field('password_confirmation', 'auth.fields.password_confirmation', 'password', 'new-password')}
                {fieldErrors.email && <Alert severity="error">{fieldErrors.email}</Alert>}
                <Button type="submit" variant="contained" size="large" fullWidth disabled={joining} sx={{ mt: 2 }}>
                  {translate(tab === 'login' ? 'invitations.landing.log_in' : 'invitations.landing.register')}
                </Button>
              </Box>
            </Box>
          )}
        </Stack>
      )}
    </LoggedOutLayout>
  );
};

export default InvitationPage;
