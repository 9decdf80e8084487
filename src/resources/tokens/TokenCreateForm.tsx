import { Box, Button, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { Form, NumberInput, TextInput, maxValue, minValue, useDataProvider, useNotify, useTranslate } from 'react-admin';
import type { FieldValues } from 'react-hook-form';
import { mandatory } from '../../utils/validators';
import { SubmitButton } from '../../components/SubmitButton';
import { errorMessage, fieldErrors } from '../../httpClient';
import type { CreatedToken } from './TokenSecretDialog';

const validateName = [mandatory];
const validateDays = [minValue(1), maxValue(365)];

export interface TokenCreateFormProps {
  onCreated: (token: CreatedToken) => void;
  onCancel?: () => void;
}

/**
 * Name and optional expiry. Calls the dataProvider directly (not useCreate) so the plain text
 * never lands in the query cache; a 422 shows under the name field.
 */
export const TokenCreateForm = ({ onCreated, onCancel }: TokenCreateFormProps) => {
  const translate = useTranslate();
  const dataProvider = useDataProvider();
  const notify = useNotify();
  const [submitting, setSubmitting] = useState(false);

  const onSubmit = async (values: FieldValues) => {
    setSubmitting(true);
    const data: Record<string, unknown> = { name: String(values.name ?? '').trim() };
    const days = values.expires_in_days;
    if (days !== undefined && days !== null && days !== '') data.expires_in_days = Number(days);
    try {
      const { data: created } = await dataProvider.create('tokens', { data });
      setSubmitting(false);
      onCreated({ name: created.name, plainTextToken: created.plainTextToken });
      return undefined;
    } catch (failure) {
      setSubmitting(false);
      const errors = fieldErrors(failure);
      if (errors) return errors;
      notify(errorMessage(failure), { type: 'error' });
      return undefined;
    }
  };

  return (
    <Form onSubmit={onSubmit} noValidate disableInvalidFormNotification resource="tokens">
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {translate('resources.tokens.create.intro')}
      </Typography>
      <TextInput source="name" validate={validateName} autoFocus autoComplete="off" />
      <NumberInput
        source="expires_in_days"
        validate={validateDays}
        min={1}
        max={365}
        step={1}
        helperText="resources.tokens.create.expires_hint"
      />
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', mt: 2 }}>
        {onCancel && (
          <Button onClick={onCancel} disabled={submitting}>
            {translate('ra.action.cancel')}
          </Button>
        )}
        <Box>
          <SubmitButton label="resources.tokens.create.submit" loading={submitting} />
        </Box>
      </Stack>
    </Form>
  );
};
