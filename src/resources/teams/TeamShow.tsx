import AddIcon from '@mui/icons-material/Add';
import {
  Alert,
  Button,
  Card,
  CardContent,
  Chip,
  Link as MuiLink,
  List,
  ListItem,
  ListItemButton,
  ListItemText,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableRow,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { Loading, Title, useDataProvider, useGetOne, useLocaleState, useTranslate } from 'react-admin';
import type { ConsoleDataProvider } from '../../dataProvider';
import { TeamQuota } from './TeamQuota';
import { Link, useParams } from 'react-router-dom';
import { EmptyState } from '../../components/EmptyState';
import { EnabledChip } from '../../components/EnabledChip';
import { RoleChip } from '../../components/RoleChip';
import { useCurrentUser, useJoinRequest } from '../../hooks';
import { ResponsiveColumns } from '../../layout/ResponsiveColumns';
import { NotFound } from '../../pages/NotFound';
import { WorkspaceCreateDialog } from '../workspaces/WorkspaceCreate';
import { TeamInvitations } from './TeamInvitations';
import { TeamMembers } from './TeamMembers';
import { TeamQuotaSums, TeamUsage } from './TeamUsage';
import type { TeamRecord } from './types';
import { isManagerRole } from '../../utils/roles';
import { formatLongDate } from '../../utils/dates';
import { RenewalButton } from '../requests/RenewalDialog';
import { ALERT_WITH_ACTION } from '../workspaces/ExpiryBanner';

const isManager = isManagerRole;

/** Where the team stands: suspended by the platform admins, ended (its review date passed), due for review, or active. */
const TeamStatusChip = ({ team }: { team: TeamRecord }) => {
  const translate = useTranslate();
  const [key, color] =
    team.enabled === false
      ? (['suspended', 'warning'] as const)
      : team.status === 'expired'
        ? (['expired', 'error'] as const)
        : team.status === 'expiring'
          ? (['expiring', 'warning'] as const)
          : (['active', 'success'] as const);
  return <Chip size="small" variant="outlined" color={color} label={translate(`lifecycle.team.status_${key}`)} />;
};

/**
 * /teams/:id (id or name; the sidebar links use the name): the team, its workspaces with
 * 'Create workspace' (owner/managers) or 'Request a workspace' (members), its users with role
 * and enabled badges (members and platform admins). Non-members see the public part and
 * 'Join this team', or 'Request pending'.
 */
export const TeamShow = () => {
  const { id } = useParams();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const user = useCurrentUser();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [creating, setCreating] = useState(false);
  const { join: requestToJoin, joining, asked } = useJoinRequest({
    joined: 'teams.joined',
    sent: 'teams.join_sent',
    error: 'teams.join_page.error',
  });
  const { data: team, isPending, error } = useGetOne<TeamRecord>('teams', { id: id as unknown as number }, { retry: false });

  if (isPending) return <Loading />;
  if (error || !team) return <NotFound titleKey="teams.not_found_title" messageKey="teams.not_found" />;

  const role = team.role ?? user?.teams?.find((item) => item.id === team.id)?.role ?? null;
  const member = team.member ?? !!role;
  const admin = !!user?.admin;
  // Platform admins who are not members see the team whole (and its admin page), not the
  // outsider's public part with 'Join this team'.
  const adminView = admin && !member;
  const suspended = team.enabled === false;
  const canCreate = isManager(role) || admin;
  const canManageMembers = isManager(role) || admin;
  const pending =
    asked ||
    team.pending_request?.status === 'Pending' ||
    (user?.requests ?? []).some(
      (request) => request.type === 'JoinTeam' && request.status === 'Pending' && request.object?.id === team.id,
    );
  const title = team.fullname || team.name;
  // Its owners and managers ask the platform admins for a new review date (admins renew at once).
  const mayRenew = (isManager(role) || admin) && !suspended;
  const ending = team.status === 'expiring' || team.status === 'expired';
  const renewal = <RenewalButton target={{ kind: 'team', id: team.id, name: title }} color="inherit" variant="outlined" size="small" />;
  const reviewDate = team.expires_at ? formatLongDate(team.expires_at, locale) : null;

  const join = () => {
    void requestToJoin(() => dataProvider.joinTeam({ team_id: team.id }));
  };

  const details: [string, React.ReactNode][] = [
    ['teams.fields.fullname', team.fullname],
    ['teams.fields.shortname', team.shortname],
    ['teams.fields.name', <code key="name">{team.name}</code>],
    ['teams.fields.affiliation', team.affiliation],
    ['teams.fields.country', team.country],
    [
      'teams.fields.url',
      team.url ? (
        <MuiLink key="url" href={team.url} target="_blank" rel="noopener noreferrer">
          {team.url}
        </MuiLink>
      ) : null,
    ],
    [
      'lifecycle.team.review_date',
      <Stack key="review" direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}>
        <span>{reviewDate ?? translate('lifecycle.team.none')}</span>
        {/* Before the warning time there is no banner: its button is here. */}
        {/* Without its icon: in a phone's narrow cell the words may then wrap under each other. */}
        {mayRenew && !ending && team.expires_at && <RenewalButton target={{ kind: 'team', id: team.id, name: title }} size="small" startIcon={null} sx={{ textAlign: 'left' }} />}
      </Stack>,
    ],
    ['lifecycle.team.status', <TeamStatusChip key="status" team={team} />],
  ];

  return (
    <Stack spacing={2} sx={{ py: 2 }}>
      <Title title={title} />
      {/* On a phone, the column keeps the role chip at its own width, under the title. */}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { xs: 'flex-start', sm: 'center' } }}>
        <Typography variant="h5" component="h1" sx={{ flexGrow: 1 }}>
          {title}
        </Typography>
        <RoleChip role={role} />
        {admin && (
          <Button component={Link} to={`/admin/teams/${team.id}`} variant="outlined">
            {translate('teamAdmin.admin_page')}
          </Button>
        )}
        {!member &&
          !adminView &&
          !suspended &&
          (pending ? (
            <Chip label={translate('requests.pending')} />
          ) : (
            <Button variant="contained" onClick={join} disabled={joining}>
              {translate('teams.join')}
            </Button>
          ))}
      </Stack>
      {suspended && <Alert severity="warning">{translate('teamAdmin.suspended_team')}</Alert>}
      {(member || admin) && !suspended && ending && reviewDate && (
        <Alert
          severity={team.status === 'expired' ? 'error' : 'warning'}
          action={mayRenew ? renewal : undefined}
          sx={ALERT_WITH_ACTION}
        >
          {translate(`lifecycle.team.${team.status}`, { date: reviewDate })}
        </Alert>
      )}
      {adminView ? (
        <Alert severity="info">{translate('teamAdmin.admin_notice')}</Alert>
      ) : (
        !member && !suspended && <Alert severity="info">{translate('teams.public_notice')}</Alert>
      )}

      <ResponsiveColumns>
        <Card component="section" aria-labelledby="team-details-title">
          <CardContent>
            <Typography id="team-details-title" variant="h6" component="h2" gutterBottom>
              {translate('teams.details')}
            </Typography>
            <Table size="small">
              <TableBody>
                {details.map(([label, value]) => (
                  <TableRow key={label}>
                    <TableCell component="th" scope="row" sx={{ color: 'text.secondary', width: '40%' }}>
                      {translate(label)}
                    </TableCell>
                    <TableCell sx={{ wordBreak: 'break-word' }}>{value || '—'}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </CardContent>
        </Card>

        <Card component="section" aria-labelledby="team-workspaces-title">
          <CardContent>
            {/* On a phone the button goes under the title, whole, rather than both wrapping beside each other. */}
            <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', columnGap: 2, rowGap: 1, mb: 1 }}>
              <Typography id="team-workspaces-title" variant="h6" component="h2" sx={{ flexGrow: 1 }}>
                {translate('teams.workspaces')}
              </Typography>
              {(member || admin) && (
                <Button size="small" variant="contained" startIcon={<AddIcon />} onClick={() => setCreating(true)} sx={{ whiteSpace: 'nowrap' }}>
                  {translate(canCreate ? 'workspaces.create' : 'workspaces.request')}
                </Button>
              )}
            </Stack>
            {(team.workspaces ?? []).length === 0 ? (
              <EmptyState title={translate('teams.no_workspaces')} />
            ) : (
              <List dense disablePadding aria-label={translate('teams.workspaces')}>
                {(team.workspaces ?? []).map((workspace) => (
                  <ListItem key={workspace.id} disablePadding>
                    <ListItemButton component={Link} to={`/workspaces/${workspace.id}`}>
                      <ListItemText primary={workspace.label || workspace.name} secondary={workspace.namespace || undefined} />
                    </ListItemButton>
                  </ListItem>
                ))}
              </List>
            )}
          </CardContent>
        </Card>

        {(member || admin) && <TeamQuota quota={team.quota} credit={team.credit} />}

        {/* `users` is always in the answer (empty for outsiders): the card is for members and admins. */}
        {(member || admin) && team.users && (
          <Card component="section" aria-labelledby="team-users-title">
            <CardContent>
              <Typography id="team-users-title" variant="h6" component="h2" gutterBottom>
                {translate('teams.users')}
              </Typography>
              {canManageMembers ? (
                <TeamMembers teamId={team.id} members={team.users} myRole={role} admin={admin} />
              ) : (
              <List dense disablePadding aria-label={translate('teams.users')}>
                {team.users.map((item) => (
                  <ListItem
                    key={item.id}
                    disableGutters
                    secondaryAction={
                      <Stack direction="row" spacing={0.5}>
                        <RoleChip role={item.pivot?.role} />
                        <EnabledChip enabled={item.enabled} />
                      </Stack>
                    }
                  >
                    <ListItemText
                      primary={item.name}
                      secondary={
                        item.pivot?.expires_at ? translate('lifecycle.membership.until', { date: formatLongDate(item.pivot.expires_at, locale) }) : undefined
                      }
                      sx={{ pr: 20 }}
                    />
                  </ListItem>
                ))}
              </List>
              )}
            </CardContent>
          </Card>
        )}

        {canManageMembers && !suspended && (
          <Card>
            <CardContent>
              <TeamInvitations team={team} myRole={role} admin={admin} />
            </CardContent>
          </Card>
        )}

        {(member || admin) && <TeamQuotaSums team={team} />}
        {(member || admin) && <TeamUsage team={team} />}
      </ResponsiveColumns>

      {(member || admin) && (
        <WorkspaceCreateDialog
          open={creating}
          team={team}
          canCreate={canCreate}
          onCancel={() => setCreating(false)}
          onDone={() => setCreating(false)}
        />
      )}
    </Stack>
  );
};
