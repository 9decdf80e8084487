import { useEffect, useRef } from 'react';

// A stand-in for src/realtime/useUserChannelEvent that tests can fire (the real one needs a
// WebSocket server). Use it with
//   vi.mock('../src/realtime/useUserChannelEvent', () => import('./mocks/userChannelEvent'));
// then `emitUserChannelEvent(event, payload)`; `clearUserChannelHandlers()` after each test.

const handlers = new Map<string, Set<(payload: unknown) => void>>();

export const useUserChannelEvent = (event: string, handler: (payload: unknown) => void) => {
  const current = useRef(handler);
  current.current = handler;
  useEffect(() => {
    const listener = (payload: unknown) => current.current(payload);
    const set = handlers.get(event) ?? new Set();
    set.add(listener);
    handlers.set(event, set);
    return () => {
      set.delete(listener);
    };
  }, [event]);
};

/** Delivers a realtime event to the mounted listeners; returns how many there were. */
export const emitUserChannelEvent = (event: string, payload: unknown): number => {
  const listeners = [...(handlers.get(event) ?? [])];
  for (const listener of listeners) listener(payload);
  return listeners.length;
};

export const clearUserChannelHandlers = () => handlers.clear();
