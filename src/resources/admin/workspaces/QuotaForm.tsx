import { Alert, Box, Stack } from '@mui/material';
import { useState } from 'react';
import { Form, NumberInput, SaveButton, TextInput, useDataProvider, useNotify, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import { errorMessage, fieldErrors } from '../../../httpClient';
import { type AdminWorkspaceDetail, isDetail } from './types';

// Edit quota (PATCH /api/admin/workspaces/{id} {quota}): the server validates the Kubernetes
// quantities; its 422 messages appear under the fields (keys quota.cpu … match the sources).
// A cleared field goes back to the default (null).

const FIELDS = ['cpu', 'memory', 'pods', 'storage'] as const;
type Field = (typeof FIELDS)[number];

export const QuotaForm = () => {
  const record = useRecordContext<AdminWorkspaceDetail>();
  const translate = useTranslate();
  const dataProvider = useDataProvider();
  const notify = useNotify();
  const refresh = useRefresh();
  const [failure, setFailure] = useState<string | null>(null);
  if (!isDetail(record)) return null;

  const submit = async (values: Record<string, unknown>) => {
    setFailure(null);
    const given = (values.quota ?? {}) as Partial<Record<Field, string | number | null>>;
    const quota = Object.fromEntries(
      FIELDS.map((field) => {
        const value = given[field];
        if (value === undefined || value === null || value === '') return [field, null];
        return [field, field === 'pods' ? Number(value) : String(value).trim()];
      }),
    );
    try {
      await dataProvider.update('admin/workspaces', { id: record.id, data: { quota }, previousData: record });
      notify('adminWorkspaces.quota.saved', { type: 'success' });
      refresh();
      return undefined;
    } catch (error) {
      const errors = fieldErrors(error);
      if (errors && FIELDS.some((field) => errors[`quota.${field}`])) return errors;
      setFailure(errorMessage(error));
      return undefined;
    }
  };

  const helper = (field: Field) =>
    translate(`adminWorkspaces.quota.help.${field}`, { default: String(record.quota.defaults[field]) });

  return (
    <Form
      key={JSON.stringify(record.quota.own)}
      record={{ quota: record.quota.own }}
      onSubmit={submit}
      noValidate
    >
      <Stack spacing={1} sx={{ maxWidth: 480 }}>
        {failure && <Alert severity="error">{translate(failure, { _: failure })}</Alert>}
        <TextInput source="quota.cpu" label="adminWorkspaces.quota.cpu" helperText={helper('cpu')} placeholder={record.quota.defaults.cpu} />
        <TextInput source="quota.memory" label="adminWorkspaces.quota.memory" helperText={helper('memory')} placeholder={record.quota.defaults.memory} />
        <NumberInput source="quota.pods" label="adminWorkspaces.quota.pods" helperText={helper('pods')} placeholder={String(record.quota.defaults.pods)} min={1} step={1} />
        <TextInput source="quota.storage" label="adminWorkspaces.quota.storage" helperText={helper('storage')} placeholder={record.quota.defaults.storage} />
        <Box>
          <SaveButton label="adminWorkspaces.quota.save" alwaysEnable />
        </Box>
      </Stack>
    </Form>
  );
};
