import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField, Typography } from '@mui/material';
import { type FormEvent, useState } from 'react';
import { useNotify, useRefresh, useTranslate, useUpdate } from 'react-admin';
import { errorMessage, fieldErrors } from '../../../httpClient';

// Setting a team quota (PATCH /api/admin/teams/{id} {quota, allocation_core_hours}): the four
// values, each empty for no cap (null), and the monthly CPU allocation (empty: none). The server's 422s (not a quantity, below what the workspaces hold) show under
// their fields, as it words them.

const RESOURCES = ['cpu', 'memory', 'pods', 'storage'] as const;
type Resource = (typeof RESOURCES)[number];
type Quota = Record<Resource, { hard: string; own?: string } | null> | null | undefined;

export const AdminTeamQuotaDialog = ({
  team,
  onClose,
}: {
  team: { id: number; fullname: string; quota?: Quota; allocation_core_hours?: number | null };
  onClose: () => void;
}) => {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [update, { isPending }] = useUpdate();
  // The caps as platform admins set them (`own`): `hard` includes the contributor credit, which
  // saving the form unchanged must not write into the cap.
  const [values, setValues] = useState<Record<Resource, string>>(() =>
    Object.fromEntries(RESOURCES.map((resource) => [resource, team.quota?.[resource]?.own ?? team.quota?.[resource]?.hard ?? ''])) as Record<Resource, string>,
  );
  const [allocation, setAllocation] = useState(team.allocation_core_hours == null ? '' : String(team.allocation_core_hours));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setMessage(null);
    const quota = Object.fromEntries(
      RESOURCES.map((resource) => {
        const value = values[resource].trim();
        return [resource, value === '' ? null : resource === 'pods' && /^\d+$/.test(value) ? Number(value) : value];
      }),
    );
    try {
      const hours = allocation.trim();
      // A number as the server wants it; anything else as typed, for the server to say what is wrong.
      const allocationCoreHours = hours === '' ? null : Number.isFinite(Number(hours)) ? Number(hours) : hours;
      await update('admin/teams', { id: team.id, data: { quota, allocation_core_hours: allocationCoreHours }, previousData: team }, { returnPromise: true });
      notify('teamQuota.admin.saved', { type: 'success' });
      refresh();
      onClose();
    } catch (failure) {
      const fields = fieldErrors(failure);
      if (fields && Object.keys(fields).length > 0) setErrors(Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, [value].flat().join(' ')])));
      else setMessage(errorMessage(failure));
    }
  };

  return (
    <Dialog open onClose={isPending ? undefined : onClose} fullWidth maxWidth="sm" aria-labelledby="team-quota-dialog-title">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <DialogTitle id="team-quota-dialog-title">{translate('teamQuota.admin.title', { name: team.fullname })}</DialogTitle>
        <DialogContent>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {translate('teamQuota.admin.intro')}
          </Typography>
          {message && (
            <Alert severity="error" sx={{ mb: 1 }}>
              {message}
            </Alert>
          )}
          {RESOURCES.map((resource) => (
            <TextField
              key={resource}
              name={resource}
              label={translate(`teamQuota.ask.${resource}`)}
              value={values[resource]}
              onChange={(event) => {
                setValues((current) => ({ ...current, [resource]: event.target.value }));
                setErrors(({ [`quota.${resource}`]: _gone, ...rest }) => rest);
              }}
              error={!!errors[`quota.${resource}`]}
              helperText={errors[`quota.${resource}`] ?? translate('teamQuota.admin.empty_hint')}
              fullWidth
              margin="dense"
            />
          ))}
          <TextField
            name="allocation_core_hours"
            label={translate('teamQuota.admin.allocation')}
            value={allocation}
            inputMode="decimal"
            onChange={(event) => {
              setAllocation(event.target.value);
              setErrors(({ allocation_core_hours: _gone, ...rest }) => rest);
            }}
            error={!!errors.allocation_core_hours}
            helperText={errors.allocation_core_hours ?? translate('teamQuota.admin.allocation_hint')}
            fullWidth
            margin="dense"
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={isPending}>
            {translate('app.action.cancel')}
          </Button>
          <Button type="submit" variant="contained" disabled={isPending}>
            {translate('teamQuota.admin.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};
