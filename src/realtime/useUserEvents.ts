import { useEffect } from 'react';
import { useNotify } from 'react-admin';
import { useCurrentUser, useRefreshRequests } from '../hooks';
import { tokenStore } from '../httpClient';
import { useSettings } from '../settings';
import { createEcho, USER_EVENTS, type UserEvent } from './echo';

const NOTICES: Record<UserEvent, string> = {
  RequestCreated: 'app.realtime.request_created',
  RequestDecided: 'app.realtime.request_decided',
};

/**
 * Listens on the user's private channel while the console is open: a request created for the
 * user to decide, or the user's own request decided, refreshes the badges and lists at once
 * (the 30 s polling stays as a fallback when the realtime server cannot be reached).
 */
export const useUserEvents = () => {
  const user = useCurrentUser();
  const settings = useSettings();
  const refresh = useRefreshRequests();
  const notify = useNotify();
  const userId = user?.id;

  useEffect(() => {
    const token = tokenStore.get();
    if (userId === undefined || !token) return;
    const echo = createEcho(settings, token);
    const channel = echo.private(`App.User.${userId}`);
    for (const event of USER_EVENTS) {
      channel.listen(`.${event}`, () => {
        void refresh();
        notify(NOTICES[event], { type: 'info' });
      });
    }
    return () => {
      echo.leave(`App.User.${userId}`);
      echo.disconnect();
    };
  }, [userId, settings, refresh, notify]);
};
