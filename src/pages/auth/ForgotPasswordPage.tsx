import { Alert, Box, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { SubmitButton } from '../../components/SubmitButton';
import { useTestbedAuth } from '../../session';
import { errorMessage, fieldErrors } from '../../httpClient';
import { validateEmail } from './validation';
import { AuthForm, type AuthFormValues, AuthTextField } from './AuthForm';
import { FormError } from './FormError';
import { LoggedOutLayout } from './LoggedOutLayout';

/** /password: ask for a password reset link. */
export const ForgotPasswordPage = () => {
  const translate = useTranslate();
  const auth = useTestbedAuth();
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const onSubmit = async (values: AuthFormValues) => {
    setError(null);
    setSubmitting(true);
    try {
      const answer = await auth.requestPasswordReset(String(values.email ?? '').trim());
      setSent(answer?.message || 'auth.forgot.success');
      return undefined;
    } catch (failure) {
      const errors = fieldErrors(failure);
      if (!errors) setError(errorMessage(failure));
      return errors;
    } finally {
      setSubmitting(false);
    }
  };

  if (sent) {
    return (
      <LoggedOutLayout title="auth.forgot.success_title">
        <Alert severity="success" role="status">
          {translate(sent, { _: sent })}
        </Alert>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
          {translate('auth.forgot.spam_hint')}
        </Typography>
      </LoggedOutLayout>
    );
  }

  return (
    <LoggedOutLayout title="auth.forgot.title" subtitle="auth.forgot.subtitle">
      <FormError message={error} />
      <AuthForm onSubmit={onSubmit}>
        <AuthTextField source="email" label="auth.fields.email" type="email" autoComplete="email" validate={validateEmail} autoFocus />
        <Box sx={{ mt: 2 }}>
          <SubmitButton label="auth.forgot.submit" loading={submitting} fullWidth size="large" />
        </Box>
      </AuthForm>
    </LoggedOutLayout>
  );
};
