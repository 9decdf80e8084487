import { Alert, Box, Button, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { SubmitButton } from '../../components/SubmitButton';
import { useTestbedAuth } from '../../session';
import { errorMessage, fieldErrors } from '../../httpClient';
import { strongPassword } from '../../utils/passwordStrength';
import { mandatory, validateRequired } from './validation';
import { AuthForm, type AuthFormValues, AuthPasswordField, AuthPasswordStrength } from './AuthForm';
import { FormError } from './FormError';
import { LoggedOutLayout } from './LoggedOutLayout';
import { ScreenLink, useScreenParams } from './screenRouting';

/** An identity the reset unlinked (it had been linked with a password). */
interface UnlinkedIdentity {
  provider: string;
  provider_name: string;
  email: string | null;
}

type Outcome = { kind: 'updated'; message: string; unlinked: UnlinkedIdentity[] } | { kind: 'invalid'; message: string };

const unlinkedNames = (identities: UnlinkedIdentity[]) =>
  identities.map((identity) => `${identity.provider_name}${identity.email ? ` (${identity.email})` : ''}`).join(', ');

/** /password/reset/:id/:signature: choose a new password. */
export const ResetPasswordPage = () => {
  const translate = useTranslate();
  const auth = useTestbedAuth();
  const { id = '', signature = '' } = useScreenParams();
  const [error, setError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const onSubmit = async (values: AuthFormValues) => {
    setError(null);
    setSubmitting(true);
    try {
      const answer = await auth.resetPassword(id, signature, {
        password: values.password ?? '',
        password_confirmation: values.password_confirmation ?? '',
      });
      const unlinked = Array.isArray(answer?.unlinked_identities) ? (answer.unlinked_identities as UnlinkedIdentity[]) : [];
      setOutcome({ kind: 'updated', message: answer?.message || 'auth.reset.success', unlinked });
      return undefined;
    } catch (failure) {
      const errors = fieldErrors(failure);
      if (errors) return errors;
      if ((failure as { status?: number })?.status === 403) {
        setOutcome({ kind: 'invalid', message: errorMessage(failure) });
      } else {
        setError(errorMessage(failure));
      }
      return undefined;
    } finally {
      setSubmitting(false);
    }
  };

  if (outcome?.kind === 'updated') {
    return (
      <LoggedOutLayout title="auth.reset.success_title" backToLogin={false}>
        {/* The page's heading already says 'Password updated'; the alert says what it means. */}
        <Alert severity="success" role="status">
          {translate(outcome.message, { _: outcome.message })}
        </Alert>
        {/* A reset also unlinks the identities linked with a password: the owner links their own again. */}
        {outcome.unlinked.length > 0 && (
          <Alert severity="warning" sx={{ mt: 2 }}>
            {translate('auth.reset.unlinked', { names: unlinkedNames(outcome.unlinked) })}
          </Alert>
        )}
        {/* A reset revokes every session and personal access token (docs/api-contract.md). */}
        <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
          {translate('auth.reset.revoked_hint')}
        </Typography>
        <Button component={ScreenLink} to="/" variant="contained" size="large" fullWidth sx={{ mt: 3 }}>
          {translate('auth.reset.login')}
        </Button>
      </LoggedOutLayout>
    );
  }

  if (outcome?.kind === 'invalid') {
    return (
      <LoggedOutLayout title="auth.reset.title">
        <Alert severity="error" role="alert">
          {translate(outcome.message, { _: outcome.message })}
        </Alert>
        <Stack sx={{ mt: 3 }}>
          <Button component={ScreenLink} to="/password" variant="contained">
            {translate('auth.reset.request_new')}
          </Button>
        </Stack>
      </LoggedOutLayout>
    );
  }

  return (
    <LoggedOutLayout title="auth.reset.title" subtitle="auth.reset.subtitle">
      <FormError message={error} />
      <AuthForm onSubmit={onSubmit}>
        <AuthPasswordField
          source="password"
          label="auth.fields.password"
          autoComplete="new-password"
          validate={[mandatory, strongPassword]}
          autoFocus
        />
        <AuthPasswordStrength />
        <AuthPasswordField
          source="password_confirmation"
          label="auth.fields.password_confirmation"
          autoComplete="new-password"
          validate={validateRequired}
        />
        <Box sx={{ mt: 2 }}>
          <SubmitButton label="auth.reset.submit" loading={submitting} fullWidth size="large" />
        </Box>
      </AuthForm>
    </LoggedOutLayout>
  );
};
