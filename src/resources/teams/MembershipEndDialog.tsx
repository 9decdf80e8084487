import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField, Typography } from '@mui/material';
import { type FormEvent, useState } from 'react';
import { useDataProvider, useLocaleState, useNotify, useTranslate } from 'react-admin';
import type { ConsoleDataProvider } from '../../dataProvider';
import { errorMessage, fieldErrors } from '../../httpClient';
import { dateFieldValue, endOfDayIso, formatLongDate } from '../../utils/dates';

// When a team membership ends (docs/lifecycle.md, "Memberships that end"): PATCH
// /api/tenants/{id}/users/{userId} {expires_at}, the end of the chosen day in the browser's
// time zone, or null for no end. The server decides who may (a manager cannot touch an owner)
// and which dates are right (in the future, within 10 years): its messages show as it words them.

export interface MembershipEndMember {
  id: number;
  name: string;
  pivot?: { expires_at?: string | null };
}

export const MembershipEndDialog = ({
  teamId,
  member,
  onClose,
  onSaved,
}: {
  teamId: number;
  member: MembershipEndMember;
  onClose: () => void;
  onSaved: () => void;
}) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const notify = useNotify();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const current = member.pivot?.expires_at ?? null;
  const [date, setDate] = useState(dateFieldValue(current));
  const [error, setError] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const save = async (expiresAt: string | null) => {
    setSaving(true);
    setError(null);
    setMessage(null);
    try {
      await dataProvider.setTeamMembershipEnd(teamId, member.id, expiresAt);
      if (expiresAt) notify('lifecycle.membership.saved', { type: 'success', messageArgs: { name: member.name, date: formatLongDate(expiresAt, locale) } });
      else notify('lifecycle.membership.cleared', { type: 'success', messageArgs: { name: member.name } });
      onSaved();
    } catch (failure) {
      const fields = fieldErrors(failure);
      if (fields?.expires_at) setError([fields.expires_at].flat().join(' '));
      else {
        const text = errorMessage(failure);
        setMessage(translate(text, { _: text }));
      }
      setSaving(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const expiresAt = endOfDayIso(date);
    if (!expiresAt) {
      setError(translate('lifecycle.membership.choose_date'));
      return;
    }
    void save(expiresAt);
  };

  return (
    <Dialog open onClose={saving ? undefined : onClose} fullWidth maxWidth="xs" aria-labelledby="membership-end-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="membership-end-title">{translate('lifecycle.membership.title', { name: member.name })}</DialogTitle>
        <DialogContent>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {translate('lifecycle.membership.intro', { name: member.name })}
          </Typography>
          {message && (
            <Alert severity="error" sx={{ mb: 1 }}>
              {message}
            </Alert>
          )}
          <TextField
            autoFocus
            type="date"
            name="expires_at"
            label={translate('lifecycle.membership.date')}
            value={date}
            onChange={(event) => {
              setDate(event.target.value);
              setError(null);
            }}
            error={!!error}
            helperText={error ?? translate('lifecycle.membership.date_hint')}
            slotProps={{ inputLabel: { shrink: true } }}
            fullWidth
            margin="dense"
          />
        </DialogContent>
        <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
          {current && (
            <Button onClick={() => void save(null)} disabled={saving} sx={{ mr: 'auto' }}>
              {translate('lifecycle.membership.clear')}
            </Button>
          )}
          <Button onClick={onClose} disabled={saving}>
            {translate('app.action.cancel')}
          </Button>
          <Button type="submit" variant="contained" disabled={saving}>
            {translate('lifecycle.membership.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};
