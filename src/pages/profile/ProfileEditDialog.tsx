import { Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import { useState } from 'react';
import { Form, TextInput, useNotify, useTranslate } from 'react-admin';
import type { FieldValues } from 'react-hook-form';
import { SubmitButton } from '../../components/SubmitButton';
import { useTestbedAuth } from '../../hooks';
import { errorMessage, fieldErrors } from '../../httpClient';
import type { User } from '../../types';
import { validateRequired } from '../../utils/validators';

/** Edit the first and last name (both required; PATCH /user; server errors under the fields). */
export const ProfileEditDialog = ({ user, open, onClose }: { user: User; open: boolean; onClose: () => void }) => {
  const translate = useTranslate();
  const auth = useTestbedAuth();
  const notify = useNotify();
  const [submitting, setSubmitting] = useState(false);

  const onSubmit = async (values: FieldValues) => {
    setSubmitting(true);
    try {
      await auth.updateProfile({
        firstname: String(values.firstname ?? '').trim(),
        lastname: String(values.lastname ?? '').trim(),
      });
      setSubmitting(false);
      notify('profile.updated', { type: 'success' });
      onClose();
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
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth aria-labelledby="profile-edit-title">
      <DialogTitle id="profile-edit-title">{translate('profile.edit_title')}</DialogTitle>
      <Form
        onSubmit={onSubmit}
        noValidate
        disableInvalidFormNotification
        defaultValues={{ firstname: user.firstname, lastname: user.lastname }}
      >
        <DialogContent sx={{ pt: 0 }}>
          <TextInput source="firstname" label="auth.fields.firstname" validate={validateRequired} autoFocus autoComplete="given-name" />
          <TextInput source="lastname" label="auth.fields.lastname" validate={validateRequired} autoComplete="family-name" />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={submitting}>
            {translate('app.action.cancel')}
          </Button>
          <SubmitButton label="app.action.save" loading={submitting} />
        </DialogActions>
      </Form>
    </Dialog>
  );
};
