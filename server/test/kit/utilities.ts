import { createServer } from 'node:net';

// Small helpers every kind of test uses: names that never collide (test files run in parallel,
// on one PostgreSQL server too), a free loopback port, waiting for something to happen.

let counter = 0;

/** `prefix` followed by digits no other call, test file or process makes at the same time. */
export const unique = (prefix: string) => `${prefix}${process.pid % 1000}${Date.now() % 100000}${++counter}`;

/** An email address no other test uses. */
export const uniqueEmail = (prefix = 'user') => `${prefix}.${process.pid}.${Date.now()}.${++counter}@example.org`;

/**
 * A loopback port free right now: for a server that must be named before it listens (MAIL_URL of a
 * catcher started later, APP_URL of the app itself) or that restarts on the same port.
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface EventuallyOptions {
  /** How long to keep trying (default 5 s). */
  timeoutMs?: number;
  /** The pause between two tries (default 25 ms). */
  intervalMs?: number;
  /** What is awaited, for the message when it never comes. */
  what?: string;
}

// A check that may answer undefined would pass at once, whatever it meant: such a check answers
// false while it does not hold (`list.find(…) ?? false`). Checks that answer nothing (void: an
// expectation) are fine.
type Passes<T> = undefined extends T ? ([T] extends [void] ? T : never) : T;
type Check<T> = (() => T | Promise<T>) & ([Passes<T>] extends [never] ? { 'answer false, not undefined, while it does not hold': true } : unknown);

/**
 * Tries `check` until it passes: until it neither throws (an expectation that does not hold yet)
 * nor answers false (a condition not met yet). Answers what the passing try answered. After
 * `timeoutMs` the last try's error is thrown, or a timeout naming `what`.
 */
export async function eventually<T>(check: Check<T>, options: EventuallyOptions = {}): Promise<Exclude<T, false>> {
  const { timeoutMs = 5000, intervalMs = 25, what = 'the condition' } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let failure: unknown;
    try {
      const value = await check();
      if (value !== false) return value as Exclude<T, false>;
      failure = new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    } catch (error) {
      failure = error;
    }
    if (Date.now() > deadline) throw failure;
    await pause(intervalMs);
  }
}
