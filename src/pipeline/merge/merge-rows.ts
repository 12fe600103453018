import { RobotsAuditError } from '../../core/errors.js';
import type { MergeRecord, RowReader } from './row-reader.js';

/**
 * `robots-audit merge` of classify `--row-number` outputs: a k-way merge by row_number back into input
 * order. Every row number from 1 on must come from exactly one file: a gap (a shard's output left out)
 * or a number in two files stops the merge with the file and line, so a merged file is never short.
 */

export interface MergeRowsOptions {
  /** The files start with a header row (classify's usual output); false for `--no-header` outputs. */
  header: boolean;
  /** Leave out the row_number column, giving the bytes an unsharded run writes. */
  dropRowNumber: boolean;
  signal?: AbortSignal;
}

export interface RowsOut {
  write(bytes: Buffer): Promise<void>;
}

/** Bytes gathered before one write to the output. */
const WRITE_BYTES = 64 << 10;

function badInput(message: string, file: string, line: number): RobotsAuditError {
  return new RobotsAuditError('ERR_INPUT', message, { path: file, line });
}

/** A binary min-heap of readers by the row number of their next record. */
class ReaderHeap {
  private readonly items: RowReader[] = [];

  private key(i: number): number {
    return this.items[i]!.peek()!.rowNumber;
  }

  get size(): number {
    return this.items.length;
  }

  top(): RowReader | undefined {
    return this.items[0];
  }

  push(r: RowReader): void {
    const a = this.items;
    a.push(r);
    let i = a.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.key(parent) <= this.key(i)) break;
      [a[parent], a[i]] = [a[i]!, a[parent]!];
      i = parent;
    }
  }

  pop(): RowReader {
    const a = this.items;
    const top = a[0]!;
    const last = a.pop()!;
    if (a.length > 0) {
      a[0] = last;
      this.siftDown(0);
    }
    return top;
  }

  private siftDown(start: number): void {
    const a = this.items;
    let i = start;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < a.length && this.key(l) < this.key(m)) m = l;
      if (r < a.length && this.key(r) < this.key(m)) m = r;
      if (m === i) return;
      [a[m], a[i]] = [a[i]!, a[m]!];
      i = m;
    }
  }
}

/** Refuses files whose `sep=` line, header or delimiter differ from the first file's. */
function checkHeads(readers: readonly RowReader[]): void {
  const first = readers[0]!;
  for (const r of readers.slice(1)) {
    const differs = (a: Buffer | null, b: Buffer | null) =>
      a === null ? b !== null : b === null || !a.equals(b);
    let what: string | null = null;
    if (differs(r.head.sep, first.head.sep)) what = 'first line (sep=)';
    else if (differs(r.head.header, first.head.header)) what = 'header row';
    else if (r.head.delimiter !== first.head.delimiter) what = 'delimiter';
    if (what !== null) {
      throw new RobotsAuditError(
        'ERR_USAGE',
        `${r.file} has another ${what} than ${first.file}: only outputs of one classify run merge`,
        { path: r.file },
      );
    }
  }
}

/** Merges the row files into `out`; returns the number of rows written. */
export async function mergeRows(
  readers: readonly RowReader[],
  out: RowsOut,
  options: MergeRowsOptions,
): Promise<number> {
  for (const r of readers) await r.open(options.header);
  checkHeads(readers);
  const pending: Buffer[] = [];
  let pendingBytes = 0;
  const emit = async (bytes: Buffer, force = false) => {
    if (bytes.length > 0) {
      pending.push(bytes);
      pendingBytes += bytes.length;
    }
    if (pendingBytes >= WRITE_BYTES || (force && pendingBytes > 0)) {
      options.signal?.throwIfAborted();
      await out.write(Buffer.concat(pending, pendingBytes));
      pending.length = 0;
      pendingBytes = 0;
    }
  };
  const { sep, header } = readers[0]!.head;
  if (sep !== null) await emit(sep);
  if (header !== null) {
    await emit(options.dropRowNumber ? header.subarray('row_number'.length + 1) : header);
  }
  const heap = new ReaderHeap();
  for (const r of readers) if (await r.fill()) heap.push(r);
  let last: { record: MergeRecord; file: string } | null = null;
  let rows = 0;
  while (heap.size > 0) {
    const reader = heap.pop();
    const record = reader.take();
    const previous = last?.record.rowNumber ?? 0;
    if (record.rowNumber === previous) {
      throw badInput(
        `row_number ${previous} is in ${last!.file} line ${last!.record.line} and in ${reader.file} line ${record.line}`,
        reader.file,
        record.line,
      );
    }
    if (record.rowNumber !== previous + 1) {
      const one = record.rowNumber === previous + 2;
      const what = one
        ? `row ${previous + 1} is missing: no file has it`
        : `rows ${previous + 1}–${record.rowNumber - 1} are missing: no file has them`;
      throw badInput(
        `${what} (the next, ${record.rowNumber}, is ${reader.file} line ${record.line}); is a shard's output left out?`,
        reader.file,
        record.line,
      );
    }
    last = { record, file: reader.file };
    rows++;
    await emit(options.dropRowNumber ? record.bytes.subarray(record.prefix) : record.bytes);
    if (reader.peek() !== undefined || (await reader.fill())) heap.push(reader);
  }
  await emit(Buffer.alloc(0), true);
  return rows;
}
