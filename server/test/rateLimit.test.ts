import { describe, expect, it } from 'vitest';
import { FailureCounter } from '../src/http/rateLimit.js';

function counter(max = 3, windowSeconds = 60) {
  const clock = { now: 1_000_000 };
  return { clock, failures: new FailureCounter({ max, windowSeconds }, () => clock.now) };
}

describe('FailureCounter', () => {
  it('allows up to max failures, then says how long to wait', () => {
    const { clock, failures } = counter();
    for (let i = 0; i < 3; i++) {
      expect(failures.retryAfterSeconds('k')).toBe(0);
      failures.recordFailure('k');
    }
    expect(failures.retryAfterSeconds('k')).toBe(60);
    clock.now += 45_500;
    expect(failures.retryAfterSeconds('k')).toBe(15);
  });

  it('opens a new window when the old one ends', () => {
    const { clock, failures } = counter();
    for (let i = 0; i < 3; i++) failures.recordFailure('k');
    clock.now += 60_000;
    expect(failures.retryAfterSeconds('k')).toBe(0);
    failures.recordFailure('k');
    expect(failures.retryAfterSeconds('k')).toBe(0);
  });

  it('keeps keys apart and forgets a key on clear', () => {
    const { failures } = counter(1);
    failures.recordFailure('a');
    expect(failures.retryAfterSeconds('a')).toBeGreaterThan(0);
    expect(failures.retryAfterSeconds('b')).toBe(0);
    failures.clear('a');
    expect(failures.retryAfterSeconds('a')).toBe(0);
  });
});
