import { Alert, Box, Button, Dialog, DialogContent, DialogTitle, Stack } from '@mui/material';
import { useRef, useState } from 'react';
import { Form, TextInput, useDataProvider, useNotify, useTranslate } from 'react-admin';
import type { ConsoleDataProvider } from '../../dataProvider';
import { useFormContext, type FieldValues } from 'react-hook-form';
import { SubmitButton } from '../../components/SubmitButton';
import { useRefreshRequests } from '../../hooks';
import { fieldErrors, serverMessage } from '../../httpClient';
import { workspaceNameFromLabel } from '../../utils/names';
import { mandatory, validateWorkspaceName } from '../../utils/validators';

const validateLabel = [mandatory];

/** Label and name; the name follows the label (utils/names.ts) until the user edits the name. */
const WorkspaceFields = () => {
  const { setValue } = useFormContext();
  const nameEdited = useRef(false);
  return (
    <>
      <TextInput
        source="label"
        label="workspaces.fields.label"
        validate={validateLabel}
        autoFocus
        autoComplete="off"
        onChange={(event: React.ChangeEvent<HTMLInputElement>) => {
          if (!nameEdited.current) {
            setValue('name', workspaceNameFromLabel(event.target.value), { shouldDirty: true });
          }
        }}
      />
      <TextInput
        source="name"
        label="workspaces.fields.name"
        validate={validateWorkspaceName}
        helperText="workspaces.name_hint"
        autoComplete="off"
        onChange={() => {
          nameEdited.current = true;
        }}
      />
    </>
  );
};

export interface WorkspaceCreateProps {
  team: { id: number; name: string; fullname?: string | null };
  /** Owner/manager (or platform admin): created at once; others send a request. */
  canCreate: boolean;
  onDone?: () => void;
  onCancel?: () => void;
}

/**
 * The workspace form: POST /api/requests/workspaces {label, name, team_id}. The server creates
 * the workspace at once for team managers (Approved) and answers Pending otherwise; the
 * notification says which happened. 422 under the fields; other failures show the server
 * message or 'Error creating workspace'.
 */
export const WorkspaceCreateForm = ({ team, canCreate, onDone, onCancel }: WorkspaceCreateProps) => {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const refreshRequests = useRefreshRequests();
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const onSubmit = async (values: FieldValues) => {
    setSubmitting(true);
    setFailure(null);
    const data = { label: String(values.label ?? '').trim(), name: String(values.name ?? '').trim(), team_id: team.id };
    try {
      const request = await dataProvider.requestWorkspace(data);
      setSubmitting(false);
      notify(request?.status === 'Approved' ? 'workspaces.created' : 'workspaces.requested', {
        type: 'success',
        messageArgs: { name: data.name },
      });
      void refreshRequests();
      onDone?.();
      return undefined;
    } catch (error) {
      setSubmitting(false);
      const errors = fieldErrors(error);
      if (errors && (errors.label || errors.name)) return errors;
      const message = serverMessage(error, 'workspaces.create_error');
      setFailure(translate(message, { _: message }));
      return undefined;
    }
  };

  return (
    <Form onSubmit={onSubmit} noValidate disableInvalidFormNotification>
      {failure && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {failure}
        </Alert>
      )}
      <WorkspaceFields />
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', mt: 2 }}>
        {onCancel && (
          <Button onClick={onCancel} disabled={submitting}>
            {translate('ra.action.cancel')}
          </Button>
        )}
        <Box>
          <SubmitButton label={canCreate ? 'workspaces.create_submit' : 'workspaces.request_submit'} loading={submitting} />
        </Box>
      </Stack>
    </Form>
  );
};

export const WorkspaceCreateDialog = ({ open, ...props }: WorkspaceCreateProps & { open: boolean }) => {
  const translate = useTranslate();
  const title = translate(props.canCreate ? 'workspaces.create_title' : 'workspaces.request_title', {
    team: props.team.fullname || props.team.name,
  });
  return (
    <Dialog open={open} onClose={props.onCancel} aria-labelledby="workspace-create-title" fullWidth maxWidth="sm">
      <DialogTitle id="workspace-create-title">{title}</DialogTitle>
      <DialogContent>{open && <WorkspaceCreateForm {...props} />}</DialogContent>
    </Dialog>
  );
};
