import { useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'react-admin';
import { useLocation, useNavigate } from 'react-router-dom';
import { useCurrentUser, useRefreshRequests, useTestbedAuth } from '../hooks';
import { rememberLoggedOutNotice } from '../pages/auth/loggedOutNotice';
import { markWorkspaceDeleted } from './deletedWorkspaces';
import type { UserEvent } from './echo';
import { useUserChannelEvent } from './RealtimeProvider';
import { subscriptionEndedNotice, useSubscriptionEnded } from './subscriptionEnded';

const NOTICES: Record<UserEvent, string> = {
  RequestCreated: 'app.realtime.request_created',
  RequestDecided: 'app.realtime.request_decided',
};

/** The payload of `WorkspaceDeleted` (docs/api-contract.md, "Admin: workspaces"). */
interface DeletedWorkspace {
  id?: number;
  name?: string;
  label?: string | null;
}

/**
 * While the console is open, a request created for the user to decide, or the user's own
 * request decided, refreshes the badges and the request lists at once (the 30 s polling stays
 * as a fallback when the realtime server cannot be reached); so does a request closed without
 * the user (`RequestClosed`: its requester left the team), quietly. A workspace of the user's
 * deleted by a platform admin (`WorkspaceDeleted`) leaves the sidebar tree, and whoever is on
 * its page goes home, told why.
 */
export const useUserEvents = () => {
  const refresh = useRefreshRequests();
  const notify = useNotify();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const auth = useTestbedAuth();
  const onEvent = (event: UserEvent) => () => {
    void refresh();
    notify(NOTICES[event], { type: 'info' });
  };
  useUserChannelEvent('RequestCreated', onEvent('RequestCreated'));
  useUserChannelEvent('RequestDecided', onEvent('RequestDecided'));
  useUserChannelEvent('RequestClosed', () => void refresh());
  // An invitation of the user's was accepted: the team's members and invitations change.
  useUserChannelEvent('InvitationAccepted', (payload) => {
    const accepted = (payload ?? {}) as { email?: string };
    void Promise.all([queryClient.invalidateQueries({ queryKey: ['invitations'] }), queryClient.invalidateQueries({ queryKey: ['teams'] })]);
    notify('app.realtime.invitation_accepted', { type: 'info', messageArgs: { email: accepted.email ?? '' } });
  });
  useUserChannelEvent('WorkspaceDeleted', (payload) => {
    const workspace = (payload ?? {}) as DeletedWorkspace;
    if (typeof workspace.id === 'number') markWorkspaceDeleted(workspace.id);
    if (workspace.id !== undefined && location.pathname.replace(/\/+$/, '') === `/workspaces/${workspace.id}`) navigate('/');
    // The tree (GET /user), team pages and requests (the workspace's were closed) now; the
    // workspace pages only when next shown: the deleted one's page may not have unmounted yet,
    // and asking for it again would only get a 404.
    void Promise.all([
      auth.refreshUser(),
      queryClient.invalidateQueries({ queryKey: ['teams'] }),
      queryClient.invalidateQueries({ queryKey: ['requests'] }),
      queryClient.invalidateQueries({ queryKey: ['workspaces'], refetchType: 'none' }),
    ]);
    notify('app.realtime.workspace_deleted', { type: 'warning', messageArgs: { name: workspace.label || workspace.name || '' } });
  });
  // The server ended the user channel: the session was revoked or the account disabled. The
  // token no longer works, so the console logs out at once (not at the next 401 of a poll) and
  // the login page says why.
  const user = useCurrentUser();
  useSubscriptionEnded(user ? `App.User.${user.id}` : null, (why) => {
    const notice = subscriptionEndedNotice(why, 'app.realtime.session_ended').key;
    if (why.reason === 'session-ended' || why.reason === 'account-disabled') {
      rememberLoggedOutNotice(notice);
      void auth.logout();
      return;
    }
    notify(notice, { type: 'warning' });
  });
};
