import type { OriginStore } from './origin-store.js';

/**
 * Units of work in flight (a batch, rows from a peer, an adoption), each numbered by a stamp: what a unit
 * uses is safe from eviction until it ends, so the store protects everything stamped at or after the
 * oldest unit still running.
 */
export class WorkStamps {
  private stamp = 0;
  private readonly active = new Set<number>();

  constructor(private readonly store: OriginStore) {}

  begin(): number {
    const stamp = ++this.stamp;
    this.active.add(stamp);
    this.store.latestStamp = stamp;
    this.store.protectFrom = Math.min(...this.active);
    return stamp;
  }

  end(stamp: number): void {
    this.active.delete(stamp);
    this.store.protectFrom = this.active.size > 0 ? Math.min(...this.active) : this.stamp + 1;
  }
}
