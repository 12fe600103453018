import type { RecordCount } from '../../workers/protocol.js';

/**
 * Record numbers across batches (`--row-number`): workers judge batches in parallel and cannot know how
 * many records came before theirs, so each reports its batch's record count as soon as the batch is
 * scanned, and is answered, once every earlier batch has reported, with the records before it. Batches
 * are handed out in input order and scanned as soon as they start, so the earliest one never waits.
 */
export class RecordNumbering {
  private readonly counts = new Map<number, number>();
  private readonly waiting = new Map<number, (base: number) => void>();
  /** The first batch not folded into `before` yet. */
  private next = 0;
  private before = 0;

  /** Resolves with the number of records in the batches before `seq`. */
  report(req: RecordCount): Promise<number> {
    const base = new Promise<number>((resolve) => this.waiting.set(req.seq, resolve));
    this.counts.set(req.seq, req.records);
    while (this.counts.has(this.next)) {
      const records = this.counts.get(this.next)!;
      this.counts.delete(this.next);
      this.waiting.get(this.next)!(this.before);
      this.waiting.delete(this.next);
      this.before += records;
      this.next++;
    }
    return base;
  }
}

export function isRecordCount(body: unknown): body is RecordCount {
  return typeof body === 'object' && body !== null && (body as { kind?: unknown }).kind === 'records';
}
