import AccountCircleIcon from '@mui/icons-material/AccountCircle';
import HomeOutlinedIcon from '@mui/icons-material/HomeOutlined';
import { Badge, Divider } from '@mui/material';
import { Menu as RaMenu, useTranslate } from 'react-admin';
import { fullName } from '../authProvider';
import { useCurrentUser, usePendingRequestsCount } from '../hooks';
import tokens from '../resources/tokens';

/**
 * The sidebar (280 px, theme.sidebar.width; collapsible, a drawer on small screens).
 * Only screens that exist get an entry: the extension points below say where the next issues
 * plug in theirs (spec §2 "Sidebar").
 */
export const Menu = () => {
  const translate = useTranslate();
  const user = useCurrentUser();
  const pending = usePendingRequestsCount();
  const name = user ? fullName(user) : translate('app.menu.profile');

  return (
    <RaMenu>
      <RaMenu.DashboardItem primaryText="app.menu.home" leftIcon={<HomeOutlinedIcon />} />

      {/* Extension point (requests issue): <RaMenu.Item to="/requests"> with a pending count badge. */}

      {/* Extension point (workspaces issue): the Workspaces tree grouped by team, with
          'Expand all' / 'Close all' and 'No workspaces' when empty. */}

      {/* Extension point (nodes issue): <RaMenu.ResourceItem name="nodes" />. */}

      <RaMenu.ResourceItem name={tokens.name} />

      {/* Extension point (admin issue): the Admin section (Teams, Workspaces, Users, Nodes,
          Activity), rendered only when canAccess({ resource: 'admin' }) — user.admin. */}

      <Divider sx={{ my: 1 }} />
      <RaMenu.Item
        to="/profile"
        primaryText={name}
        aria-label={pending > 0 ? `${name}, ${translate('app.menu.pending_requests', { smart_count: pending })}` : name}
        leftIcon={
          pending > 0 ? (
            <Badge badgeContent={pending} color="error" max={99}>
              <AccountCircleIcon />
            </Badge>
          ) : (
            <AccountCircleIcon />
          )
        }
      />
    </RaMenu>
  );
};
