import LogoutIcon from '@mui/icons-material/Logout';
import PersonIcon from '@mui/icons-material/Person';
import { ListItemIcon, ListItemText, MenuItem } from '@mui/material';
import { forwardRef } from 'react';
import { UserMenu as RaUserMenu, useLogout, useTranslate, useUserMenu } from 'react-admin';
import { Link } from 'react-router-dom';

const ProfileMenuItem = forwardRef<HTMLAnchorElement>((props, ref) => {
  const translate = useTranslate();
  const userMenu = useUserMenu();
  return (
    <MenuItem component={Link} to="/profile" ref={ref} onClick={() => userMenu?.onClose()} {...props}>
      <ListItemIcon>
        <PersonIcon fontSize="small" />
      </ListItemIcon>
      <ListItemText>{translate('app.menu.profile')}</ListItemText>
    </MenuItem>
  );
});
ProfileMenuItem.displayName = 'ProfileMenuItem';

/** Logout that lands on / (the login page); a session that expires keeps its URL instead. */
export const LogoutMenuItem = forwardRef<HTMLLIElement>((props, ref) => {
  const translate = useTranslate();
  const logout = useLogout();
  const userMenu = useUserMenu();
  return (
    <MenuItem
      ref={ref}
      onClick={() => {
        userMenu?.onClose();
        void logout({ redirectTo: '/' });
      }}
      {...props}
    >
      <ListItemIcon>
        <LogoutIcon fontSize="small" />
      </ListItemIcon>
      <ListItemText>{translate('app.action.logout')}</ListItemText>
    </MenuItem>
  );
});
LogoutMenuItem.displayName = 'LogoutMenuItem';

export const UserMenu = () => (
  <RaUserMenu>
    <ProfileMenuItem />
    <LogoutMenuItem />
  </RaUserMenu>
);
