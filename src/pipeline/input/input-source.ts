import { constants, createReadStream, openSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Socket } from 'node:net';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { RobotsAuditError } from '../../core/errors.js';
import { withLeadingBytes } from './leading-bytes.js';
import { withLfLines } from './line-ends.js';
import { asUtf8 } from './utf16-input.js';

/** Bytes per read from a file: a few batches' worth (every chunk read is a new buffer). */
const READ_CHUNK = 256 << 10;

export interface InputSource {
  /**
   * Decompressed bytes, in order, UTF-16 transcoded to UTF-8 and lone-CR line ends turned into LF.
   * Reading is paused while the consumer is not asking.
   */
  chunks: AsyncIterable<Buffer>;
  /** Size of the input file as stored (compressed size for .gz), or null for stdin/streams. */
  totalBytes: number | null;
  /** Bytes read from the file/stream so far (as stored). */
  bytesRead(): number;
  /** Whether the input is gzip (known once its first bytes are read). */
  compressed(): boolean;
  close(): void;
}

function isGzip(b: Uint8Array): boolean {
  return b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b;
}

/**
 * Opens INPUT: a file path, `-` for stdin, or a readable stream. Gzip input is recognised by its
 * magic bytes (whatever the name) and decompressed on the fly.
 */
export async function openInput(input: string | NodeJS.ReadableStream): Promise<InputSource> {
  let raw: Readable;
  let totalBytes: number | null = null;
  if (typeof input !== 'string') raw = Readable.from(input as AsyncIterable<Buffer>);
  else if (input === '-') raw = process.stdin;
  else {
    try {
      const st = await stat(input);
      if (st.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
      if (st.isFile()) totalBytes = st.size;
      // A FIFO is opened non-blocking and read as a pipe: a blocking open() would wait for a writer in a
      // libuv thread that process exit waits for, so a run stopped before a writer came never ended.
      raw = st.isFIFO()
        ? new Socket({ fd: openSync(input, constants.O_RDONLY | constants.O_NONBLOCK), writable: false })
        : createReadStream(input, { highWaterMark: READ_CHUNK });
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      const why = e.code === 'ENOENT' ? 'no such file' : e.code === 'EISDIR' ? 'is a directory' : e.message;
      throw new RobotsAuditError('ERR_INPUT', `cannot read the input ${input}: ${why}`, {
        path: input,
        cause: e,
      });
    }
  }
  let read = 0;
  let closed = false;
  let decoder: Readable | null = null;
  let gzip = false;
  /** The bytes as stored, counted; a failed read is the input's error. */
  async function* stored(): AsyncGenerator<Buffer> {
    const it = raw[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    for (;;) {
      let r: IteratorResult<Buffer>;
      try {
        r = await it.next();
      } catch (err) {
        throw inputError(input, err);
      }
      if (r.done) return;
      read += r.value.length;
      yield r.value;
    }
  }
  async function* chunks(): AsyncGenerator<Buffer> {
    const it = withLeadingBytes(stored(), 2);
    const first = await it.next();
    if (first.done) return;
    async function* all(): AsyncGenerator<Buffer> {
      yield first.value;
      yield* it;
    }
    if (!isGzip(first.value)) {
      yield* all();
      return;
    }
    gzip = true;
    const gunzip = createGunzip({ chunkSize: 256 * 1024 });
    const source = Readable.from(all());
    source.on('error', (err) => gunzip.destroy(err));
    decoder = source.pipe(gunzip);
    try {
      for await (const c of gunzip) yield c as Buffer;
    } catch (err) {
      throw isInputError(err) ? err : inputError(input, err, gzipWhy(err));
    }
  }
  return {
    chunks: withLfLines(asUtf8(chunks())),
    totalBytes,
    bytesRead: () => read,
    compressed: () => gzip,
    close() {
      if (closed) return;
      closed = true;
      decoder?.destroy();
      if (raw !== process.stdin) raw.destroy();
      else raw.pause();
    },
  };
}

/** A read error stored() already made the input's error (matched by code: errors cross no class check). */
function isInputError(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === 'ERR_INPUT';
}

function inputError(input: unknown, err: unknown, why = ''): RobotsAuditError {
  const name = typeof input === 'string' ? (input === '-' ? 'stdin' : input) : 'the input stream';
  const msg = err instanceof Error ? err.message : String(err);
  return new RobotsAuditError('ERR_INPUT', `cannot read ${name}: ${why}${msg}`, { cause: err });
}

/** What zlib's terse messages mean for a gzip input, as a prefix for them. */
function gzipWhy(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'Z_BUF_ERROR') return 'the gzip data ends early (truncated): ';
  if (code === 'Z_DATA_ERROR') return 'the gzip data is corrupt, or followed by bytes that are not gzip: ';
  return '';
}
