import { Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import { breakableEmail } from '../../components/EmailText';
import { endOfDayIso } from '../../utils/dates';
import { useRefreshRequests } from '../../hooks';
import { errorMessage } from '../../httpClient';
import type { UserRequest } from '../../types';
import { requestObject } from '../../utils/requestObject';
import { RequestDetails } from './RequestDetails';

export interface ManageRequestDialogProps {
  request: UserRequest | null;
  onClose: () => void;
}

/**
 * Approve or deny a pending request, with an optional message: PATCH /api/requests/{id}
 * {action, message}; approving a JoinTeam may give the membership an end date
 * (`membership_expires_at`: the end of the chosen day). The dialog closes whatever the outcome
 * (as the original console did); the result is notified and every requests list and count is
 * refreshed.
 */
export const ManageRequestDialog = ({ request, onClose }: ManageRequestDialogProps) => {
  const translate = useTranslate();
  const dataProvider = useDataProvider();
  const notify = useNotify();
  const refreshRequests = useRefreshRequests();
  const [message, setMessage] = useState('');
  const [membershipEnd, setMembershipEnd] = useState('');
  const [busy, setBusy] = useState(false);
  const joinsTeam = request?.type === 'JoinTeam';

  const close = () => {
    setMessage('');
    setMembershipEnd('');
    setBusy(false);
    onClose();
  };

  const decide = async (action: 'approve' | 'deny') => {
    if (!request) return;
    setBusy(true);
    const data: Record<string, string> = { action };
    if (message.trim()) data.message = message.trim();
    const ends = joinsTeam && action === 'approve' && membershipEnd ? endOfDayIso(membershipEnd) : null;
    if (ends) data.membership_expires_at = ends;
    try {
      await dataProvider.update('requests', { id: request.id, data, previousData: request });
      notify(action === 'approve' ? 'requests.approved' : 'requests.denied', { type: 'success' });
    } catch (error) {
      const text = errorMessage(error);
      notify(translate(text, { _: text }), { type: 'error' });
    } finally {
      close();
      void refreshRequests();
    }
  };

  // Full name and email: deciders of a large testbed cannot tell people apart by first name.
  const requesterName = request?.user ? request.user.name?.trim() || [request.user.firstname, request.user.lastname].filter(Boolean).join(' ') : '';
  const requesterEmail = request?.user?.email;
  return (
    <Dialog open={!!request} onClose={busy ? undefined : close} aria-labelledby="manage-request-title" fullWidth maxWidth="sm">
      <DialogTitle id="manage-request-title">{translate('requests.dialog_title')}</DialogTitle>
      {request && (
        <DialogContent>
          <Typography sx={{ mb: 1 }}>
            <strong>{translate(`requests.type.${request.type}`, { _: request.type })}</strong>
            {' — '}
            {requestObject(request)}
          </Typography>
          {/* A long address breaks rather than running out of a phone's dialog. */}
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1, overflowWrap: 'break-word' }}>
            {translate('app.labelled', { label: translate('requests.fields.requester') })} {requesterName}
            {requesterEmail && <> &lt;{breakableEmail(requesterEmail)}&gt;</>}
          </Typography>
          <RequestDetails request={request} />
          {request.message && (
            <Typography variant="body2" sx={{ mb: 2, whiteSpace: 'pre-wrap' }}>
              {request.message}
            </Typography>
          )}
          {joinsTeam && (
            <TextField
              type="date"
              name="membership_expires_at"
              label={translate('lifecycle.membership.approval_date')}
              helperText={translate('lifecycle.membership.approval_hint')}
              value={membershipEnd}
              onChange={(event) => setMembershipEnd(event.target.value)}
              slotProps={{ inputLabel: { shrink: true } }}
              fullWidth
              disabled={busy}
              sx={{ mb: 2 }}
            />
          )}
          <TextField
            label={translate('requests.decision_message')}
            helperText={translate('requests.decision_hint')}
            value={message}
            onChange={(event) => setMessage(event.target.value)}
            multiline
            minRows={2}
            fullWidth
            disabled={busy}
          />
        </DialogContent>
      )}
      <DialogActions>
        <Button onClick={close} disabled={busy}>
          {translate('ra.action.cancel')}
        </Button>
        <Button color="error" variant="outlined" onClick={() => decide('deny')} disabled={busy}>
          {translate('requests.deny')}
        </Button>
        <Button color="success" variant="contained" onClick={() => decide('approve')} disabled={busy}>
          {translate('requests.approve')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
