import { describe, expect, it } from 'vitest';
import { BYTES_PER_THREAD, threadsFor } from '../../src/pipeline/thread-count.js';

const file = (totalBytes: number | null, shards = 1, compressed = false) => ({
  totalBytes,
  compressed,
  shards,
});

describe('threadsFor', () => {
  it('keeps the threads asked for, up to 256, whatever the input', () => {
    expect(threadsFor(3, file(10), 2)).toBe(3);
    expect(threadsFor(1, file(null), 8)).toBe(1);
    expect(threadsFor(999, file(10), 2)).toBe(256);
  });

  it('gives a file one thread per started 32 MiB, up to the cores', () => {
    expect(threadsFor(undefined, file(0), 4)).toBe(1);
    expect(threadsFor(undefined, file(BYTES_PER_THREAD), 4)).toBe(1);
    expect(threadsFor(undefined, file(BYTES_PER_THREAD + 1), 4)).toBe(2);
    expect(threadsFor(undefined, file(3 * BYTES_PER_THREAD), 4)).toBe(3);
    expect(threadsFor(undefined, file(100 * BYTES_PER_THREAD), 4)).toBe(4);
    expect(threadsFor(undefined, file(100 * BYTES_PER_THREAD), 1)).toBe(1);
  });

  it("counts a shard's share of the file", () => {
    expect(threadsFor(undefined, file(2 * BYTES_PER_THREAD, 1), 2)).toBe(2);
    expect(threadsFor(undefined, file(2 * BYTES_PER_THREAD, 4), 2)).toBe(1);
    expect(threadsFor(undefined, file(16 * BYTES_PER_THREAD, 4), 8)).toBe(4);
  });

  it('gives stdin, a stream or a gzip file one thread per core', () => {
    expect(threadsFor(undefined, file(null), 2)).toBe(2);
    expect(threadsFor(undefined, file(1000, 1, true), 2)).toBe(2);
    expect(threadsFor(undefined, file(null, 4), 3)).toBe(3);
  });
});
