import { act } from '@testing-library/react';
import type { RealtimeClient } from '../src/realtime/RealtimeProvider';

/**
 * An in-memory realtime client for component tests (the real laravel-echo / pusher-js path is
 * covered by server/test/realtime*.test.ts and the browser tests): `emit` plays a server event.
 */
export const memoryRealtime = () => {
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const client: RealtimeClient = {
    listen(name, event, handler) {
      const key = `${name} ${event}`;
      const set = listeners.get(key) ?? new Set();
      set.add(handler);
      listeners.set(key, set);
      return () => {
        set.delete(handler);
        if (set.size === 0) listeners.delete(key);
      };
    },
    disconnect() {},
  };
  return {
    client,
    emit: (name: string, event: string, payload: unknown) =>
      act(() => {
        for (const handler of listeners.get(`${name} ${event}`) ?? []) handler(payload);
      }),
    listening: (name: string) => [...listeners.keys()].filter((key) => key.startsWith(`${name} `)),
  };
};
