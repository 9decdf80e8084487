import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useGetList, useNotify, useTranslate } from 'react-admin';
import { serverMessage } from './httpClient';
import { PENDING_COUNT_PARAMS } from './pages/home/homeLists';
import { useCurrentUser, useTestbedAuth } from './session';
import type { UserRequest } from './types';

/** How often counts and lists of requests are refreshed until realtime arrives. */
export const REQUESTS_REFRESH_MS = 30_000;

/** How long a pending count just read is not read again when another component asks for it. */
const PENDING_FRESH_MS = 10_000;

export { useCurrentUser, useSession, useTestbedAuth } from './session';

/**
 * Requests waiting for the user's decision: GET /api/requests?status=Pending, refreshed every
 * 30 s (and after decisions: see useRefreshRequests).
 */
export const usePendingRequests = () =>
  useGetList<UserRequest & { id: number }>(
    'requests',
    // One row is enough: the badge and the home alert only read the server's total.
    PENDING_COUNT_PARAMS,
    // Fresh for a moment: the menu's badge and the home's alert mount in different renders, and
    // with the home's answer already there (main.tsx starts it beside /user) the second would
    // otherwise ask again at once. Decisions and realtime events invalidate it anyway.
    { refetchInterval: REQUESTS_REFRESH_MS, staleTime: PENDING_FRESH_MS },
  );

/** Number of requests waiting for the user's decision (0 while loading or on failure). */
export const usePendingRequestsCount = (): number => {
  const { total, data } = usePendingRequests();
  return total ?? data?.length ?? 0;
};

/** The user's own pending requests (from GET /user). */
export const useOwnPendingRequestsCount = (): number => {
  const user = useCurrentUser();
  return (user?.requests ?? []).filter((request) => request.status === 'Pending').length;
};

/**
 * After a decision or a new request: refetch every requests query (badge, lists) and the user
 * (teams, workspaces, own requests), and the team and workspace pages.
 */
export const useRefreshRequests = () => {
  const queryClient = useQueryClient();
  const auth = useTestbedAuth();
  return useCallback(async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: ['requests'] }),
      queryClient.invalidateQueries({ queryKey: ['teams'] }),
      queryClient.invalidateQueries({ queryKey: ['workspaces'] }),
      auth.refreshUser(),
    ]);
  }, [queryClient, auth]);
};

/**
 * Sends a join request (team or workspace) and says what happened: joined at once (the server
 * approved it automatically), request sent (then `asked` stays true), or the server's message.
 */
export const useJoinRequest = (messages: { joined: string; sent: string; error: string }) => {
  const notify = useNotify();
  const translate = useTranslate();
  const refreshRequests = useRefreshRequests();
  const [joining, setJoining] = useState(false);
  const [asked, setAsked] = useState(false);

  const join = async (send: () => Promise<Pick<UserRequest, 'status'> | undefined>) => {
    setJoining(true);
    try {
      const request = await send();
      if (request?.status === 'Approved') notify(messages.joined, { type: 'success' });
      else {
        setAsked(true);
        notify(messages.sent, { type: 'success' });
      }
      await refreshRequests();
    } catch (failure) {
      const message = serverMessage(failure, messages.error);
      notify(translate(message, { _: message }), { type: 'error' });
    } finally {
      setJoining(false);
    }
  };
  return { join, joining, asked };
};
