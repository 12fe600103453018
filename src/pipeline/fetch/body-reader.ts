import { pipeline, type Readable, Transform, type TransformCallback } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from 'node:zlib';
import { fetchError } from './error-codes.js';

/**
 * Reads a response body into at most `maxBytes` DECODED bytes. Decoding streams, and reading stops as
 * soon as the cap is passed, so a compression bomb costs no more memory than an honest file.
 */

/** What we offer in Accept-Encoding; every one of them is decoded here. */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

export interface CappedBody {
  body: Buffer;
  /** More decoded bytes existed beyond the cap and were dropped. */
  truncated: boolean;
}

/**
 * `Content-Encoding: deflate` is meant to be zlib-wrapped, but some servers send raw deflate; the first
 * byte tells them apart (a zlib header has compression method 8 in its low nibble).
 */
class DeflateAuto extends Transform {
  private inner: Transform | undefined;

  override _transform(chunk: Buffer, _enc: BufferEncoding, callback: TransformCallback): void {
    if (this.inner === undefined) {
      const inner = (chunk[0]! & 0x0f) === 0x08 ? createInflate() : createInflateRaw();
      inner.on('data', (d: Buffer) => {
        if (!this.push(d)) inner.pause();
      });
      inner.on('error', (err) => this.destroy(err));
      this.inner = inner;
    }
    this.inner.write(chunk, () => callback());
  }

  override _read(size: number): void {
    this.inner?.resume();
    super._read(size);
  }

  override _flush(callback: TransformCallback): void {
    if (this.inner === undefined) {
      callback();
      return;
    }
    this.inner.once('end', () => callback());
    this.inner.end();
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    this.inner?.destroy();
    callback(err);
  }
}

/** Drops a body we will not read (undici reports an unread destroyed body as an AbortError: ignore it). */
export function discard(body: Readable): void {
  body.on('error', () => {});
  if (!body.destroyed) body.destroy();
}

function decoderFor(encoding: string): Transform | undefined {
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return new DeflateAuto();
    case 'br':
      return createBrotliDecompress();
    default:
      return undefined;
  }
}

/**
 * Values misconfigured servers put in Content-Encoding that name no coding at all (`none`, a charset, a
 * MIME encoding): the body is as sent, as browsers read it. A real coding we cannot undo stays unsupported.
 */
const NOT_CODINGS = new Set([
  'identity',
  'none',
  'utf-8',
  'utf8',
  'us-ascii',
  'ascii',
  'iso-8859-1',
  'latin1',
  'binary',
  '8bit',
  '7bit',
]);

/** Content-Encoding tokens in the order they were applied, `identity` (and NOT_CODINGS) dropped. */
export function parseContentEncoding(header: string | string[] | undefined): string[] {
  if (header === undefined) return [];
  const text = Array.isArray(header) ? header.join(',') : header;
  return text
    .split(',')
    .map((t) => t.trim().toLowerCase())
    .filter((t) => t !== '' && !NOT_CODINGS.has(t));
}

/**
 * The codings to undo, in the order they were applied: Content-Encoding, then any Transfer-Encoding other
 * than `chunked` (which the HTTP client already removed). A `Transfer-Encoding: gzip, chunked` body is
 * gzip once dechunked, and must not be read as robots.txt text.
 */
export function appliedCodings(
  contentEncoding: string | string[] | undefined,
  transferEncoding: string | string[] | undefined,
): string[] {
  const transfer = parseContentEncoding(transferEncoding).filter((t) => t !== 'chunked');
  return [...parseContentEncoding(contentEncoding), ...transfer];
}

/** Counts the bytes that pass: an empty encoded body is an empty file, not a corrupt stream. */
class ByteCounter extends Transform {
  bytes = 0;

  override _transform(chunk: Buffer, _enc: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    callback(null, chunk);
  }
}

/**
 * Reads `body` (always consumed or destroyed when this settles), undoing `contentEncoding`: a header
 * value, its repeated lines, or the list appliedCodings gives. Throws an error with code
 * ERR_UNSUPPORTED_ENCODING / ERR_CONTENT_DECODING, or whatever the body stream failed with.
 */
export async function readCappedBody(
  body: Readable,
  contentEncoding: string | string[] | undefined,
  maxBytes: number,
): Promise<CappedBody> {
  const encodings = parseContentEncoding(contentEncoding);
  const decoders: Transform[] = [];
  // Decoders run in the reverse order of the encodings applied; more than two layers is not a real server.
  for (const encoding of encodings.reverse()) {
    const decoder = encodings.length <= 2 ? decoderFor(encoding) : undefined;
    if (decoder === undefined) {
      discard(body);
      for (const d of decoders) d.destroy();
      throw fetchError('ERR_UNSUPPORTED_ENCODING', `unsupported Content-Encoding: ${encodings.join(', ')}`);
    }
    decoders.push(decoder);
  }
  let source: Readable = body;
  const counter = decoders.length > 0 ? new ByteCounter() : null;
  if (counter !== null) {
    // The error is seen through the last stream's iterator; this callback only keeps it from going unhandled.
    source = pipeline([body, counter, ...decoders], () => {}) as unknown as Readable;
  }
  const chunks: Buffer[] = [];
  let total = 0;
  let truncated = false;
  try {
    for await (const chunk of source) {
      const buf = chunk as Buffer;
      const room = maxBytes - total;
      if (buf.length > room) {
        if (room > 0) chunks.push(buf.subarray(0, room));
        total = maxBytes;
        truncated = true;
        break;
      }
      chunks.push(buf);
      total += buf.length;
    }
  } catch (err) {
    // `Content-Encoding: gzip` on a 0-byte body (a server compressing an empty file): curl reads it as empty.
    if (counter === null || counter.bytes > 0 || !body.readableEnded) throw err;
  } finally {
    // Leaving the loop early (cap or error) must not leave a half-read socket behind.
    if (truncated || !body.readableEnded) discard(body);
    for (const d of decoders) if (!d.destroyed) d.destroy();
  }
  return { body: Buffer.concat(chunks, total), truncated };
}
