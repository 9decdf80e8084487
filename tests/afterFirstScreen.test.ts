import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { afterFirstScreen } from '../src/realtime/afterFirstScreen';

// The realtime connection's code loads once the first screen has what it asked for and the
// browser is idle, so that on a phone it does not hold that screen back; a screen that never
// settles gets it anyway, after a while.

const deferred = () => {
  let resolve!: (value: string) => void;
  const promise = new Promise<string>((done) => {
    resolve = done;
  });
  return { promise, resolve };
};

const idleCallbacks = (available: boolean) => {
  if (available) {
    vi.stubGlobal('requestIdleCallback', (callback: () => void) => setTimeout(callback, 50) as unknown as number);
    vi.stubGlobal('cancelIdleCallback', (handle: number) => clearTimeout(handle));
  } else {
    vi.stubGlobal('requestIdleCallback', undefined);
  }
};

describe.each([
  ['with idle callbacks', true],
  ['without them (Safari)', false],
])('after the first screen, %s', (_, idle) => {
  let queryClient: QueryClient;
  beforeEach(() => {
    vi.useFakeTimers();
    idleCallbacks(idle);
    queryClient = new QueryClient();
  });
  afterEach(() => {
    queryClient.clear();
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it("waits for the screen's requests to answer, then starts once", async () => {
    const answer = deferred();
    void queryClient.fetchQuery({ queryKey: ['nodes'], queryFn: () => answer.promise });
    const start = vi.fn();
    afterFirstScreen(queryClient, start, 3000);
    await vi.advanceTimersByTimeAsync(1000);
    expect(start).not.toHaveBeenCalled();

    answer.resolve('[]');
    await vi.advanceTimersByTimeAsync(200);
    expect(start).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(5000);
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('waits for a request that starts while it waits for the browser', async () => {
    const start = vi.fn();
    afterFirstScreen(queryClient, start, 3000);
    const late = deferred();
    void queryClient.fetchQuery({ queryKey: ['requests'], queryFn: () => late.promise });
    await vi.advanceTimersByTimeAsync(500);
    expect(start).not.toHaveBeenCalled();
    late.resolve('{}');
    await vi.advanceTimersByTimeAsync(200);
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('starts after the longest wait when a request never answers', async () => {
    // (Cancelled when the test ends.)
    queryClient.fetchQuery({ queryKey: ['stuck'], queryFn: () => new Promise(() => undefined) }).catch(() => undefined);
    const start = vi.fn();
    afterFirstScreen(queryClient, start, 3000);
    await vi.advanceTimersByTimeAsync(2900);
    expect(start).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(200);
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('never starts once cancelled (the user left)', async () => {
    const start = vi.fn();
    const cancel = afterFirstScreen(queryClient, start, 3000);
    cancel();
    await vi.advanceTimersByTimeAsync(5000);
    expect(start).not.toHaveBeenCalled();
  });
});
