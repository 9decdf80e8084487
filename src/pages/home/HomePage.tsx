import DevicesOtherOutlinedIcon from '@mui/icons-material/DevicesOtherOutlined';
import GroupsOutlinedIcon from '@mui/icons-material/GroupsOutlined';
import WorkspacesOutlinedIcon from '@mui/icons-material/WorkspacesOutlined';
import {
  Box,
  Button,
  Card,
  CardActions,
  CardContent,
  CardHeader,
  List,
  ListItem,
  ListItemButton,
  ListItemText,
  Typography,
} from '@mui/material';
import { Link } from 'react-router-dom';
import { memo, type ReactNode } from 'react';
import { Title, useTranslate } from 'react-admin';
import { fullName } from '../../authProvider';
import { EmptyState } from '../../components/EmptyState';
import { RoleChip } from '../../components/RoleChip';
import { useCurrentUser, usePendingRequestsCount } from '../../hooks';
import { ResponsiveColumns } from '../../layout/ResponsiveColumns';
import { HomeNodes } from '../../resources/nodes/HomeNodes';
import { AddNodeButton } from '../../resources/nodes/nodeParts';
import { EndingSoonBanner } from './EndingSoonBanner';
import { NearLimitWorkspaces } from './NearLimitWorkspaces';
import { PendingRequestsAlert } from './PendingRequestsAlert';
import { requestObject } from '../../utils/requestObject';

const HomeCard = ({
  title,
  icon,
  children,
  actions,
}: {
  title: string;
  icon: ReactNode;
  children: ReactNode;
  actions?: ReactNode;
}) => {
  const translate = useTranslate();
  const id = `home-card-${title.replace(/\W+/g, '-')}`;
  return (
    <Card component="section" aria-labelledby={id} sx={{ height: '100%' }}>
      <CardHeader
        avatar={icon}
        title={
          <Typography id={id} variant="h6" component="h2">
            {translate(title)}
          </Typography>
        }
        sx={{ pb: 0, '& .MuiCardHeader-avatar svg': { color: 'primary.main' } }}
      />
      <CardContent>{children}</CardContent>
      {actions && <CardActions sx={{ px: 2, pb: 2, flexWrap: 'wrap', gap: 1 }}>{actions}</CardActions>}
    </Card>
  );
};

/**
 * The dashboard (/): pending-requests alert and the user's workspaces, nodes and teams.
 * Memoised, as the app bar and the menu are: react-admin renders its layout again as it starts.
 */
export const HomePage = memo(function HomePage() {
  const translate = useTranslate();
  const user = useCurrentUser();
  const pending = usePendingRequestsCount();
  if (!user) return null;
  const workspaces = user.workspaces ?? [];
  const teams = user.teams ?? [];
  // Asked for, not decided yet: shown with the teams, so that a person waiting for a team sees
  // it is on its way rather than "no team".
  const pendingTeams = (user.requests ?? []).filter(
    (request) => request.status === 'Pending' && (request.type === 'JoinTeam' || request.type === 'CreateTeam'),
  );

  return (
    <Box sx={{ py: 2 }}>
      <Title title="home.title" />
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {translate('home.welcome', { name: fullName(user) })}
      </Typography>
      <PendingRequestsAlert count={pending} />
      <EndingSoonBanner user={user} />
      <NearLimitWorkspaces enabled={workspaces.length > 0} />
      <ResponsiveColumns>
        <HomeCard title="home.workspaces.title" icon={<WorkspacesOutlinedIcon />}>
          {workspaces.length === 0 ? (
            <EmptyState title={translate('home.workspaces.empty')} body={translate('home.workspaces.later')} />
          ) : (
            <List dense disablePadding>
              {workspaces.map((workspace) => (
                <ListItem key={workspace.id} disablePadding secondaryAction={<RoleChip role={workspace.role} />}>
                  <ListItemButton component={Link} to={`/workspaces/${workspace.id}`}>
                    <ListItemText
                      primary={workspace.label || workspace.name}
                      secondary={workspace.team?.fullname || workspace.team?.name || workspace.namespace || undefined}
                    />
                  </ListItemButton>
                </ListItem>
              ))}
            </List>
          )}
          {teams.length > 0 && (
            <Box sx={{ mt: 2 }}>
              <Typography variant="body2" color="text.secondary">
                {translate('home.workspaces.via_team')}
              </Typography>
              {teams.map((team) => (
                <Button key={team.id} component={Link} to={`/teams/${encodeURIComponent(team.name)}`} size="small">
                  {team.fullname || team.name}
                </Button>
              ))}
            </Box>
          )}
        </HomeCard>
        <HomeCard
          title="home.nodes.title"
          icon={<DevicesOtherOutlinedIcon />}
          actions={
            <>
              <AddNodeButton />
              <Button component={Link} to="/nodes" variant="outlined" size="small">
                {translate('home.nodes.all')}
              </Button>
            </>
          }
        >
          <HomeNodes />
        </HomeCard>
        <HomeCard
          title="home.teams.title"
          icon={<GroupsOutlinedIcon />}
          actions={
            <>
              <Button component={Link} to="/team/registration" variant="contained" size="small">
                {translate('home.teams.create')}
              </Button>
              <Button component={Link} to="/team/join" variant="outlined" size="small">
                {translate('home.teams.join')}
              </Button>
            </>
          }
        >
          {teams.length === 0 && pendingTeams.length === 0 ? (
            <EmptyState title={translate('home.teams.empty')} body={translate('home.teams.later')} />
          ) : (
            <List dense disablePadding>
              {teams.map((team) => (
                <ListItem key={team.id} disablePadding secondaryAction={<RoleChip role={team.role} />}>
                  <ListItemButton component={Link} to={`/teams/${encodeURIComponent(team.name)}`}>
                    <ListItemText primary={team.fullname || team.name} secondary={team.shortname || undefined} />
                  </ListItemButton>
                </ListItem>
              ))}
              {pendingTeams.map((request) => (
                <ListItem key={`request-${request.id}`} sx={{ px: 2 }}>
                  <ListItemText
                    primary={requestObject(request)}
                    secondary={translate(request.type === 'CreateTeam' ? 'home.teams.pending_create' : 'home.teams.pending_join')}
                    slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } } }}
                  />
                </ListItem>
              ))}
            </List>
          )}
        </HomeCard>
      </ResponsiveColumns>
    </Box>
  );
});
