import { availableParallelism } from 'node:os';

/**
 * Input bytes a run judges per thread it starts when `threads` is not given: below this, a worker's
 * start and JIT warm-up (≈ 1 s of CPU) cost more than the second thread saves (a 16 MiB shard took
 * 4.7 s of CPU in two workers against 3.4 s in one thread, and no less wall time).
 */
export const BYTES_PER_THREAD = 32 * 1024 * 1024;

/** What the run knows of its input's size when its first batch is ready. */
export interface InputSize {
  /** Bytes of the input file, or null (stdin, a stream). */
  totalBytes: number | null;
  /** Whether the file is gzip: its stored size then says little of the rows in it. */
  compressed: boolean;
  /** Shards the input is split in (`--shard K/N`): each run judges about 1/N of it. */
  shards: number;
}

/**
 * Threads a classify run uses: the ones asked for; when none are, one per available core, fewer when
 * the input file (this shard's part of it) is known to be small.
 */
export function threadsFor(
  asked: number | undefined,
  input: InputSize,
  cores = availableParallelism(),
): number {
  if (asked !== undefined) return Math.min(asked, 256);
  const most = Math.max(1, Math.min(cores, 256));
  if (input.totalBytes === null || input.compressed) return most;
  const own = input.totalBytes / Math.max(1, input.shards);
  return Math.max(1, Math.min(most, Math.ceil(own / BYTES_PER_THREAD)));
}
