import AccountCircleIcon from '@mui/icons-material/AccountCircle';
import DashboardOutlinedIcon from '@mui/icons-material/DashboardOutlined';
import DnsOutlinedIcon from '@mui/icons-material/DnsOutlined';
import EventBusyOutlinedIcon from '@mui/icons-material/EventBusyOutlined';
import AssignmentOutlinedIcon from '@mui/icons-material/AssignmentOutlined';
import GroupsOutlinedIcon from '@mui/icons-material/GroupsOutlined';
import QueryStatsOutlinedIcon from '@mui/icons-material/QueryStatsOutlined';
import HistoryOutlinedIcon from '@mui/icons-material/HistoryOutlined';
import GavelOutlinedIcon from '@mui/icons-material/GavelOutlined';
import HomeOutlinedIcon from '@mui/icons-material/HomeOutlined';
import PeopleOutlineIcon from '@mui/icons-material/PeopleOutline';
import TuneOutlinedIcon from '@mui/icons-material/TuneOutlined';
import WorkspacesOutlinedIcon from '@mui/icons-material/WorkspacesOutlined';
import { Badge, Box, Divider, ListSubheader } from '@mui/material';
import { memo, type ReactElement, type ReactNode } from 'react';
import { Menu as RaMenu, useSidebarState, useTranslate } from 'react-admin';
import { useLocation } from 'react-router-dom';
import { fullName } from '../authProvider';
import { useCurrentUser, useOwnPendingRequestsCount, usePendingRequestsCount } from '../hooks';
import nodes from '../resources/nodes';
import tokens from '../resources/tokens';
import { WorkspacesTree } from './WorkspacesTree';

/** An icon with a count badge when count > 0. */
const Counted = ({ count, icon }: { count: number; icon: ReactElement }) =>
  count > 0 ? (
    <Badge badgeContent={count} color="error" max={99}>
      {icon}
    </Badge>
  ) : (
    icon
  );

const ADMIN_ENTRIES = [
  { to: '/admin', label: 'dashboard.menu', icon: <DashboardOutlinedIcon />, exact: true },
  { to: '/admin/teams', label: 'app.menu.admin_teams', icon: <GroupsOutlinedIcon /> },
  { to: '/admin/workspaces', label: 'app.menu.admin_workspaces', icon: <WorkspacesOutlinedIcon /> },
  { to: '/admin/users', label: 'app.menu.admin_users', icon: <PeopleOutlineIcon /> },
  { to: '/admin/nodes', label: 'app.menu.admin_nodes', icon: <DnsOutlinedIcon /> },
  { to: '/admin/activity', label: 'app.menu.admin_activity', icon: <HistoryOutlinedIcon /> },
  { to: '/admin/usage', label: 'app.menu.admin_usage', icon: <QueryStatsOutlinedIcon /> },
  { to: '/admin/policy', label: 'app.menu.admin_policy', icon: <GavelOutlinedIcon /> },
  { to: '/admin/lifecycle', label: 'app.menu.admin_lifecycle', icon: <EventBusyOutlinedIcon /> },
  { to: '/admin/settings', label: 'app.menu.admin_settings', icon: <TuneOutlinedIcon /> },
];

/**
 * react-admin marks an entry active on every path under its own, so /admin (the overview) would
 * look selected on /admin/teams too: an exact entry off its own page wears the plain look.
 */
const NOT_ACTIVE = {
  '&.RaMenuItemLink-active': { borderLeft: '3px solid transparent', backgroundColor: 'transparent', fontWeight: 'inherit', color: 'text.secondary' },
};

/**
 * A titled section of the sidebar: a divider, the title while the sidebar is open, the entries.
 * The menu is a `role="menu"` list, where a labelled group is the valid way to gather items under
 * a title (a heading or a navigation block there is not); the group carries its name itself, so
 * that it keeps it when the collapsed sidebar hides the title.
 */
const MenuSection = ({ title, children }: { title: string; children: ReactNode }) => {
  const translate = useTranslate();
  const [sidebarOpen] = useSidebarState();
  const label = translate(title);
  return (
    <>
      <Divider sx={{ my: 1 }} />
      <Box role="group" aria-label={label}>
        {sidebarOpen && (
          <ListSubheader component="div" aria-hidden sx={{ bgcolor: 'transparent', lineHeight: 2, typography: 'overline', color: 'text.secondary' }}>
            {label}
          </ListSubheader>
        )}
        {children}
      </Box>
    </>
  );
};

/**
 * The sidebar (280 px, theme.sidebar.width; collapsible, a drawer on small screens).
 * Only screens that exist get an entry: the extension points below say where the next issues
 * plug in theirs (the product's sidebar order). Memoised, as the app bar is.
 */
export const Menu = memo(function Menu() {
  const translate = useTranslate();
  const user = useCurrentUser();
  const toDecide = usePendingRequestsCount();
  const pending = useOwnPendingRequestsCount();
  const name = user ? fullName(user) : translate('app.menu.profile');
  const requestsLabel = translate('app.menu.requests');
  const { pathname } = useLocation();

  return (
    <RaMenu>
      <RaMenu.DashboardItem primaryText="app.menu.home" leftIcon={<HomeOutlinedIcon />} />

      <RaMenu.Item
        to="/requests"
        primaryText="app.menu.requests"
        aria-label={
          toDecide > 0 ? `${requestsLabel}, ${translate('app.menu.pending_requests', { smart_count: toDecide })}` : requestsLabel
        }
        leftIcon={<Counted count={toDecide} icon={<AssignmentOutlinedIcon />} />}
      />

      <WorkspacesTree />

      <MenuSection title="app.menu.resources">
        <RaMenu.ResourceItem name={nodes.name} />
        <RaMenu.ResourceItem name={tokens.name} />
      </MenuSection>

      {user?.admin && (
        <MenuSection title="app.menu.admin">
          {ADMIN_ENTRIES.map((entry) => (
            <RaMenu.Item
              key={entry.to}
              to={entry.to}
              primaryText={entry.label}
              leftIcon={entry.icon}
              sx={'exact' in entry && pathname !== entry.to ? NOT_ACTIVE : undefined}
            />
          ))}
        </MenuSection>
      )}

      <Divider sx={{ my: 1 }} />
      <RaMenu.Item
        to="/profile"
        primaryText={name}
        aria-label={pending > 0 ? `${name}, ${translate('app.menu.pending_requests', { smart_count: pending })}` : name}
        leftIcon={<Counted count={pending} icon={<AccountCircleIcon />} />}
      />
    </RaMenu>
  );
});
