import type { BrokerStats } from './policy-broker.js';
import type { FetchFigures } from './provider-for.js';

export interface ProgressState {
  rows: number;
  bytesRead: number;
  totalBytes: number | null;
  broker: BrokerStats;
  fetch: FetchFigures | null;
}

const mib = (n: number) => `${(n / 1048576).toFixed(n < 10 * 1048576 ? 1 : 0)} MiB`;

/** One progress line: rows/s, rows done, bytes read of total, origins resolved / in flight, fetches. */
export function progressLine(s: ProgressState, elapsedMs: number): string {
  const rate = elapsedMs > 0 ? Math.round((s.rows * 1000) / elapsedMs) : 0;
  const parts = [
    `${s.rows.toLocaleString('en-US')} rows`,
    `${rate.toLocaleString('en-US')} rows/s`,
    s.totalBytes === null
      ? `${mib(s.bytesRead)} read`
      : `${mib(s.bytesRead)} of ${mib(s.totalBytes)} (${s.totalBytes > 0 ? Math.floor((100 * s.bytesRead) / s.totalBytes) : 100}%)`,
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

  constructor(
    private readonly read: () => ProgressState,
    private readonly stream: NodeJS.WriteStream = process.stderr,
    private readonly everyMs = stream.isTTY ? 250 : 2000,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.draw(), this.everyMs);
    this.timer.unref();
  }

  private draw(): void {
    const line = progressLine(this.read(), performance.now() - this.t0);
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
