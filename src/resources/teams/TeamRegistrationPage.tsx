import { Alert, AlertTitle, Box, Button, Card, CardContent, Typography } from '@mui/material';
import { useState } from 'react';
import { Form, RadioButtonGroupInput, TextInput, Title, useDataProvider, useTranslate } from 'react-admin';
import type { ConsoleDataProvider } from '../../dataProvider';
import { useWatch, type FieldValues } from 'react-hook-form';
import { Link } from 'react-router-dom';
import { SubmitButton } from '../../components/SubmitButton';
import { useRefreshRequests } from '../../hooks';
import { fieldErrors, serverMessage } from '../../httpClient';
import { teamNameFromShortname } from '../../utils/names';
import { mandatory, validateUrl } from '../../utils/validators';

export const JOINING_CATEGORIES = ['Research', 'Teaching', 'Other'] as const;
const FIELDS = ['fullname', 'shortname', 'affiliation', 'country', 'url', 'joining_reason', 'joining_category'];
const validateRequired = [mandatory];

/** The internal name, derived live from the short name (utils/names.ts). */
const NamePreview = () => {
  const translate = useTranslate();
  const shortname = useWatch({ name: 'shortname' }) as string | undefined;
  const name = teamNameFromShortname(shortname ?? '');
  return (
    <Box sx={{ mb: 2 }}>
      <Typography variant="body2" aria-live="polite" data-testid="team-name-preview">
        {translate('teams.registration.name_preview', { name: name || '—' })}
      </Typography>
      <Typography variant="caption" color="text.secondary">
        {translate('teams.registration.name_hint')}
      </Typography>
    </Box>
  );
};

/**
 * /team/registration: the new team form (POST /api/requests/teams). On success the request is
 * with the platform admins; a link leads to the profile's requests. 422 under the fields,
 * other failures the server message or 'Error creating team'.
 */
export const TeamRegistrationPage = () => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const refreshRequests = useRefreshRequests();
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);

  const onSubmit = async (values: FieldValues) => {
    setSubmitting(true);
    setFailure(null);
    const data: Record<string, string> = {};
    for (const field of FIELDS) data[field] = String(values[field] ?? '').trim();
    data.name = teamNameFromShortname(data.shortname!);
    try {
      await dataProvider.requestTeam(data);
      setSubmitting(false);
      setSent(data.fullname!);
      void refreshRequests();
      return undefined;
    } catch (error) {
      setSubmitting(false);
      const errors = fieldErrors(error);
      if (errors && FIELDS.some((field) => errors[field])) return errors;
      const message = serverMessage(error, 'teams.registration.error');
      setFailure(translate(message, { _: message }));
      return undefined;
    }
  };

  return (
    <Box sx={{ py: 2, maxWidth: 720 }}>
      <Title title="teams.registration.title" />
      <Typography variant="h5" component="h1" gutterBottom>
        {translate('teams.registration.title')}
      </Typography>
      <Card>
        <CardContent>
          {sent ? (
            <Alert severity="success" role="status">
              <AlertTitle>{translate('teams.registration.success_title')}</AlertTitle>
              {translate('teams.registration.success', { name: sent })}
              <Box sx={{ mt: 1 }}>
                <Button component={Link} to="/profile" variant="outlined" size="small">
                  {translate('teams.registration.see_requests')}
                </Button>
              </Box>
            </Alert>
          ) : (
            <Form onSubmit={onSubmit} noValidate disableInvalidFormNotification>
              <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
                {translate('teams.registration.intro')}
              </Typography>
              {failure && (
                <Alert severity="error" sx={{ mb: 2 }}>
                  {failure}
                </Alert>
              )}
              <TextInput source="fullname" label="teams.fields.fullname" validate={validateRequired} autoFocus />
              <TextInput source="shortname" label="teams.fields.shortname" validate={validateRequired} autoComplete="off" />
              <NamePreview />
              <TextInput source="affiliation" label="teams.fields.affiliation" validate={validateRequired} />
              <TextInput source="country" label="teams.fields.country" validate={validateRequired} autoComplete="country-name" />
              <TextInput source="url" label="teams.fields.url" validate={validateUrl} type="url" autoComplete="url" />
              <TextInput
                source="joining_reason"
                label="teams.fields.joining_reason"
                helperText="teams.fields.joining_reason_hint"
                validate={validateRequired}
                multiline
                minRows={3}
              />
              <RadioButtonGroupInput
                source="joining_category"
                label="teams.fields.joining_category"
                validate={validateRequired}
                choices={JOINING_CATEGORIES.map((category) => ({ id: category, name: `teams.categories.${category}` }))}
              />
              <Box sx={{ mt: 2 }}>
                <SubmitButton label="teams.registration.submit" loading={submitting} />
              </Box>
            </Form>
          )}
        </CardContent>
      </Card>
    </Box>
  );
};
