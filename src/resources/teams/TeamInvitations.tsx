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
import { useDataProvider, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import type { ConsoleDataProvider } from '../../dataProvider';
import { errorMessage, fieldErrors } from '../../httpClient';
import { endOfDayIso, formatDateTime, formatLongDate } from '../../utils/dates';
import { ourRole } from '../../utils/roles';
import type { Invitation, InvitationBatchAnswer, InvitationBatchRequest, InvitationOutcome, InvitationRequest, TeamMemberRole as TeamRole } from './types';

// The team page's invitations, for the team's owners and managers and platform
// admins: the pending invitations (GET /api/tenants/{id}/invitations) with Resend and Revoke
// (confirmed), and the Invite dialog (one address or many at once, pasted from a class list,
// a role no higher than one's own, workspaces, when the memberships end). An
// invitation whose inviter may no longer give its role is marked: resending it makes the
// resender its inviter. A spent invitation budget shows the server's message naming it; with
// many addresses, the dialog then says what happened to each.

const ROLES: TeamRole[] = ['member', 'manager', 'owner'];
const RANK: Record<TeamRole, number> = { member: 0, manager: 1, owner: 2 };

const useInvitationCalls = (teamId: number) => {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  return useMemo(() => {
    return {
      list: () => dataProvider.getTeamInvitations(teamId),
      invite: (body: InvitationRequest) => dataProvider.inviteToTeam(teamId, body),
      inviteMany: (body: InvitationBatchRequest) => dataProvider.inviteManyToTeam(teamId, body),
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
  const [locale] = useLocaleState();
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
                  invitation.membership_expires_at
                    ? translate('invitations.membership_until', { date: formatLongDate(invitation.membership_expires_at, locale) })
                    : null,
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
      <ConfirmDialog
        destructive
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
          onInviteMany={async (body) => {
            const answer = await calls.inviteMany(body);
            // The dialog stays to say what happened to each address; the list shows the new ones.
            await reload();
            return answer;
          }}
        />
      )}
    </Stack>
  );
};

/** The largest number of addresses one call takes (the server's limit). */
export const MAX_ADDRESSES = 200;

/**
 * The addresses typed or pasted into the field: split on commas, semicolons, spaces and new
 * lines, each once (letter case aside), in the order given.
 */
export const parseAddresses = (text: string): string[] => {
  const seen = new Set<string>();
  const addresses: string[] = [];
  for (const part of text.split(/[\s,;]+/)) {
    const address = part.trim();
    if (!address || seen.has(address.toLowerCase())) continue;
    seen.add(address.toLowerCase());
    addresses.push(address);
  }
  return addresses;
};

/** What the invitations share, whatever the number of addresses. */
type InvitationTerms = { role: TeamRole; workspace_ids: number[]; membership_expires_at?: string };

const OUTCOME_COLORS: Record<InvitationOutcome, 'success' | 'default' | 'warning' | 'error'> = {
  created: 'success',
  already_member: 'default',
  already_invited: 'default',
  invalid: 'error',
  limited: 'warning',
};

/** After many addresses: how many were invited, and what happened to each. */
const BatchResults = ({ answer }: { answer: InvitationBatchAnswer }) => {
  const translate = useTranslate();
  const notSent = answer.totals.requested - answer.totals.created;
  return (
    <Stack spacing={1}>
      <Alert severity={notSent === 0 ? 'success' : answer.totals.created === 0 ? 'error' : 'warning'}>
        {translate('invitations.batch.summary', {
          created: translate('invitations.batch.created', { smart_count: answer.totals.created }),
          refused: translate('invitations.batch.refused', { smart_count: notSent }),
        })}
        {answer.retry_after !== null &&
          // In minutes rounded up, as the server's own limit messages say it.
          ` ${answer.retry_after < 60 ? translate('invitations.batch.limited_soon') : translate('invitations.batch.limited', { smart_count: Math.ceil(answer.retry_after / 60) })}`}
      </Alert>
      <List dense disablePadding aria-label={translate('invitations.batch.list')} sx={{ maxHeight: 320, overflowY: 'auto' }}>
        {answer.results.map((result) => (
          <ListItem key={result.email} disableGutters sx={{ flexWrap: 'wrap', columnGap: 1 }}>
            <ListItemText
              sx={{ flex: '1 1 200px', overflowWrap: 'anywhere' }}
              primary={result.email}
              secondary={result.status === 'created' ? null : result.message ? translate(result.message, { _: result.message }) : null}
            />
            <Chip size="small" color={OUTCOME_COLORS[result.status]} label={translate(`invitations.batch.status.${result.status}`)} />
          </ListItem>
        ))}
      </List>
    </Stack>
  );
};

const InviteDialog = ({
  team,
  ceiling,
  onClose,
  onInvite,
  onInviteMany,
}: {
  team: { fullname?: string | null; name: string; workspaces?: { id: number; name: string; label?: string | null }[] };
  ceiling: number;
  onClose: () => void;
  onInvite: (body: InvitationTerms & { email: string }) => Promise<void>;
  onInviteMany: (body: InvitationTerms & { emails: string[] }) => Promise<InvitationBatchAnswer>;
}) => {
  const translate = useTranslate();
  const [emails, setEmails] = useState('');
  const [role, setRole] = useState<TeamRole>('member');
  const [workspaces, setWorkspaces] = useState<number[]>([]);
  const [membershipEnd, setMembershipEnd] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [answer, setAnswer] = useState<InvitationBatchAnswer | null>(null);
  const addresses = parseAddresses(emails);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    setMessage(null);
    const found: Record<string, string> = {};
    if (addresses.length === 0 || (addresses.length === 1 && !/^\S+@\S+$/.test(addresses[0]!))) found.email = translate('app.validation.invalid_email');
    if (addresses.length > MAX_ADDRESSES) found.email = translate('invitations.dialog.too_many', { max: MAX_ADDRESSES });
    const ends = membershipEnd ? endOfDayIso(membershipEnd) : null;
    if (membershipEnd && !ends) found.membership_expires_at = translate('lifecycle.membership.choose_date');
    if (Object.keys(found).length > 0) {
      setErrors(found);
      return;
    }
    const terms: InvitationTerms = { role, workspace_ids: workspaces, ...(ends ? { membership_expires_at: ends } : {}) };
    setSaving(true);
    try {
      if (addresses.length === 1) await onInvite({ email: addresses[0]!, ...terms });
      else {
        setAnswer(await onInviteMany({ emails: addresses, ...terms }));
        setSaving(false);
      }
    } catch (failure) {
      const fields = fieldErrors(failure);
      if (fields) {
        // `emails` and `emails.N` (the many-address call's) show under the one address field.
        setErrors(
          Object.entries(fields).reduce<Record<string, string>>((shown, [key, value]) => {
            const field = key === 'emails' || key.startsWith('emails.') ? 'email' : key;
            const text = [value].flat().join(' ');
            return { ...shown, [field]: shown[field] ? `${shown[field]} ${text}` : text };
          }, {}),
        );
      } else setMessage(errorMessage(failure));
      setSaving(false);
    }
  };

  const title = <DialogTitle id="invite-dialog-title">{translate('invitations.dialog.title', { team: team.fullname || team.name })}</DialogTitle>;
  if (answer) {
    return (
      <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="invite-dialog-title">
        {title}
        <DialogContent>
          <BatchResults answer={answer} />
        </DialogContent>
        <DialogActions>
          <Button variant="contained" onClick={onClose}>
            {translate('app.action.close')}
          </Button>
        </DialogActions>
      </Dialog>
    );
  }

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="invite-dialog-title">
      <form onSubmit={(event) => void submit(event)} noValidate>
        {title}
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
            label={translate('invitations.dialog.email')}
            value={emails}
            onChange={(event) => {
              setEmails(event.target.value);
              setErrors(({ email: _gone, ...rest }) => rest);
            }}
            error={!!errors.email}
            helperText={
              errors.email ??
              (addresses.length > 1
                ? translate('invitations.dialog.count', { smart_count: addresses.length, max: MAX_ADDRESSES })
                : translate('invitations.dialog.email_hint'))
            }
            id="invite-emails"
            slotProps={{ htmlInput: { autoCapitalize: 'none', spellCheck: false } }}
            multiline
            minRows={1}
            maxRows={8}
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
          <TextField
            type="date"
            name="membership_expires_at"
            label={translate('invitations.dialog.membership_end')}
            value={membershipEnd}
            onChange={(event) => {
              setMembershipEnd(event.target.value);
              setErrors(({ membership_expires_at: _gone, ...rest }) => rest);
            }}
            error={!!errors.membership_expires_at}
            helperText={errors.membership_expires_at ?? translate('invitations.dialog.membership_end_hint')}
            slotProps={{ inputLabel: { shrink: true } }}
            fullWidth
            margin="dense"
          />
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
            {translate('invitations.dialog.submit', { smart_count: Math.max(1, addresses.length) })}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};
