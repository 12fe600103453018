import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backoffDelay, parseRetryAfter } from '../../../src/pipeline/fetch/retry-timing.js';

describe('parseRetryAfter (RFC 9110 §10.2.3)', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  it('delta-seconds', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
  });
  it('an HTTP-date, in the future or past', () => {
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(0);
  });
  it('absent or garbage → undefined', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
    expect(parseRetryAfter('1.5', now)).toBeUndefined();
    expect(parseRetryAfter('soon please', now)).toBeUndefined();
  });
});

describe('backoffDelay', () => {
  it('doubles per attempt with jitter in [½, 1] of the step, never above the cap', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 5000 }),
        fc.double({ min: 0, max: 0.999, noNaN: true }),
        (attempt, base, r) => {
          const step = base * 2 ** (attempt - 1);
          const d = backoffDelay(attempt, base, 30_000, () => r);
          expect(d).toBeLessThanOrEqual(30_000);
          expect(d).toBeGreaterThanOrEqual(Math.min(30_000, Math.floor(step / 2)));
          expect(d).toBeLessThanOrEqual(Math.ceil(step));
        },
      ),
    );
  });
});
