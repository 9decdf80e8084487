import {
  Box,
  Button,
  Checkbox,
  IconButton,
  MenuItem,
  Select,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
  type Theme,
} from '@mui/material';
import { visuallyHidden } from '@mui/utils';
import EventOutlinedIcon from '@mui/icons-material/EventOutlined';
import PersonRemoveOutlinedIcon from '@mui/icons-material/PersonRemoveOutlined';
import { useState } from 'react';
import { useDataProvider, useLocaleState, useNotify, useRefresh, useTranslate } from 'react-admin';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EnabledChip } from '../../components/EnabledChip';
import type { ConsoleDataProvider } from '../../dataProvider';
import { errorMessage } from '../../httpClient';
import { ourRole } from '../../utils/roles';
import { formatLongDate } from '../../utils/dates';
import { MembershipEndDialog } from './MembershipEndDialog';
import type { TeamMemberRole as TeamRole } from './types';

// The member management of /teams/{id} for the team's owners and managers and platform admins
// (PATCH/DELETE /api/tenants/{id}/users/{userId}, POST .../users/bulk): a role select per
// member, removal with a confirmation, and row selection for removing several at once. The
// server has the last word (a team keeps an owner, a manager gives no role above their own);
// the select only offers what the server would accept. Each membership's end shows under the
// name ('until 30 June 2027'); the calendar button sets, changes or clears it.

const ROLES: TeamRole[] = ['member', 'manager', 'owner'];
const RANK: Record<TeamRole, number> = { member: 0, manager: 1, owner: 2 };

export interface TeamMember {
  id: number;
  name: string;
  enabled?: boolean;
  pivot?: { role?: string | null; expires_at?: string | null };
}

/**
 * Below `sm` each row wraps onto two lines (checkbox and name, then role, state and removal),
 * so that the role select and the remove button stay on screen instead of beyond a sideways
 * scroll; the table keeps its semantics.
 */
const PHONE_ROWS = (theme: Theme) => ({
  // In half of a desktop page, cells closer together keep every column in view.
  [theme.breakpoints.up('sm')]: { '& td, & th': { px: 1 } },
  [theme.breakpoints.down('sm')]: {
    '& tr': { display: 'flex', flexWrap: 'wrap', alignItems: 'center', borderBottom: 1, borderColor: 'divider', py: 0.5 },
    '& td': { borderBottom: 0, py: 0.25 },
    // Each row's controls say whose they are; the column heads would stand over nothing.
    '& thead': { display: 'none' },
    // The name fills the first line beside the checkbox; the rest shares the second.
    '& td:nth-of-type(2)': { flex: '1 1 calc(100% - 64px)' },
    '& td:last-of-type': { ml: 'auto' },
  },
});

const roleOf = (member: TeamMember): TeamRole => (ourRole(member.pivot?.role) as TeamRole | null) ?? 'member';

export const TeamMembers = ({ teamId, members, myRole, admin }: { teamId: number; members: TeamMember[]; myRole: string | null; admin: boolean }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const notify = useNotify();
  const refresh = useRefresh();
  const [ending, setEnding] = useState<TeamMember | null>(null);
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [selected, setSelected] = useState<number[]>([]);
  const [removing, setRemoving] = useState<TeamMember | 'selected' | null>(null);
  const [busy, setBusy] = useState(false);
  const ceiling = admin ? RANK.owner : RANK[(ourRole(myRole) as TeamRole | null) ?? 'member'];
  const mayTouch = (member: TeamMember) => RANK[roleOf(member)] <= ceiling;
  // A team keeps an owner: the server refuses to change the only owner's role, so the select
  // is not offered for her (often the person looking), with the reason in its tooltip.
  const owners = members.filter((member) => roleOf(member) === 'owner').length;
  const soleOwner = (member: TeamMember) => owners === 1 && roleOf(member) === 'owner';

  const changeRole = async (member: TeamMember, role: TeamRole) => {
    try {
      await dataProvider.changeTeamMemberRole(teamId, member.id, role);
      notify('teamAdmin.manage.role_changed', { type: 'success', messageArgs: { name: member.name, role: translate(`roles.${role}`, { _: role }) } });
      refresh();
    } catch (error) {
      notify(errorMessage(error), { type: 'error' });
    }
  };

  const remove = async () => {
    if (!removing) return;
    setBusy(true);
    try {
      if (removing === 'selected') {
        const answer = await dataProvider.removeTeamMembers(teamId, selected);
        const refused = answer.results.filter((result) => result.status !== 'done');
        const names = new Map(members.map((member) => [member.id, member.name]));
        notify(
          [
            translate('teamAdmin.manage.bulk_done', { done: answer.totals.done, refused: refused.length }),
            ...refused.map((result) => translate('teamAdmin.manage.bulk_refused', { name: names.get(result.id) ?? result.id, message: result.message ?? '' })),
          ].join(' '),
          { type: refused.length ? 'warning' : 'success' },
        );
        setSelected([]);
      } else {
        await dataProvider.removeTeamMember(teamId, removing.id);
        notify('teamAdmin.manage.removed', { type: 'success', messageArgs: { name: removing.name } });
        setSelected((current) => current.filter((id) => id !== (removing as TeamMember).id));
      }
      refresh();
    } catch (error) {
      notify(errorMessage(error), { type: 'error' });
    }
    setBusy(false);
    setRemoving(null);
  };

  const toggle = (id: number) => setSelected((current) => (current.includes(id) ? current.filter((item) => item !== id) : [...current, id]));
  const selectable = members.filter(mayTouch);
  const allSelected = selectable.length > 0 && selectable.every((member) => selected.includes(member.id));
  const selectedNames = members.filter((member) => selected.includes(member.id)).map((member) => member.name);

  return (
    <Box>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minHeight: 40 }}>
        <Checkbox
          checked={allSelected}
          indeterminate={!allSelected && selected.length > 0}
          onChange={() => setSelected(allSelected ? [] : selectable.map((member) => member.id))}
          slotProps={{ input: { id: 'team-members-select-all', 'aria-label': translate('teamAdmin.manage.select_all') } }}
        />
        {/* Said beside the box too: alone above a phone's stacked rows, a bare checkbox says nothing. */}
        {selected.length === 0 && selectable.length > 0 && (
          <Typography component="label" htmlFor="team-members-select-all" variant="body2" color="text.secondary" sx={{ cursor: 'pointer' }}>
            {translate('teamAdmin.manage.select_all')}
          </Typography>
        )}
        {selected.length > 0 && (
          <>
            <Typography variant="body2">{translate('teamAdmin.manage.selected', { smart_count: selected.length, count: selected.length })}</Typography>
            <Button size="small" color="error" onClick={() => setRemoving('selected')}>
              {translate('teamAdmin.manage.remove_selected')}
            </Button>
          </>
        )}
      </Stack>
      <Box sx={{ overflowX: 'auto' }}>
        <Table size="small" aria-label={translate('teams.users')} sx={PHONE_ROWS}>
          <TableHead>
            <TableRow>
              <TableCell padding="checkbox">
                <Box component="span" sx={visuallyHidden}>
                  {translate('teamAdmin.manage.column_select')}
                </Box>
              </TableCell>
              <TableCell>{translate('teamAdmin.manage.column_name')}</TableCell>
              <TableCell>{translate('teamAdmin.manage.column_role')}</TableCell>
              <TableCell>{translate('teamAdmin.manage.column_status')}</TableCell>
              <TableCell align="right">
                <Box component="span" sx={visuallyHidden}>
                  {translate('teamAdmin.manage.column_actions')}
                </Box>
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {members.map((member) => {
              const touchable = mayTouch(member);
              return (
                <TableRow key={member.id}>
                  <TableCell padding="checkbox">
                    <Checkbox
                      checked={selected.includes(member.id)}
                      disabled={!touchable}
                      onChange={() => toggle(member.id)}
                      slotProps={{ input: { 'aria-label': translate('teamAdmin.manage.select', { name: member.name }) } }}
                    />
                  </TableCell>
                  <TableCell>
                    {member.name}
                    {member.pivot?.expires_at && (
                      <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                        {translate('lifecycle.membership.until', { date: formatLongDate(member.pivot.expires_at, locale) })}
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell>
                    <Select
                      size="small"
                      value={roleOf(member)}
                      disabled={!touchable || soleOwner(member)}
                      onChange={(event) => void changeRole(member, event.target.value as TeamRole)}
                      inputProps={{ 'aria-label': translate('teamAdmin.manage.role_label', { name: member.name }) }}
                      SelectDisplayProps={soleOwner(member) ? { 'aria-describedby': `sole-owner-${member.id}` } : undefined}
                    >
                      {ROLES.map((role) => (
                        <MenuItem key={role} value={role} disabled={RANK[role] > ceiling}>
                          {translate(`roles.${role}`, { _: role })}
                        </MenuItem>
                      ))}
                    </Select>
                    {/* Written out rather than in a tooltip: a disabled select takes no focus
                        or touch, so a tooltip would reach neither keyboards nor phones. */}
                    {soleOwner(member) && (
                      <Typography id={`sole-owner-${member.id}`} variant="caption" color="text.secondary" sx={{ display: 'block', maxWidth: 260, mt: 0.5 }}>
                        {translate('teamAdmin.manage.sole_owner')}
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell>
                    <EnabledChip enabled={member.enabled} />
                  </TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    <Tooltip title={translate('lifecycle.membership.button_label', { name: member.name })}>
                      <span>
                        <IconButton
                          size="small"
                          disabled={!touchable}
                          aria-label={translate('lifecycle.membership.button_label', { name: member.name })}
                          onClick={() => setEnding(member)}
                        >
                          <EventOutlinedIcon fontSize="small" />
                        </IconButton>
                      </span>
                    </Tooltip>
                    <Tooltip title={translate('teamAdmin.manage.remove')}>
                      <span>
                        <IconButton
                          size="small"
                          disabled={!touchable}
                          aria-label={translate('teamAdmin.manage.remove_label', { name: member.name })}
                          onClick={() => setRemoving(member)}
                        >
                          <PersonRemoveOutlinedIcon fontSize="small" />
                        </IconButton>
                      </span>
                    </Tooltip>
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </Box>
      <ConfirmDialog
        destructive
        isOpen={removing !== null}
        loading={busy}
        title={
          removing === 'selected'
            ? translate('teamAdmin.manage.bulk_title', { smart_count: selected.length, count: selected.length })
            : translate('teamAdmin.manage.remove_title', { name: removing?.name ?? '' })
        }
        content={
          removing === 'selected'
            ? translate('teamAdmin.manage.bulk_content', { names: selectedNames.join(', ') })
            : translate('teamAdmin.manage.remove_content', { name: removing?.name ?? '' })
        }
        confirm="teamAdmin.manage.remove"
        onConfirm={() => void remove()}
        onClose={() => setRemoving(null)}
      />
      {ending && (
        <MembershipEndDialog
          teamId={teamId}
          member={ending}
          onClose={() => setEnding(null)}
          onSaved={() => {
            setEnding(null);
            refresh();
          }}
        />
      )}
    </Box>
  );
};
