import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BufferPool } from '../../../src/pipeline/input/buffer-pool.js';
import { OrderedOutput } from '../../../src/pipeline/output/ordered-output.js';
import { OutputSink } from '../../../src/pipeline/output/output-sink.js';
import type { BatchResult, BatchStats } from '../../../src/workers/protocol.js';

const dir = mkdtempSync(path.join(tmpdir(), 'ra-ordered-'));

/** A batch whose result the test settles when it wants. */
function deferred(text: string, records: number) {
  let settle!: () => void;
  const task = new Promise<BatchResult>((resolve) => {
    settle = () => {
      const bytes = Buffer.from(text);
      const output = new ArrayBuffer(bytes.length);
      bytes.copy(Buffer.from(output));
      resolve({ output, length: bytes.length, input: new ArrayBuffer(8), stats: { records } as BatchStats });
    };
  });
  return { task, settle };
}

describe('OrderedOutput', () => {
  it('writes batches in the order they were added, whatever order they finish in, with at most the window in flight', async () => {
    const file = path.join(dir, 'out.txt');
    const sink = OutputSink.open(file);
    const counted: number[] = [];
    const ordered = new OrderedOutput(sink, 3, new BufferPool(0), (s) => counted.push(s.records), undefined);
    const batches = ['a\n', 'b\n', 'c\n', 'd\n', 'e\n'].map((t, i) => deferred(t, i + 1));
    // Two in flight: adding returns at once, nothing is written while the oldest is pending.
    await ordered.add(batches[0]!.task);
    batches[1]!.settle();
    await ordered.add(batches[1]!.task);
    expect(ordered.length).toBe(2);
    // The third fills the window: add waits for the oldest, which the test settles last of the three.
    batches[2]!.settle();
    let added = false;
    const third = ordered.add(batches[2]!.task).then(() => (added = true));
    await new Promise((r) => setImmediate(r));
    expect(added).toBe(false);
    batches[0]!.settle();
    await third;
    // The oldest and the finished ones after it are written: a, b, c.
    expect(counted).toEqual([1, 2, 3]);
    expect(ordered.length).toBe(0);
    batches[4]!.settle();
    await ordered.add(batches[3]!.task);
    await ordered.add(batches[4]!.task);
    expect(counted).toEqual([1, 2, 3]);
    batches[3]!.settle();
    await ordered.drain();
    expect(counted).toEqual([1, 2, 3, 4, 5]);
    await sink.finish();
    await sink.publish();
    expect(readFileSync(file, 'utf8')).toBe('a\nb\nc\nd\ne\n');
  });

  it('hands out the output buffers of written batches for later ones', async () => {
    const sink = OutputSink.open(path.join(dir, 'reuse.txt'));
    const ordered = new OrderedOutput(sink, 4, new BufferPool(0), () => {}, undefined);
    expect(ordered.spareOutput()).toBeNull();
    const b = deferred('x\n', 1);
    b.settle();
    await ordered.add(b.task);
    await ordered.drain();
    await sink.finish();
    const spare = ordered.spareOutput();
    expect(spare?.byteLength).toBe(2);
    await sink.abort();
  });
});
