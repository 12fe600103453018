import { describe, expect, it } from 'vitest';
import {
  formatEta,
  type ProgressState,
  progressLine,
  RecentRate,
} from '../../../src/pipeline/figures/progress.js';
import type { BrokerStats } from '../../../src/pipeline/policy/policy-broker.js';

const MiB = 1048576;

function state(over: Partial<ProgressState> = {}): ProgressState {
  const broker: BrokerStats = {
    outcomes: { parsed: 0, unavailable: 0, unreachable: 0 } as BrokerStats['outcomes'],
    sources: {},
    failures: {},
    unreachableBy: {},
    resolved: 1234,
    inFlight: 3,
    fetchMs: 0,
  };
  return { rows: 1_000_000, bytesRead: 100 * MiB, totalBytes: 400 * MiB, broker, fetch: null, ...over };
}

describe('progressLine', () => {
  it('gives the recent rate beside the average, and the time left to read a file of known size', () => {
    // 20 s in, 50,000 rows/s on average; lately 30,000 rows/s and 5 MiB/s: 300 MiB left is 60 s.
    const line = progressLine(state(), 20_000, { rowsPerSecond: 30_000, bytesPerSecond: 5 * MiB });
    expect(line).toBe(
      '1,000,000 rows · 30,000 rows/s (avg 50,000) · 100 of 400 MiB (25%), ETA 1m 00s · origins 1,234 resolved, 3 in flight',
    );
  });

  it('reckons the time left at the average reading rate while reading is stalled', () => {
    // 100 MiB in 20 s is 5 MiB/s on average: 300 MiB left is 60 s.
    const line = progressLine(state(), 20_000, { rowsPerSecond: 0, bytesPerSecond: 0 });
    expect(line).toContain(' · 0 rows/s (avg 50,000) · ');
    expect(line).toContain('(25%), ETA 1m 00s ·');
  });

  it('has no time left when the size is unknown (stdin), and the average alone before a recent rate', () => {
    const line = progressLine(state({ totalBytes: null }), 20_000);
    expect(line).toBe('1,000,000 rows · 50,000 rows/s · 100 MiB read · origins 1,234 resolved, 3 in flight');
  });

  it('says 0s once the whole file is read, and gives no time when nothing has been read', () => {
    expect(progressLine(state({ bytesRead: 400 * MiB }), 20_000)).toContain('(100%), ETA 0s ·');
    expect(progressLine(state({ rows: 0, bytesRead: 0 }), 0)).toContain('0.0 of 400 MiB (0%) ·');
  });
});

describe('formatEta', () => {
  it('gives seconds, then minutes and seconds, then hours and minutes', () => {
    expect([0, 0.2, 45, 59.5, 60, 185, 3599, 3600, 7620, 90_000].map(formatEta)).toEqual([
      '0s',
      '1s',
      '45s',
      '1m 00s',
      '1m 00s',
      '3m 05s',
      '59m 59s',
      '1h 00m',
      '2h 07m',
      '25h 00m',
    ]);
  });
});

describe('RecentRate', () => {
  it('has no rate before two samples', () => {
    const r = new RecentRate(5000);
    expect(r.rates()).toBeNull();
    r.add(0, 0, 0);
    expect(r.rates()).toBeNull();
  });

  it('measures from the newest sample at least the window old, so an early burst fades out', () => {
    const r = new RecentRate(5000);
    // 100,000 rows in the first second, then 1,000 rows a second.
    r.add(0, 0, 0);
    r.add(1000, 100_000, 10_000);
    expect(r.rates()).toEqual({ rowsPerSecond: 100_000, bytesPerSecond: 10_000 });
    for (let t = 2000; t <= 10_000; t += 1000)
      r.add(t, 100_000 + (t / 1000 - 1) * 1000, 10_000 + (t / 1000 - 1) * 100);
    // From t = 5 s to t = 10 s: 5,000 rows and 500 bytes.
    expect(r.rates()).toEqual({ rowsPerSecond: 1000, bytesPerSecond: 100 });
  });

  it('keeps the base sample until a newer one is old enough', () => {
    const r = new RecentRate(5000);
    r.add(0, 0, 0);
    r.add(4000, 4000, 0);
    r.add(6000, 10_000, 0);
    // The sample at 4 s is not yet 5 s old: the base stays at 0 s.
    expect(r.rates()!.rowsPerSecond).toBeCloseTo(10_000 / 6, 9);
    r.add(9000, 13_000, 0);
    // Now 4 s is the newest sample at or before 9 − 5 = 4 s.
    expect(r.rates()!.rowsPerSecond).toBe(9000 / 5);
  });
});
