import { useNotify } from 'react-admin';
import { useRefreshRequests } from '../hooks';
import { useCurrentUser } from '../hooks';
import type { UserEvent } from './echo';
import { useUserChannelEvent } from './RealtimeProvider';
import { subscriptionEndedNotice, useSubscriptionEnded } from './subscriptionEnded';

const NOTICES: Record<UserEvent, string> = {
  RequestCreated: 'app.realtime.request_created',
  RequestDecided: 'app.realtime.request_decided',
};

/**
 * While the console is open, a request created for the user to decide, or the user's own
 * request decided, refreshes the badges and the request lists at once (the 30 s polling stays
 * as a fallback when the realtime server cannot be reached).
 */
export const useUserEvents = () => {
  const refresh = useRefreshRequests();
  const notify = useNotify();
  const onEvent = (event: UserEvent) => () => {
    void refresh();
    notify(NOTICES[event], { type: 'info' });
  };
  useUserChannelEvent('RequestCreated', onEvent('RequestCreated'));
  useUserChannelEvent('RequestDecided', onEvent('RequestDecided'));
  // The server ended the user channel: the session was revoked or the account disabled.
  const user = useCurrentUser();
  useSubscriptionEnded(user ? `App.User.${user.id}` : null, (why) => {
    notify(subscriptionEndedNotice(why, 'app.realtime.session_ended').key, { type: 'warning' });
  });
};
