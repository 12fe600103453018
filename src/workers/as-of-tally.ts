import type { CompiledRules } from '../core/index.js';
import { parseTimeIn } from '../rows/row-time.js';
import { ageBucket } from './history.js';
import type { OriginEntry, OriginStore, Pick } from './origin-store.js';
import type { AsOfConfig, AsOfStats } from './protocol.js';
import { AGE_BUCKET_DAYS } from './protocol.js';

/**
 * A row's time as of-time runs read it: the fixed `--as-of`, or its cell `text[start, end)` (NaN when
 * unreadable or absent: `text` undefined).
 */
export function rowTime(cfg: AsOfConfig, text: string | undefined, start: number, end: number): number {
  if (cfg.timeIndex < 0) return cfg.fixedTime;
  return text === undefined ? Number.NaN : parseTimeIn(text, start, end, cfg.timeFormat);
}

/** What rows' times picked: rows judged, `no_history` rows by reason, ages of the versions in force. */
export interface AsOfCounts {
  judged: number;
  noHistory: Record<string, number>;
  ages: number[];
}

/** A batch's as-of figures: rows judged, `no_history` rows by reason, ages of the versions in force. */
export class AsOfTally {
  private judged = 0;
  private readonly noHistory: Record<string, number> = {};
  private readonly ages = new Array<number>(AGE_BUCKET_DAYS.length + 1).fill(0);
  /** Filled by OriginStore.pick for each row. */
  readonly pick: Pick = { reason: null, ageMs: 0, rules: null };

  /**
   * The entry that judges row `i` of as-of origin `e` at time `t` (see OriginStore.pick), the row counted
   * when there is one, and the rules it decides by there in `views[i]` (Pick's `rules`); undefined when the
   * origin must be asked for again.
   */
  entryAt(
    store: OriginStore,
    e: OriginEntry,
    t: number,
    stamp: number,
    views: (CompiledRules[] | null)[],
    i: number,
  ): OriginEntry | undefined {
    const v = store.pick(e, t, stamp, this.pick);
    views[i] = this.pick.rules;
    if (v !== undefined) this.count();
    return v;
  }

  /** Counts the row `pick` was last filled for. */
  count(): void {
    const p = this.pick;
    if (p.reason === null) {
      this.judged++;
      this.ages[ageBucket(p.ageMs)]!++;
    } else this.noHistory[p.reason] = (this.noHistory[p.reason] ?? 0) + 1;
  }

  counts(): AsOfCounts {
    return { judged: this.judged, noHistory: this.noHistory, ages: this.ages };
  }

  /** Adds what a peer's rows picked (rows of this batch judged by their origin's owner). */
  add(c: AsOfCounts): void {
    this.judged += c.judged;
    for (const [reason, n] of Object.entries(c.noHistory))
      this.noHistory[reason] = (this.noHistory[reason] ?? 0) + n;
    for (let b = 0; b < this.ages.length; b++) this.ages[b]! += c.ages[b] ?? 0;
  }

  stats(grace: number[] | null, agents: number): AsOfStats {
    return {
      judged: this.judged,
      noHistory: this.noHistory,
      ages: this.ages,
      grace: grace ?? new Array<number>(agents).fill(0),
    };
  }
}
