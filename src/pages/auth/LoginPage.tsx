import { Alert, Box, Link, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { SubmitButton } from '../../components/SubmitButton';
import { useTestbedAuth } from '../../session';
import { errorMessage } from '../../httpClient';
import { validateEmail, validateRequired } from './validation';
import { AuthForm, type AuthFormValues, AuthPasswordField, AuthTextField } from './AuthForm';
import { FormError } from './FormError';
import { InstitutionSignIn } from './InstitutionSignIn';
import { takeLoggedOutNotice } from './loggedOutNotice';
import { LoggedOutLayout } from './LoggedOutLayout';
import { ScreenLink, useScreenLocation, useScreenNavigate } from './screenRouting';

/** Logs in, then goes to `next`: react-admin's useLogin in the console. */
export type LoginAction = (credentials: { email: string; password: string }, next: string) => Promise<unknown>;

/**
 * Login form, shown at / and at any console path while logged out. After login the
 * user stays on the path they asked for. `login` is react-admin's useLogin() in the console
 * (SessionGate); the logged-out bundle, which has no react-admin context, logs in itself.
 */
export const LoginPage = ({ login: consoleLogin }: { login?: LoginAction }) => {
  const translate = useTranslate();
  const auth = useTestbedAuth();
  const navigate = useScreenNavigate();
  const login: LoginAction =
    consoleLogin ??
    (async (credentials, next) => {
      await auth.login(credentials);
      navigate(next);
    });
  const location = useScreenLocation();
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  // Why the session just ended, when the console ended it (its account disabled, say).
  const [loggedOutNotice] = useState(takeLoggedOutNotice);

  const onSubmit = async (values: AuthFormValues) => {
    setError(null);
    setSubmitting(true);
    // '/login' (react-admin's default login path) has no page of its own: go home instead.
    const next = location.pathname === '/login' ? '/' : `${location.pathname}${location.search}${location.hash}`;
    try {
      await login({ email: String(values.email).trim(), password: values.password }, next);
    } catch (failure) {
      setError(errorMessage(failure));
      setSubmitting(false);
    }
  };

  return (
    <LoggedOutLayout title="auth.login.title" subtitle="auth.login.subtitle" backToLogin={false}>
      {loggedOutNotice && !error && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {translate(loggedOutNotice)}
        </Alert>
      )}
      <FormError message={error} />
      <InstitutionSignIn translate={translate} />
      <AuthForm onSubmit={onSubmit}>
        <AuthTextField
          source="email"
          label="auth.fields.email"
          type="email"
          autoComplete="email"
          validate={validateEmail}
          autoFocus
        />
        <AuthPasswordField source="password" label="auth.fields.password" autoComplete="current-password" validate={validateRequired} />
        <Box sx={{ textAlign: 'right', mt: 0.5, mb: 2 }}>
          <Link component={ScreenLink} to="/password" variant="body2">
            {translate('auth.login.forgot')}
          </Link>
        </Box>
        <SubmitButton label="auth.login.submit" loading={submitting} fullWidth size="large" />
      </AuthForm>
      <Stack direction="row" spacing={1} sx={{ mt: 3, justifyContent: 'center' }}>
        <Typography variant="body2" color="text.secondary">
          {translate('auth.login.no_account')}
        </Typography>
        <Link component={ScreenLink} to="/registration" variant="body2">
          {translate('auth.login.register')}
        </Link>
      </Stack>
    </LoggedOutLayout>
  );
};
