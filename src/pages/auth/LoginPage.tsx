import { Alert, Box, Link, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { Form, PasswordInput, TextInput, useLogin, useTranslate } from 'react-admin';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { SubmitButton } from '../../components/SubmitButton';
import { errorMessage } from '../../httpClient';
import { validateEmail, validateRequired } from '../../utils/validators';
import { FormError } from './FormError';
import { takeLoggedOutNotice } from './loggedOutNotice';
import { LoggedOutLayout } from './LoggedOutLayout';

/**
 * Login form, shown at / and at any console path while logged out (spec §2). After login the
 * user stays on the path they asked for.
 */
export const LoginPage = () => {
  const translate = useTranslate();
  const login = useLogin();
  const location = useLocation();
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  // Why the session just ended, when the console ended it (its account disabled, say).
  const [loggedOutNotice] = useState(takeLoggedOutNotice);

  const onSubmit = async (values: Record<string, any>) => {
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
      <Form onSubmit={onSubmit} noValidate disableInvalidFormNotification>
        <TextInput
          source="email"
          label="auth.fields.email"
          type="email"
          autoComplete="email"
          validate={validateEmail}
          autoFocus
        />
        <PasswordInput source="password" label="auth.fields.password" autoComplete="current-password" validate={validateRequired} />
        <Box sx={{ textAlign: 'right', mt: 0.5, mb: 2 }}>
          <Link component={RouterLink} to="/password" variant="body2">
            {translate('auth.login.forgot')}
          </Link>
        </Box>
        <SubmitButton label="auth.login.submit" loading={submitting} fullWidth size="large" />
      </Form>
      <Stack direction="row" spacing={1} sx={{ mt: 3, justifyContent: 'center' }}>
        <Typography variant="body2" color="text.secondary">
          {translate('auth.login.no_account')}
        </Typography>
        <Link component={RouterLink} to="/registration" variant="body2">
          {translate('auth.login.register')}
        </Link>
      </Stack>
    </LoggedOutLayout>
  );
};
