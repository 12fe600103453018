/** A counting semaphore: at most `limit` holders at once, waiters served first come, first served. */
export class Limiter {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  acquire(): Promise<void> {
    if (this.active < this.limit) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    const next = this.waiting.shift();
    // The slot passes straight to the next waiter, so `active` stays the same.
    if (next) next();
    else this.active--;
  }

  /** Holders right now. */
  get inUse(): number {
    return this.active;
  }

  /** Waiters right now. */
  get queued(): number {
    return this.waiting.length;
  }
}
