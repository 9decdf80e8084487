import { type ReactNode, useEffect, useRef } from 'react';
import { useMediaQuery, type Theme } from '@mui/material';
import { Layout as RaLayout, Sidebar as RaSidebar, type SidebarProps, useGetIdentity, useTranslate } from 'react-admin';
import { useCurrentUser } from '../hooks';
import { RealtimeProvider } from '../realtime/RealtimeProvider';
import { useUserEvents } from '../realtime/useUserEvents';
import { AppBar } from './AppBar';
import { Menu } from './Menu';

/** react-admin caches the identity (app bar name, avatar): reload it when the user changes. */
const useIdentityFollowsSession = () => {
  const user = useCurrentUser();
  const { refetch } = useGetIdentity();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    void refetch();
  }, [user, refetch]);
};

/**
 * react-admin's sidebar; on a phone it is a modal drawer, a dialog that needs a name to say
 * what it is (axe's aria-dialog-name). The docked desktop sidebar is no dialog: no name there.
 */
const Sidebar = (props: SidebarProps) => {
  const translate = useTranslate();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  return <RaSidebar {...props} {...(phone ? { slotProps: { paper: { 'aria-label': translate('app.menu.label') } } } : {})} />;
};

/**
 * What follows the session for the whole console: the identity shown in the app bar, and the
 * user's realtime events. A component of its own that renders nothing, so that the realtime
 * connection arriving, or the identity answering, re-renders it alone, not the layout and
 * the page below it (a whole render of the console each time, on a phone a long task).
 */
const SessionFollowers = () => {
  useIdentityFollowsSession();
  useUserEvents();
  return null;
};

/** The console shell: app bar, 280 px sidebar menu, content. */
export const Layout = ({ children }: { children: ReactNode }) => (
  <RealtimeProvider>
    <SessionFollowers />
    {/* react-admin's layout is `min-width: fit-content`, so a wide table widened the whole page
        (the app bar stopped short of it). With min-width 0 tables scroll inside their card. */}
    <RaLayout appBar={AppBar} menu={Menu} sidebar={Sidebar} sx={{ minWidth: 0, '& .RaLayout-content': { minWidth: 0 } }}>
      {children}
    </RaLayout>
  </RealtimeProvider>
);
