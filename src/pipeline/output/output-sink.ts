import { createWriteStream, fstatSync } from 'node:fs';
import { rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { isMainThread } from 'node:worker_threads';
import { createGzip } from 'node:zlib';
import { RobotsAuditError } from '../../core/errors.js';
import { openFifoWriter } from './fifo-writer.js';
import { removeStaleTemps, resolveOutputTarget, tempPathFor } from './output-target.js';

export interface SinkOptions {
  /** What `-` writes to (default: process.stdout). */
  stdout?: Writable;
  /** Named in error messages: "cannot write the <label> <path>". */
  label?: string;
  /** Neither `-` nor `.gz` is special: the bytes go to the file named. */
  plain?: boolean;
}

/** Why a write failed, in a few words, for the errors people meet. */
const WHY: Record<string, string> = {
  ENOENT: 'no such directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EISDIR: 'is a directory',
  EROFS: 'read-only file system',
  ENXIO: 'no reader on the other end',
  ELOOP: 'too many levels of symbolic links',
};

/**
 * Where verdicts (or the summary) go. A regular file is written to a temporary name beside it and
 * renamed only when the run completes, so nothing at OUTPUT ever looks complete when it is not; a
 * symlink keeps pointing where it did (the file it leads to is replaced). FIFOs, devices and
 * /dev/stdout-like links are written through. `.gz` is gzip-compressed; `-` is stdout. Writes honour
 * backpressure (await 'drain'). A reader that closes a pipe early fails with ERR_OUTPUT_CLOSED.
 */
export class OutputSink {
  private error: Error | null = null;
  private published = false;
  /** Milliseconds spent writing and waiting for the writer to drain. */
  writeMs = 0;
  bytesWritten = 0;

  private constructor(
    private readonly head: Writable,
    private readonly file: Writable | null,
    private readonly temp: string | null,
    private readonly target: string | null,
    private readonly where: string,
    private readonly label: string,
  ) {
    const onError = (err: Error) => {
      this.error ??= err;
    };
    head.on('error', onError);
    if (file && file !== head) file.on('error', onError);
  }

  static open(output: string, options: SinkOptions = {}): OutputSink {
    const label = options.label ?? 'output';
    if (output === '-' && !options.plain) {
      return new OutputSink(options.stdout ?? process.stdout, null, null, null, 'stdout', label);
    }
    const where = path.resolve(output);
    let file: Writable;
    let temp: string | null = null;
    let target: string | null = null;
    try {
      const resolved = resolveOutputTarget(output);
      if (resolved.kind === 'fd') {
        const fd = resolved.fd;
        if (fstatSync(fd).isFIFO()) {
          // Node may have made the pipe non-blocking (EAGAIN for fs writes): a description of our own,
          // polled by libuv, waits instead, and a signal can still end the run.
          file = openFifoWriter(`/proc/self/fd/${fd}`);
        } else if (fd === 1 && isMainThread) {
          return OutputSink.open('-', { ...options, plain: false });
        } else {
          // The descriptor is the caller's: written, never closed.
          file = createWriteStream('', { fd, autoClose: false, highWaterMark: 1 << 20 });
        }
      } else if (resolved.kind === 'fifo') {
        file = openFifoWriter(resolved.path);
      } else if (resolved.kind === 'direct') {
        file = createWriteStream(resolved.path, { flags: 'a', highWaterMark: 1 << 20 });
      } else {
        target = resolved.path;
        removeStaleTemps(target);
        temp = tempPathFor(target);
        file = createWriteStream(temp, { flags: 'wx', highWaterMark: 1 << 20 });
      }
    } catch (err) {
      throw OutputSink.failure(err as Error, where, label);
    }
    if (options.plain || !output.endsWith('.gz'))
      return new OutputSink(file, file, temp, target, where, label);
    const gzip = createGzip({ level: 6 });
    gzip.pipe(file);
    return new OutputSink(gzip, file, temp, target, where, label);
  }

  private static failure(e: NodeJS.ErrnoException, where: string, label: string): RobotsAuditError {
    if (e.code === 'EPIPE') {
      return new RobotsAuditError('ERR_OUTPUT_CLOSED', `the reader of the ${label} ${where} closed it`, {
        cause: e,
        path: where,
      });
    }
    const why = (e.code && WHY[e.code]) ?? e.message;
    return new RobotsAuditError('ERR_OUTPUT', `cannot write the ${label} ${where}: ${why}`, {
      cause: e,
      path: where,
    });
  }

  /** Writes `bytes` as the whole file (same rules as OUTPUT: atomic for files, written through otherwise). */
  static async writeWhole(file: string, bytes: Uint8Array, label: string): Promise<void> {
    const sink = OutputSink.open(file, { label, plain: true });
    try {
      await sink.write(bytes);
      await sink.commit();
    } catch (err) {
      await sink.abort();
      throw err;
    }
  }

  get tempPath(): string | null {
    return this.temp;
  }

  private check(): void {
    if (this.error) throw OutputSink.failure(this.error, this.where, this.label);
  }

  /** Queues bytes; resolves when more may be written. `released` runs once the bytes are no longer needed. */
  async write(bytes: Uint8Array, released?: () => void): Promise<void> {
    this.check();
    const t0 = performance.now();
    this.bytesWritten += bytes.length;
    if (!this.head.write(bytes, released && (() => released()))) {
      await new Promise<void>((resolve) => {
        const done = () => {
          this.head.off('drain', done);
          this.head.off('error', done);
          this.head.off('close', done);
          resolve();
        };
        this.head.on('drain', done);
        this.head.on('error', done);
        this.head.on('close', done);
      });
    }
    this.writeMs += performance.now() - t0;
    this.check();
  }

  /** Flushes and closes what was written; OUTPUT itself is not touched until `publish`. */
  async finish(): Promise<void> {
    this.check();
    const t0 = performance.now();
    try {
      if (this.file === null) {
        // stdout: flush what is buffered, but never close the process's stdout.
        await new Promise<void>((resolve, reject) =>
          this.head.write('', (err) => (err ? reject(err) : resolve())),
        );
      } else {
        this.head.end();
        await finished(this.file);
      }
    } catch (err) {
      this.error ??= err as Error;
    }
    this.check();
    this.writeMs += performance.now() - t0;
  }

  /** Moves the finished temporary file into place (nothing to do when written through). */
  async publish(): Promise<void> {
    if (this.temp !== null && !this.published) {
      try {
        await rename(this.temp, this.target!);
      } catch (err) {
        throw OutputSink.failure(err as Error, this.where, this.label);
      }
    }
    this.published = true;
  }

  /** Flushes everything and moves the file into place. */
  async commit(): Promise<void> {
    await this.finish();
    await this.publish();
  }

  /** Stops writing and removes the temporary file (never touches OUTPUT, nor what is written through). */
  async abort(): Promise<void> {
    if (this.file === null || this.published) return;
    this.head.destroy();
    if (this.file !== this.head) this.file.destroy();
    await finished(this.file).catch(() => {});
    if (this.temp !== null) await unlink(this.temp).catch(() => {});
  }
}
