import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useUserChannelEvent } from '../../realtime/useUserChannelEvent';

/** The event the server sends to a node's owner on every status change (payload: the Node JSON). */
export const NODE_STATUS_EVENT = 'NodeStatusChanged';

/**
 * While mounted, a NodeStatusChanged event on the user's channel refetches every nodes query
 * (lists, the node, its activity): react-admin keys them under 'nodes'.
 */
export const useNodeEvents = (onEvent?: (payload: unknown) => void) => {
  const queryClient = useQueryClient();
  const handler = useCallback(
    (payload: unknown) => {
      void queryClient.invalidateQueries({ queryKey: ['nodes'] });
      onEvent?.(payload);
    },
    [queryClient, onEvent],
  );
  useUserChannelEvent(NODE_STATUS_EVENT, handler);
};
