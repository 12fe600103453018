// Reading a robots.txt file without trusting its size: a file may be huge (sparse), or a device or pipe
// that never ends (/dev/zero). Only as much is read as is parsed, and one byte more to tell the rest.

import { closeSync, openSync, readSync } from 'node:fs';

/** RFC 9309 §2.5: a crawler parses at least the first 500 KiB of a robots.txt; of a file, this much is. */
export const ROBOTS_FILE_BYTES = 500 * 1024;

export interface CappedBytes {
  /** The first `cap` bytes at most. */
  body: Buffer;
  /** There was more than `cap` bytes. */
  truncated: boolean;
}

/**
 * Reads at most `cap` bytes from an open file descriptor, and one byte more to tell whether there was
 * more. `size` (the file's size, 0 when unknown) sizes the first buffer, so small files cost no more.
 */
export function readCapped(fd: number, size: number, cap = ROBOTS_FILE_BYTES): CappedBytes {
  let buf = Buffer.allocUnsafe(size > 0 ? Math.min(cap, size) + 1 : 16 << 10);
  let n = 0;
  for (;;) {
    if (n === buf.length) {
      if (n > cap) break;
      const bigger = Buffer.allocUnsafe(Math.min(cap + 1, n * 2));
      buf.copy(bigger, 0, 0, n);
      buf = bigger;
    }
    const got = readSync(fd, buf, n, buf.length - n, null);
    if (got === 0) break;
    n += got;
    if (n === size && size <= cap) break; // all of a regular file, as readFileSync reads it
  }
  return { body: buf.subarray(0, Math.min(n, cap)), truncated: n > cap };
}

/** Opens `file` (blocking: a pipe waits for its writer, as `cat` does) and reads it capped. Throws as fs does. */
export function readFileCapped(file: string, cap = ROBOTS_FILE_BYTES): CappedBytes {
  const fd = openSync(file, 'r');
  try {
    return readCapped(fd, 0, cap);
  } finally {
    closeSync(fd);
  }
}
