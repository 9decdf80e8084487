import { type ReactNode, useEffect, useRef } from 'react';
import { Layout as RaLayout, useGetIdentity } from 'react-admin';
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

/** The console shell: app bar, 280 px sidebar menu, content. */
export const Layout = ({ children }: { children: ReactNode }) => (
  <RealtimeProvider>
    <Shell>{children}</Shell>
  </RealtimeProvider>
);

const Shell = ({ children }: { children: ReactNode }) => {
  useIdentityFollowsSession();
  useUserEvents();
  return (
    // react-admin's layout is `min-width: fit-content`, so a wide table widened the whole page
    // (the app bar stopped short of it). With min-width 0 tables scroll inside their card.
    <RaLayout appBar={AppBar} menu={Menu} sx={{ minWidth: 0, '& .RaLayout-content': { minWidth: 0 } }}>
      {children}
    </RaLayout>
  );
};
