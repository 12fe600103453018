import type { OriginStore } from './origin-store.js';
import type { BatchStats } from './protocol.js';
import type { RowStats } from './row-stats.js';

/**
 * Per-origin counters (top hosts, top rules) travel with a batch once this many input bytes have been
 * classified since the last report, and with the flush: counters add up across batches in the worker,
 * so the coordinator merges one entry per origin and rule per report, not per batch.
 */
const REPORT_EVERY_BYTES = 64 << 20;
/** Or sooner, once this share of the origin budget has counters: the list holds evicted entries too. */
const REPORT_SHARE_OF_ORIGINS = 0.25;

/** When a worker's per-origin counters and compile count go out with a batch's figures. */
export class CounterReports {
  private compilesReported = 0;
  /** Input bytes classified since counters were last reported. */
  private unreportedBytes = 0;

  constructor(
    private readonly store: OriginStore,
    private readonly originBudget: number,
  ) {}

  /** A batch of `inputBytes` was classified: whether its figures carry the counters. */
  due(inputBytes: number): boolean {
    this.unreportedBytes += inputBytes;
    const report =
      this.unreportedBytes >= REPORT_EVERY_BYTES ||
      this.store.dirtyCount >= this.originBudget * REPORT_SHARE_OF_ORIGINS;
    if (report) this.unreportedBytes = 0;
    return report;
  }

  /** A batch's figures: its row counts, the counters when `report`, and the compiles since last time. */
  collect(stats: RowStats, rows: number, report: boolean): BatchStats {
    const out = stats.collect(rows, report ? this.store.drainDirty() : []);
    out.compiles = this.store.compiles - this.compilesReported;
    this.compilesReported = this.store.compiles;
    return out;
  }
}
