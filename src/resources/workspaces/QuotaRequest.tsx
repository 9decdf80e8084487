import AddchartOutlinedIcon from '@mui/icons-material/AddchartOutlined';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField, Typography } from '@mui/material';
import { type FormEvent, useState } from 'react';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import type { ConsoleDataProvider } from '../../dataProvider';
import { useRefreshRequests } from '../../hooks';
import { errorMessage, fieldErrors } from '../../httpClient';

// Asking for more quota (docs/api-contract.md, "Requests for more quota"): POST
// /api/requests/workspaces/{id}/quota {quota, reason, until?}. Only the values filled in are
// sent; the server says what is wrong with each (not a quantity, lower than now, a date past)
// and those messages show under their fields; anything else (409: one is pending) in an alert.

const RESOURCES = ['cpu', 'memory', 'pods', 'storage'] as const;
type Resource = (typeof RESOURCES)[number];

export const QuotaRequestDialog = ({ workspace, open, onClose }: { workspace: { id: number; name: string }; open: boolean; onClose: () => void }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const refreshRequests = useRefreshRequests();
  const empty = { cpu: '', memory: '', pods: '', storage: '' };
  const [values, setValues] = useState<Record<Resource, string>>(empty);
  const [reason, setReason] = useState('');
  const [until, setUntil] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const clearError = (field: string) => setErrors(({ [field]: _gone, ...rest }) => rest);
  const close = () => {
    setValues(empty);
    setReason('');
    setUntil('');
    setErrors({});
    setMessage(null);
    setSaving(false);
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setMessage(null);
    const quota: Record<string, string | number> = {};
    for (const resource of RESOURCES) {
      const value = values[resource].trim();
      if (value) quota[resource] = resource === 'pods' && /^\d+$/.test(value) ? Number(value) : value;
    }
    const found: Record<string, string> = {};
    if (Object.keys(quota).length === 0) found['quota.cpu'] = translate('teamQuota.ask.nothing');
    if (!reason.trim()) found.reason = translate('ra.validation.required');
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSaving(true);
    try {
      // The date picked is the end of that day in the person's time zone.
      const untilIso = until ? new Date(`${until}T23:59:59`).toISOString() : undefined;
      const request = await dataProvider.askForQuota(workspace.id, { quota, reason: reason.trim(), ...(untilIso ? { until: untilIso } : {}) });
      notify(request.status === 'Approved' ? 'teamQuota.ask.granted' : 'teamQuota.ask.sent', { type: 'success', messageArgs: { name: workspace.name } });
      void refreshRequests();
      close();
    } catch (failure) {
      const fields = fieldErrors(failure);
      if (fields && Object.keys(fields).length > 0) {
        setErrors(Object.fromEntries(Object.entries(fields).map(([key, value]) => [key === 'quota' ? 'quota.cpu' : key, [value].flat().join(' ')])));
      } else {
        const text = errorMessage(failure);
        setMessage(translate(text, { _: text }));
      }
      setSaving(false);
    }
  };

  const quotaField = (resource: Resource) => (
    <TextField
      key={resource}
      name={resource}
      label={translate(`teamQuota.ask.${resource}`)}
      value={values[resource]}
      onChange={(event) => {
        setValues((current) => ({ ...current, [resource]: event.target.value }));
        clearError(`quota.${resource}`);
      }}
      error={!!errors[`quota.${resource}`]}
      helperText={errors[`quota.${resource}`] ?? (resource === 'cpu' ? translate('teamQuota.ask.cpu_hint') : resource === 'pods' ? ' ' : translate('teamQuota.ask.size_hint'))}
      inputMode={resource === 'pods' ? 'numeric' : 'text'}
      fullWidth
      margin="dense"
    />
  );

  return (
    <Dialog open={open} onClose={saving ? undefined : close} fullWidth maxWidth="sm" aria-labelledby="quota-request-title">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <DialogTitle id="quota-request-title">{translate('teamQuota.ask.title', { name: workspace.name })}</DialogTitle>
        <DialogContent>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {translate('teamQuota.ask.intro')}
          </Typography>
          {message && (
            <Alert severity="error" sx={{ mb: 1 }}>
              {message}
            </Alert>
          )}
          <Stack direction={{ xs: 'column', sm: 'row' }} columnGap={2}>
            {quotaField('cpu')}
            {quotaField('memory')}
          </Stack>
          <Stack direction={{ xs: 'column', sm: 'row' }} columnGap={2}>
            {quotaField('pods')}
            {quotaField('storage')}
          </Stack>
          <TextField
            name="reason"
            label={translate('teamQuota.ask.reason')}
            value={reason}
            onChange={(event) => {
              setReason(event.target.value);
              clearError('reason');
            }}
            error={!!errors.reason}
            helperText={errors.reason ?? translate('teamQuota.ask.reason_hint')}
            multiline
            minRows={3}
            fullWidth
            required
            margin="dense"
          />
          <TextField
            name="until"
            type="date"
            label={translate('teamQuota.ask.until')}
            value={until}
            onChange={(event) => {
              setUntil(event.target.value);
              clearError('until');
            }}
            error={!!errors.until}
            helperText={errors.until ?? translate('teamQuota.ask.until_hint')}
            slotProps={{ inputLabel: { shrink: true } }}
            fullWidth
            margin="dense"
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={close} disabled={saving}>
            {translate('app.action.cancel')}
          </Button>
          <Button type="submit" variant="contained" disabled={saving}>
            {translate('teamQuota.ask.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};

/** "Ask for more quota", for whoever sees the workspace page (its members, its team's managers, platform admins). */
export const QuotaRequestButton = ({ workspace }: { workspace: { id: number; name: string } }) => {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button startIcon={<AddchartOutlinedIcon />} color="inherit" variant="outlined" size="small" onClick={() => setOpen(true)}>
        {translate('teamQuota.ask.button')}
      </Button>
      <QuotaRequestDialog workspace={workspace} open={open} onClose={() => setOpen(false)} />
    </>
  );
};
