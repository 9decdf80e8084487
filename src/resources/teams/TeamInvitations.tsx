import MailOutlineIcon from '@mui/icons-material/MailOutline';
import PersonAddAlt1Icon from '@mui/icons-material/PersonAddAlt1';
import {
  Alert,
  Button,
  Checkbox,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  FormGroup,
  FormLabel,
  List,
  ListItem,
  ListItemText,
  MenuItem,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useMemo, useState } from 'react';
import { Confirm, useDataProvider, useNotify, useTranslate } from 'react-admin';
import type { ConsoleDataProvider } from '../../dataProvider';
import { errorMessage, fieldErrors } from '../../httpClient';
import { formatDateTime } from '../../utils/dates';
import { ourRole } from '../../utils/roles';
import type { Invitation, TeamMemberRole as TeamRole } from './types';

// The team page's invitations, for the team's owners and managers and platform
// admins: the pending invitations (GET /api/tenants/{id}/invitations) with Resend and Revoke
// (confirmed), and the Invite dialog (email, a role no higher than one's own, workspaces). An
// invitation whose inviter may no longer give its role is marked: resending it makes the
// resender its inviter. A spent invitation budget shows the server's message naming it.

const ROLES: TeamRole[] = ['member', 'manager', 'owner'];
const RANK: Record<TeamRole, number> = { member: 0, manager: 1, owner: 2 };

const useInvitationCalls = (teamId: number) => {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  return useMemo(() => {
    return {
      list: () => dataProvider.getTeamInvitations(teamId),
      invite: (body: { email: string; role: TeamRole; workspace_ids: number[] }) => dataProvider.inviteToTeam(teamId, body),
      resend: (id: number) => dataProvider.resendTeamInvitation(teamId, id),
      revoke: (id: number) => dataProvider.revokeTeamInvitation(teamId, id),
    };
  }, [dataProvider, teamId]);
};

export const TeamInvitations = ({
  team,
  myRole,
  admin,
}: {
  team: { id: number; name: string; fullname?: string | null; workspaces?: { id: number; name: string; label?: string | null }[] };
  myRole: string | null;
  admin: boolean;
}) => {
  const translate = useTranslate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const calls = useInvitationCalls(team.id);
  const queryKey = ['invitations', team.id];
  const { data: invitations = [], isPending, error } = useQuery({ queryKey, queryFn: calls.list });
  const [inviting, setInviting] = useState(false);
  const [revoking, setRevoking] = useState<Invitation | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const reload = () => queryClient.invalidateQueries({ queryKey });

  const resend = async (invitation: Invitation) => {
    setBusy(invitation.id);
    try {
      await calls.resend(invitation.id);
      notify('invitations.resent', { type: 'success', messageArgs: { email: invitation.email } });
      await reload();
    } catch (failure) {
      notify(errorMessage(failure), { type: 'error' });
    } finally {
      setBusy(null);
    }
  };

  const revoke = async () => {
    if (!revoking) return;
    const invitation = revoking;
    setBusy(invitation.id);
    try {
      await calls.revoke(invitation.id);
      notify('invitations.revoked', { type: 'success' });
      await reload();
    } catch (failure) {
      notify(errorMessage(failure), { type: 'error' });
    } finally {
      setBusy(null);
      setRevoking(null);
    }
  };

  return (
    <Stack spacing={1} component="section" aria-labelledby="team-invitations-title">
      <Stack direction="row" sx={{ alignItems: 'center' }}>
        <Typography id="team-invitations-title" variant="h6" component="h2" sx={{ flexGrow: 1 }}>
          {translate('invitations.title')}
        </Typography>
        <Button size="small" variant="contained" startIcon={<PersonAddAlt1Icon />} onClick={() => setInviting(true)}>
          {translate('invitations.invite')}
        </Button>
      </Stack>
      {error ? (
        <Alert severity="error">{errorMessage(error)}</Alert>
      ) : isPending ? null : invitations.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {translate('invitations.none')}
        </Typography>
      ) : (
        <List dense disablePadding aria-label={translate('invitations.title')}>
          {invitations.map((invitation) => (
            <ListItem key={invitation.id} disableGutters sx={{ flexWrap: 'wrap', gap: 1 }}>
              <ListItemText
                sx={{ minWidth: 200, flex: '1 1 200px', overflowWrap: 'anywhere' }}
                primary={invitation.email}
                secondary={[
                  translate(`roles.${invitation.role}`, { _: invitation.role }),
                  ...invitation.workspaces.map((workspace) => workspace.label || workspace.name),
                  invitation.invited_by ? translate('invitations.invited_by', { name: invitation.invited_by.name }) : null,
                  invitation.expired ? null : translate('invitations.expires', { date: formatDateTime(invitation.expires_at) }),
                ]
                  .filter(Boolean)
                  .join(' · ')}
              />
              {invitation.expired && <Chip size="small" color="warning" label={translate('invitations.expired')} />}
              {invitation.inviter_can_grant === false && (
                <Tooltip title={translate('invitations.inviter_cannot_grant_hint')}>
                  <Chip size="small" color="warning" label={translate('invitations.inviter_cannot_grant')} />
                </Tooltip>
              )}
              <Button size="small" startIcon={<MailOutlineIcon />} disabled={busy === invitation.id} onClick={() => void resend(invitation)}>
                {translate('invitations.resend')}
              </Button>
              <Button size="small" color="error" disabled={busy === invitation.id} onClick={() => setRevoking(invitation)}>
                {translate('invitations.revoke')}
              </Button>
            </ListItem>
          ))}
        </List>
      )}
      <Confirm
        isOpen={revoking !== null}
        loading={busy !== null}
        title={translate('invitations.revoke_title', { email: revoking?.email ?? '' })}
        content={translate('invitations.revoke_content')}
        confirm="invitations.revoke"
        onConfirm={() => void revoke()}
        onClose={() => setRevoking(null)}
      />
      {inviting && (
        <InviteDialog
          team={team}
          ceiling={admin ? RANK.owner : RANK[(ourRole(myRole) as TeamRole | null) ?? 'member']}
          onClose={() => setInviting(false)}
          onInvite={async (body) => {
            const created = await calls.invite(body);
            notify('invitations.sent', { type: 'success', messageArgs: { email: created.email } });
            setInviting(false);
            await reload();
          }}
        />
      )}
    </Stack>
  );
};

const InviteDialog = ({
  team,
  ceiling,
  onClose,
  onInvite,
}: {
  team: { fullname?: string | null; name: string; workspaces?: { id: number; name: string; label?: string | null }[] };
  ceiling: number;
  onClose: () => void;
  onInvite: (body: { email: string; role: TeamRole; workspace_ids: number[] }) => Promise<void>;
}) => {
  const translate = useTranslate();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<TeamRole>('member');
  const [workspaces, setWorkspaces] = useState<number[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    setMessage(null);
    if (!/^\S+@\S+$/.test(email.trim())) {
      setErrors({ email: translate('app.validation.invalid_email') });
      return;
    }
    setSaving(true);
    try {
      await onInvite({ email: email.trim(), role, workspace_ids: workspaces });
    } catch (failure) {
      const fields = fieldErrors(failure);
      if (fields) setErrors(Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, [value].flat().join(' ')])));
      else setMessage(errorMessage(failure));
      setSaving(false);
    }
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="invite-dialog-title">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <DialogTitle id="invite-dialog-title">{translate('invitations.dialog.title', { team: team.fullname || team.name })}</DialogTitle>
        <DialogContent>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {translate('invitations.dialog.intro')}
          </Typography>
          {message && (
            <Alert severity="error" sx={{ mb: 1 }}>
              {message}
            </Alert>
          )}
          <TextField
            autoFocus
            name="email"
            type="email"
            label={translate('invitations.dialog.email')}
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            error={!!errors.email}
            helperText={errors.email}
            fullWidth
            required
            margin="dense"
          />
          <TextField
            select
            name="role"
            label={translate('invitations.dialog.role')}
            value={role}
            onChange={(event) => setRole(event.target.value as TeamRole)}
            error={!!errors.role}
            helperText={errors.role}
            fullWidth
            margin="dense"
          >
            {ROLES.filter((item) => RANK[item] <= ceiling).map((item) => (
              <MenuItem key={item} value={item}>
                {translate(`roles.${item}`)}
              </MenuItem>
            ))}
          </TextField>
          {(team.workspaces ?? []).length > 0 && (
            <FormGroup sx={{ mt: 1 }}>
              <FormLabel component="legend">{translate('invitations.dialog.workspaces')}</FormLabel>
              {(team.workspaces ?? []).map((workspace) => (
                <FormControlLabel
                  key={workspace.id}
                  control={
                    <Checkbox
                      checked={workspaces.includes(workspace.id)}
                      onChange={(event) =>
                        setWorkspaces((old) => (event.target.checked ? [...old, workspace.id] : old.filter((id) => id !== workspace.id)))
                      }
                    />
                  }
                  label={workspace.label || workspace.name}
                />
              ))}
              {errors.workspace_ids && <Alert severity="error">{errors.workspace_ids}</Alert>}
            </FormGroup>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{translate('app.action.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={saving}>
            {translate('invitations.dialog.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};
