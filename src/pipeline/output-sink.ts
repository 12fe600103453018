import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { RobotsAuditError } from '../core/errors.js';

/**
 * Where verdicts go. A file is written to a temporary name beside OUTPUT and renamed only when the
 * run completes, so nothing at OUTPUT ever looks complete when it is not; `.gz` is gzip-compressed;
 * `-` is stdout (no temporary file). Writes honour backpressure (await 'drain').
 */
export class OutputSink {
  private error: Error | null = null;
  /** Milliseconds spent writing and waiting for the writer to drain. */
  writeMs = 0;
  bytesWritten = 0;

  private constructor(
    private readonly head: Writable,
    private readonly file: Writable | null,
    private readonly temp: string | null,
    private readonly target: string | null,
  ) {
    const onError = (err: Error) => {
      this.error ??= err;
    };
    head.on('error', onError);
    if (file && file !== head) file.on('error', onError);
  }

  static open(output: string, stdout: Writable = process.stdout): OutputSink {
    if (output === '-') return new OutputSink(stdout, null, null, null);
    const target = path.resolve(output);
    const temp = path.join(
      path.dirname(target),
      `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
    );
    const file = createWriteStream(temp, { flags: 'wx', highWaterMark: 1 << 20 });
    if (!output.endsWith('.gz')) return new OutputSink(file, file, temp, target);
    const gzip = createGzip({ level: 6 });
    gzip.pipe(file);
    return new OutputSink(gzip, file, temp, target);
  }

  get tempPath(): string | null {
    return this.temp;
  }

  private check(): void {
    if (this.error) {
      const e = this.error as NodeJS.ErrnoException;
      const why =
        e.code === 'ENOENT' ? 'no such directory' : e.code === 'EACCES' ? 'permission denied' : e.message;
      const where = this.target ?? 'stdout';
      throw new RobotsAuditError('ERR_OUTPUT', `cannot write the output ${where}: ${why}`, {
        cause: e,
        path: where,
      });
    }
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

  /** Flushes everything and moves the file into place. */
  async commit(): Promise<void> {
    this.check();
    const t0 = performance.now();
    if (this.file === null) {
      // stdout: flush what is buffered, but never close the process's stdout.
      await new Promise<void>((resolve, reject) =>
        this.head.write('', (err) => (err ? reject(err) : resolve())),
      );
    } else {
      this.head.end();
      await finished(this.file);
      this.check();
      await rename(this.temp!, this.target!);
    }
    this.writeMs += performance.now() - t0;
  }

  /** Stops writing and removes the temporary file (never touches OUTPUT). */
  async abort(): Promise<void> {
    if (this.file === null) return;
    this.head.destroy();
    if (this.file !== this.head) this.file.destroy();
    await finished(this.file).catch(() => {});
    await unlink(this.temp!).catch(() => {});
  }
}
