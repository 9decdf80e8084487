import type { QueryClient } from '@tanstack/react-query';

/** The longest wait: a screen whose requests never settle (one retrying) still goes on. */
export const FIRST_SCREEN_WAIT_MS = 3000;

/**
 * When the browser is next idle: after the rendering the last answers caused, and its paint
 * (React's scheduled work and the frame come before idle callbacks). Where there are no idle
 * callbacks (Safari), after the next frame and a task of its own.
 */
const whenIdle = (callback: () => void): (() => void) => {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(callback, { timeout: 1000 });
    return () => cancelIdleCallback(handle);
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(callback, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
};

/**
 * Calls `start` once the screen's requests have answered and the browser is idle after painting
 * what they brought, or after `maxWaitMs` at the latest. Returns the cancel.
 *
 * For work a screen does not need to show itself: on a phone, loading and running it while the
 * screen still renders made the screen itself come later. Called from an effect, the screen's
 * own queries have started by then: a component's children run their effects first.
 */
export function afterFirstScreen(queryClient: QueryClient, start: () => void, maxWaitMs = FIRST_SCREEN_WAIT_MS): () => void {
  let ended = false;
  let cancelWait: () => void = () => undefined;
  const end = () => {
    ended = true;
    unsubscribe();
    clearTimeout(latest);
    cancelWait();
  };
  const go = () => {
    if (ended) return;
    end();
    start();
  };
  let waiting = false;
  const settled = () => {
    if (ended || waiting || queryClient.isFetching() > 0) return;
    waiting = true;
    cancelWait = whenIdle(() => {
      waiting = false;
      // A request that started meanwhile (a list's second query) is waited for too.
      if (queryClient.isFetching() === 0) go();
    });
  };
  const unsubscribe = queryClient.getQueryCache().subscribe(settled);
  const latest = setTimeout(go, maxWaitMs);
  settled();
  return end;
}
