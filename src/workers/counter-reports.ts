import type { OriginStore } from './origin-store.js';
import type { BatchStats } from './protocol.js';
import type { RowStats } from './row-stats.js';

/**
 * Per-origin counters (top hosts, top rules) travel with the batches once this share of the origin budget
 * has counters, and with the flush. They add up in the origin entries meanwhile (which a worker keeps
 * anyway), so a report costs one entry per origin and rule used since the last one, whatever the rows.
 * Reporting every 8 MiB of input as well cost ≈ 7 % more CPU on the 2M-row benchmark (a report of every
 * origin each time, twenty times over) at no lower peak RSS. The list of origins to report holds
 * evicted entries too: the share bounds it.
 */
const REPORT_SHARE_OF_ORIGINS = 0.25;
/**
 * Origins one batch's figures carry at most: a report goes out over the next batches, so what it costs
 * in memory (its tuples, and their copies on the coordinator's side) does not grow with the origins used.
 */
const ORIGINS_PER_BATCH = 2048;

/** When a worker's per-origin counters and compile count go out with a batch's figures. */
export class CounterReports {
  private compilesReported = 0;
  /** A report is going out with the batches (until few origins are left to report). */
  private reporting = false;

  constructor(
    private readonly store: OriginStore,
    private readonly originBudget: number,
  ) {}

  /** A batch was classified: whether its figures carry counters. */
  due(): boolean {
    if (!this.reporting)
      this.reporting = this.store.dirtyCount >= this.originBudget * REPORT_SHARE_OF_ORIGINS;
    return this.reporting;
  }

  /**
   * A batch's figures: its row counts, the counters of up to ORIGINS_PER_BATCH origins when `report`
   * (of all of them when `all`: the flush), and the compiles since last time.
   */
  collect(stats: RowStats, rows: number, report: boolean, all = false): BatchStats {
    const dirty = !report ? [] : this.store.drainDirty(all ? Number.POSITIVE_INFINITY : ORIGINS_PER_BATCH);
    if (this.store.dirtyCount < ORIGINS_PER_BATCH) this.reporting = false;
    const out = stats.collect(rows, dirty);
    out.compiles = this.store.compiles - this.compilesReported;
    this.compilesReported = this.store.compiles;
    return out;
  }
}
