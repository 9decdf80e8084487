import MarkEmailReadOutlinedIcon from '@mui/icons-material/MarkEmailReadOutlined';
import { Alert, Box, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import type { Registration } from '../../authProvider';
import { SubmitButton } from '../../components/SubmitButton';
import { useTestbedAuth } from '../../session';
import { errorMessage, fieldErrors } from '../../httpClient';
import { strongPassword } from '../../utils/passwordStrength';
import { mandatory, validateEmail, validateRequired } from './validation';
import { AuthForm, type AuthFormValues, AuthPasswordField, AuthPasswordStrength, AuthTextField } from './AuthForm';
import { FormError } from './FormError';
import { InstitutionSignIn } from './InstitutionSignIn';
import { LoggedOutLayout } from './LoggedOutLayout';

/** What a password should not be made of: zxcvbn scores the person's own words low. */
const PERSON_FIELDS = ['email', 'firstname', 'lastname'];

/**
 * The server reports a confirmation mismatch under password_confirmation and, as Laravel does,
 * under password too: the form shows it once, under the confirmation.
 */
function withoutRepeatedMismatch<T extends Record<string, unknown>>(errors: T): T {
  const confirmation = errors.password_confirmation;
  const mismatch = Array.isArray(confirmation) ? confirmation.map(String) : typeof confirmation === 'string' ? [confirmation] : [];
  const password = errors.password;
  if (mismatch.length === 0 || password === undefined) return errors;
  const copy: Record<string, unknown> = { ...errors };
  // Messages come as arrays, or joined into one string by the auth provider.
  const rest = Array.isArray(password)
    ? password.map(String).filter((message) => !mismatch.includes(message))
    : mismatch.reduce((text, message) => text.split(message).join(''), String(password)).replace(/\s+/g, ' ').trim();
  if (rest.length > 0) copy.password = rest;
  else delete copy.password;
  return copy as T;
}

/** /registration: create an account; on success a thank-you message. */
export const RegistrationPage = () => {
  const translate = useTranslate();
  const auth = useTestbedAuth();
  const [error, setError] = useState<string | null>(null);
  const [registered, setRegistered] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const onSubmit = async (values: AuthFormValues) => {
    setError(null);
    setSubmitting(true);
    const data: Registration = {
      firstname: String(values.firstname ?? '').trim(),
      lastname: String(values.lastname ?? '').trim(),
      email: String(values.email ?? '').trim(),
      password: values.password ?? '',
      password_confirmation: values.password_confirmation ?? '',
    };
    try {
      await auth.register(data);
      setRegistered(data.email);
      return undefined;
    } catch (failure) {
      const errors = fieldErrors(failure);
      // Field errors show under their fields; anything else (429, network) above the form.
      if (!errors) setError(errorMessage(failure));
      return errors ? withoutRepeatedMismatch(errors) : errors;
    } finally {
      setSubmitting(false);
    }
  };

  if (registered) {
    return (
      <LoggedOutLayout title="auth.registration.success_title">
        <Alert severity="success" icon={<MarkEmailReadOutlinedIcon />} role="status">
          {translate('auth.registration.success_body', { email: registered })}
        </Alert>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
          {translate('auth.registration.spam_hint')}
        </Typography>
      </LoggedOutLayout>
    );
  }

  return (
    <LoggedOutLayout title="auth.registration.title" subtitle="auth.registration.subtitle">
      <FormError message={error} />
      <InstitutionSignIn translate={translate} />
      <AuthForm onSubmit={onSubmit}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 0, sm: 2 }}>
          <AuthTextField source="firstname" label="auth.fields.firstname" autoComplete="given-name" validate={validateRequired} autoFocus />
          <AuthTextField source="lastname" label="auth.fields.lastname" autoComplete="family-name" validate={validateRequired} />
        </Stack>
        <AuthTextField source="email" label="auth.fields.email" type="email" autoComplete="email" validate={validateEmail} />
        <AuthPasswordField source="password" label="auth.fields.password" autoComplete="new-password" validate={[mandatory, strongPassword]} />
        <AuthPasswordStrength personFields={PERSON_FIELDS} />
        <AuthPasswordField
          source="password_confirmation"
          label="auth.fields.password_confirmation"
          autoComplete="new-password"
          validate={validateRequired}
        />
        <Box sx={{ mt: 2 }}>
          <SubmitButton label="auth.registration.submit" loading={submitting} fullWidth size="large" />
        </Box>
      </AuthForm>
    </LoggedOutLayout>
  );
};
