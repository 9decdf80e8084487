import { useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useEffect, useState } from 'react';
import { useCurrentUser } from '../hooks';
import { tokenStore } from '../httpClient';
import { useSettings } from '../settings';
import { afterFirstScreen } from './afterFirstScreen';
import type { createEcho } from './echo';

type Handler = (payload: unknown) => void;

/**
 * The console's one realtime connection, shared by every component that listens. Channels are
 * reference-counted: a channel is subscribed when its first listener mounts and left when its
 * last listener unmounts, so the server can start and stop what feeds it (a pod's log stream
 * starts on the first subscription and stops on the last).
 */
export interface RealtimeClient {
  /** Listens for `event` on the private channel `name` (without the `private-` prefix); returns the undo. */
  listen(name: string, event: string, handler: Handler): () => void;
  disconnect(): void;
}

type EchoClient = ReturnType<typeof createEcho>;

export const createRealtimeClient = (echo: EchoClient): RealtimeClient => {
  const listeners = new Map<string, number>();
  return {
    listen(name, event, handler) {
      const channel = echo.private(name);
      // A wrapper per listener, so stopListening removes this one and not its neighbours.
      const listener = (payload: unknown) => handler(payload);
      channel.listen(`.${event}`, listener);
      listeners.set(name, (listeners.get(name) ?? 0) + 1);
      let done = false;
      return () => {
        if (done) return;
        done = true;
        channel.stopListening(`.${event}`, listener);
        const left = (listeners.get(name) ?? 1) - 1;
        if (left > 0) listeners.set(name, left);
        else {
          listeners.delete(name);
          echo.leave(name);
        }
      };
    },
    disconnect: () => echo.disconnect(),
  };
};

const RealtimeContext = createContext<RealtimeClient | null>(null);

/** Provides a given client (component tests, or a console embedding its own connection). */
export const RealtimeClientProvider = RealtimeContext.Provider;

/** Opens the connection for the signed-in user (and closes it when they sign out). */
export const RealtimeProvider = ({ children }: { children: ReactNode }) => {
  const user = useCurrentUser();
  const settings = useSettings();
  const queryClient = useQueryClient();
  const [client, setClient] = useState<RealtimeClient | null>(null);
  const userId = user?.id;

  useEffect(() => {
    const token = tokenStore.get();
    if (userId === undefined || !token) return;
    // pusher-js and laravel-echo (20 kB gzip) load once the first screen
    // has its data and has painted it: nothing on a first screen waits for them, and until the
    // connection is up the pages poll as they do when the realtime server cannot be reached.
    // Loaded while the screen still rendered, they made its largest paint come 0.4 s later on
    // a phone (Lighthouse's mobile preset; docs/benchmarks.md).
    let next: RealtimeClient | null = null;
    let left = false;
    const cancel = afterFirstScreen(queryClient, () => {
      void import('./echo').then(({ createEcho }) => {
        if (left) return;
        next = createRealtimeClient(createEcho(settings, token));
        setClient(next);
      });
    });
    return () => {
      left = true;
      cancel();
      setClient(null);
      next?.disconnect();
    };
  }, [userId, settings, queryClient]);

  return <RealtimeContext.Provider value={client}>{children}</RealtimeContext.Provider>;
};

export const useRealtime = () => useContext(RealtimeContext);

/**
 * Calls `handler` for each `event` on the private channel `name` while mounted (nothing when
 * `name` is null or there is no realtime connection). The handler may change between renders
 * without resubscribing.
 */
export const useChannelEvent = (name: string | null, event: string, handler: Handler) => {
  const client = useRealtime();
  const [current] = useState(() => ({ handler }));
  current.handler = handler;
  useEffect(() => {
    if (!client || !name) return;
    return client.listen(name, event, (payload) => current.handler(payload));
  }, [client, name, event, current]);
};

/** `useChannelEvent` on the signed-in user's channel (`private-App.User.{id}`). */
export const useUserChannelEvent = (event: string, handler: Handler) => {
  const user = useCurrentUser();
  useChannelEvent(user ? `App.User.${user.id}` : null, event, handler);
};
