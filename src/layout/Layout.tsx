import { type ReactNode, useEffect, useRef } from 'react';
import { Layout as RaLayout, useGetIdentity } from 'react-admin';
import { useCurrentUser } from '../hooks';
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
export const Layout = ({ children }: { children: ReactNode }) => {
  useIdentityFollowsSession();
  useUserEvents();
  return (
    <RaLayout appBar={AppBar} menu={Menu}>
      {children}
    </RaLayout>
  );
};
