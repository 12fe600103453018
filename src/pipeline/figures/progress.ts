import type { BrokerStats } from '../policy/policy-broker.js';
import type { FetchFigures } from '../policy/provider-for.js';

export interface ProgressState {
  rows: number;
  bytesRead: number;
  totalBytes: number | null;
  broker: BrokerStats;
  fetch: FetchFigures | null;
}

const mibs = (n: number) => (n / 1048576).toFixed(n < 10 * 1048576 ? 1 : 0);
const mib = (n: number) => `${mibs(n)} MiB`;
const count = (n: number) => Math.round(n).toLocaleString('en-US');

/** How far back the current rate looks. */
export const RECENT_MS = 5000;

/** Rows and bytes per second over the last `windowMs`, from the samples the progress line takes. */
export class RecentRate {
  private readonly samples: { t: number; rows: number; bytes: number }[] = [];

  constructor(private readonly windowMs = RECENT_MS) {}

  /** A sample at `t` ms (times only grow). The newest sample at or before `t - windowMs` is kept as the base. */
  add(t: number, rows: number, bytes: number): void {
    this.samples.push({ t, rows, bytes });
    while (this.samples.length > 2 && this.samples[1]!.t <= t - this.windowMs) this.samples.shift();
  }

  /** Rows/s and bytes/s from the base sample to the newest, or null before two samples. */
  rates(): { rowsPerSecond: number; bytesPerSecond: number } | null {
    const first = this.samples[0];
    const last = this.samples.at(-1);
    if (first === undefined || last === undefined || last.t <= first.t) return null;
    const seconds = (last.t - first.t) / 1000;
    return {
      rowsPerSecond: (last.rows - first.rows) / seconds,
      bytesPerSecond: (last.bytes - first.bytes) / seconds,
    };
  }
}

/** A duration to come, to the second below an hour: `45s`, `3m 05s`, `2h 07m`. */
export function formatEta(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  if (s < 60) return `${s}s`;
  const pad = (n: number) => String(n).padStart(2, '0');
  if (s < 3600) return `${Math.floor(s / 60)}m ${pad(s % 60)}s`;
  const m = Math.round(s / 60);
  return `${Math.floor(m / 60)}h ${pad(m % 60)}m`;
}

/** Seconds left to read the input at `bytesPerSecond`, or null when the size is not known or nothing moves. */
function etaSeconds(s: ProgressState, bytesPerSecond: number): number | null {
  if (s.totalBytes === null) return null;
  const left = s.totalBytes - s.bytesRead;
  if (left <= 0) return 0;
  return bytesPerSecond > 0 ? left / bytesPerSecond : null;
}

/**
 * One progress line: rows done, rows/s over the last few seconds (`recent`, else since the start) and
 * since the start, bytes read of total with the time left at the recent reading rate, origins, fetches.
 * What a user watches comes first: a terminal cuts the line at its width.
 */
export function progressLine(
  s: ProgressState,
  elapsedMs: number,
  recent: { rowsPerSecond: number; bytesPerSecond: number } | null = null,
): string {
  const average = elapsedMs > 0 ? (s.rows * 1000) / elapsedMs : 0;
  const averageBytes = elapsedMs > 0 ? (s.bytesRead * 1000) / elapsedMs : 0;
  // A stalled read (a slow fetch) has no recent rate: the average still gives a time.
  const eta = etaSeconds(
    s,
    recent !== null && recent.bytesPerSecond > 0 ? recent.bytesPerSecond : averageBytes,
  );
  const parts = [
    `${count(s.rows)} rows`,
    recent === null
      ? `${count(average)} rows/s`
      : `${count(recent.rowsPerSecond)} rows/s (avg ${count(average)})`,
    s.totalBytes === null
      ? `${mib(s.bytesRead)} read`
      : `${mibs(s.bytesRead)} of ${mib(s.totalBytes)} (${s.totalBytes > 0 ? Math.floor((100 * s.bytesRead) / s.totalBytes) : 100}%)${eta === null ? '' : `, ETA ${formatEta(eta)}`}`,
    `origins ${s.broker.resolved.toLocaleString('en-US')} resolved, ${s.broker.inFlight} in flight`,
  ];
  if (s.fetch) {
    const o = Object.entries(s.fetch.byOutcome)
      .filter(([, n]) => (n ?? 0) > 0)
      .map(([k, n]) => `${k} ${n}`)
      .join(' ');
    parts.push(
      `fetched ${s.fetch.fetched} (${s.fetch.queued} queued, ${s.fetch.retries} retries)${o ? ` ${o}` : ''}`,
    );
  }
  return parts.join(' · ');
}

/** Writes the progress line to stderr every `everyMs`: rewritten in place on a terminal, else one per line. */
export class ProgressReporter {
  private timer: NodeJS.Timeout | null = null;
  private readonly t0 = performance.now();
  private drawn = false;
  private readonly recent = new RecentRate();

  constructor(
    private readonly read: () => ProgressState,
    private readonly stream: NodeJS.WriteStream = process.stderr,
    private readonly everyMs = stream.isTTY ? 250 : 2000,
  ) {}

  start(): void {
    // The start is the first sample: the first line's current rate is then that of its first interval.
    const s = this.read();
    this.recent.add(performance.now() - this.t0, s.rows, s.bytesRead);
    this.timer = setInterval(() => this.draw(), this.everyMs);
    this.timer.unref();
  }

  private draw(): void {
    const state = this.read();
    const elapsed = performance.now() - this.t0;
    this.recent.add(elapsed, state.rows, state.bytesRead);
    const line = progressLine(state, elapsed, this.recent.rates());
    if (this.stream.isTTY) {
      this.stream.write(`\r\x1b[2K${line.slice(0, (this.stream.columns ?? 200) - 1)}`);
      this.drawn = true;
    } else this.stream.write(`${line}\n`);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (this.drawn) this.stream.write('\r\x1b[2K');
    this.drawn = false;
  }
}
