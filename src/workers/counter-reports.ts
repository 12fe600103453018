import type { OriginStore } from './origin-store.js';
import type { BatchStats } from './protocol.js';
import type { RowStats } from './row-stats.js';

/**
 * Per-origin counters (top hosts, top rules) add up in the origin entries, which a worker keeps anyway,
 * and go out with the flush. They travel with the batches earlier only when what they hold would grow:
 * once this share of the origin budget was evicted (origins, or rule sets, which a counted origin's
 * counters keep alive) since the last report, or once the origins with counters reach the budget. A
 * report costs one entry per origin and rule counted since the last one: reporting whenever a quarter of
 * the budget had counters, evicted or not, sent the 2M-row benchmark's counters three times over (≈ 390k
 * entries against ≈ 120k, ≈ 0.5–0.9 s more CPU) at the same peak RSS.
 */
const REPORT_SHARE_OF_BUDGET = 0.25;
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
  /** The store's evictions when the last report began. */
  private evictionsReported = 0;

  constructor(
    private readonly store: OriginStore,
    private readonly originBudget: number,
  ) {}

  /** A batch was classified: whether its figures carry counters. */
  due(): boolean {
    if (this.reporting) return true;
    const { dirtyCount, evictions } = this.store;
    const evicted = evictions - this.evictionsReported;
    this.reporting =
      dirtyCount >= this.originBudget ||
      (dirtyCount >= ORIGINS_PER_BATCH && evicted >= this.originBudget * REPORT_SHARE_OF_BUDGET);
    if (this.reporting) this.evictionsReported = evictions;
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
