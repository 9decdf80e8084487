import EventRepeatOutlinedIcon from '@mui/icons-material/EventRepeatOutlined';
import { Alert, Button, Chip, Dialog, DialogActions, DialogContent, DialogTitle, TextField, Typography, type ButtonProps } from '@mui/material';
import { type FormEvent, useState } from 'react';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import type { ConsoleDataProvider } from '../../dataProvider';
import { useCurrentUser, useRefreshRequests } from '../../hooks';
import { errorMessage, fieldErrors } from '../../httpClient';

// Asking to renew a workspace or a team (docs/lifecycle.md, "Renewal"): POST
// /api/requests/workspaces/{id}/renewal {days, reason} or /api/requests/teams/{id}/renewal
// {reason}. A workspace's renewal within the default lifetime is decided by its team's managers
// (at once when they ask themselves), a longer one and a team's by the platform admins. The
// server's 422s show under the fields; its 409 ("already pending") and other refusals in an
// alert, as it words them.

/** What a renewal is asked for. */
export interface RenewalTarget {
  kind: 'workspace' | 'team';
  id: number;
  /** Its label or full name, for the dialog's title. */
  name: string;
}

/**
 * The days offered at first: the server's default lifetime (180) is not known to members, and
 * 90 days stays within it, so that the team's managers decide rather than the platform admins.
 */
export const DEFAULT_RENEWAL_DAYS = 90;
const MAX_DAYS = 3650;

/** True while the signed-in person has a renewal of `target` waiting for a decision (from GET /user). */
export const useRenewalPending = (target: Pick<RenewalTarget, 'kind' | 'id'>): boolean => {
  const user = useCurrentUser();
  const type = target.kind === 'workspace' ? 'RenewWorkspace' : 'RenewTeam';
  return (user?.requests ?? []).some((request) => request.type === type && request.status === 'Pending' && request.object?.id === target.id);
};

export const RenewalDialog = ({ target, onClose }: { target: RenewalTarget | null; onClose: () => void }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const refreshRequests = useRefreshRequests();
  const [days, setDays] = useState(String(DEFAULT_RENEWAL_DAYS));
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  // A message under a field is about what it held: it goes once the field is changed.
  const clearError = (field: string) => setErrors(({ [field]: _gone, ...rest }) => rest);

  const close = () => {
    setDays(String(DEFAULT_RENEWAL_DAYS));
    setReason('');
    setErrors({});
    setMessage(null);
    setSaving(false);
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!target) return;
    setMessage(null);
    const found: Record<string, string> = {};
    const count = Number(days);
    if (target.kind === 'workspace' && (!/^\d+$/.test(days.trim()) || count < 1 || count > MAX_DAYS)) {
      found.days = translate('lifecycle.renewal.days_range', { max: MAX_DAYS });
    }
    if (!reason.trim()) found.reason = translate('ra.validation.required');
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSaving(true);
    try {
      const request =
        target.kind === 'workspace'
          ? await dataProvider.renewWorkspace(target.id, { days: count, reason: reason.trim() })
          : await dataProvider.renewTeam(target.id, { reason: reason.trim() });
      const approved = request.status === 'Approved';
      notify(approved ? 'lifecycle.renewal.renewed' : `lifecycle.renewal.sent_${target.kind}`, { type: 'success', messageArgs: { name: target.name } });
      void refreshRequests();
      close();
    } catch (failure) {
      const fields = fieldErrors(failure);
      if (fields && Object.keys(fields).some((field) => field === 'days' || field === 'reason')) {
        setErrors(Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, [value].flat().join(' ')])));
      } else {
        const text = errorMessage(failure);
        setMessage(translate(text, { _: text }));
      }
      setSaving(false);
    }
  };

  return (
    <Dialog open={target !== null} onClose={saving ? undefined : close} fullWidth maxWidth="sm" aria-labelledby="renewal-dialog-title">
      {target && (
        <form onSubmit={(event) => void submit(event)} noValidate>
          <DialogTitle id="renewal-dialog-title">{translate(`lifecycle.renewal.title_${target.kind}`, { name: target.name })}</DialogTitle>
          <DialogContent>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
              {translate(`lifecycle.renewal.intro_${target.kind}`)}
            </Typography>
            {message && (
              <Alert severity="error" sx={{ mb: 1 }}>
                {message}
              </Alert>
            )}
            {target.kind === 'workspace' && (
              <TextField
                name="days"
                type="number"
                label={translate('lifecycle.renewal.days')}
                value={days}
                onChange={(event) => {
                  setDays(event.target.value);
                  clearError('days');
                }}
                error={!!errors.days}
                helperText={errors.days ?? translate('lifecycle.renewal.days_hint')}
                slotProps={{ htmlInput: { min: 1, max: MAX_DAYS, step: 1 } }}
                fullWidth
                required
                margin="dense"
              />
            )}
            <TextField
              autoFocus={target.kind === 'team'}
              name="reason"
              label={translate('lifecycle.renewal.reason')}
              value={reason}
              onChange={(event) => {
                setReason(event.target.value);
                clearError('reason');
              }}
              error={!!errors.reason}
              helperText={errors.reason ?? translate(`lifecycle.renewal.reason_hint_${target.kind}`)}
              multiline
              minRows={3}
              fullWidth
              required
              margin="dense"
            />
          </DialogContent>
          <DialogActions>
            <Button onClick={close} disabled={saving}>
              {translate('app.action.cancel')}
            </Button>
            <Button type="submit" variant="contained" disabled={saving}>
              {translate('lifecycle.renewal.submit')}
            </Button>
          </DialogActions>
        </form>
      )}
    </Dialog>
  );
};

/**
 * 'Request renewal', opening the dialog; 'Renewal requested' instead while the person's own
 * request waits for a decision (someone else's pending one is the server's 409, said plainly).
 */
export const RenewalButton = ({ target, ...props }: { target: RenewalTarget } & Omit<ButtonProps, 'onClick'>) => {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const pending = useRenewalPending(target);
  if (pending) return <Chip size="small" label={translate('lifecycle.renewal.pending')} />;
  return (
    <>
      <Button startIcon={<EventRepeatOutlinedIcon />} {...props} onClick={() => setOpen(true)}>
        {translate('lifecycle.renewal.button')}
      </Button>
      <RenewalDialog target={open ? target : null} onClose={() => setOpen(false)} />
    </>
  );
};
