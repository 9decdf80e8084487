// One clock for everything decided by time: expiry, warnings, retention, policy validity. The
// server runs on the system clock; tests hand the app (and the leader's lifecycle pass) a
// movable one and move it, so that "30 days later" is a line, not a wait.

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export interface MovableClock extends Clock {
  set(at: Date | string): void;
  advance(ms: number): void;
}

/** A clock that stands still until it is set or advanced (tests). */
export function movableClock(start: Date | string = new Date()): MovableClock {
  let current = new Date(start).getTime();
  return {
    now: () => new Date(current),
    set(at) {
      current = new Date(at).getTime();
    },
    advance(ms) {
      current += ms;
    },
  };
}

export const DAY_MS = 24 * 60 * 60 * 1000;
export const HOUR_MS = 60 * 60 * 1000;
