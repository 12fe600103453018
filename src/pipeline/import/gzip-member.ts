import { constants, createInflateRaw } from 'node:zlib';
import type { ByteSource } from './byte-source.js';

/** Gzip members of a WARC file: their headers (RFC 1952), and the streaming inflate of a large one. */

/** Bytes fed at once to the streaming inflater, which bounds what one write can expand to. */
const STREAM_FEED = 16 * 1024;

/** Length of the gzip member header at the start of `v` (RFC 1952), or -1 if not all there. */
export function gzipHeaderLength(v: Buffer): number {
  if (v.length < 10) return -1;
  const flags = v[3]!;
  let p = 10;
  if (flags & 4) {
    if (v.length < p + 2) return -1;
    p += 2 + v.readUInt16LE(p);
  }
  for (const bit of [8, 16]) {
    if (flags & bit) {
      const zero = v.indexOf(0, p);
      if (zero === -1) return -1;
      p = zero + 1;
    }
  }
  if (flags & 2) p += 2;
  return p <= v.length ? p : -1;
}

/** Whether `v` starts with the magic of a deflate gzip member. */
export const atGzipMember = (v: Buffer) => v[0] === 0x1f && v[1] === 0x8b && v[2] === 0x08;

/**
 * Inflates one large member from the cursor as a stream. When the deflate data ends, the bytes fed past
 * it (the trailer and the next member) are put back. `finished` gives null, or why the member is bad.
 */
export function streamMember(src: ByteSource): {
  chunks: AsyncGenerator<Buffer>;
  finished: Promise<string | null>;
} {
  let settle: (v: string | null) => void = () => {};
  const finished = new Promise<string | null>((r) => {
    settle = r;
  });
  async function* chunks(): AsyncGenerator<Buffer> {
    const inflater = createInflateRaw({ finishFlush: constants.Z_SYNC_FLUSH });
    const out: Buffer[] = [];
    let ended = false;
    let failure: string | null = null;
    inflater.on('data', (b: Buffer) => out.push(b));
    inflater.on('end', () => {
      ended = true;
    });
    inflater.on('error', () => {
      failure = 'corrupt or cut gzip member';
    });
    let fed = 0;
    let last: Buffer = Buffer.alloc(0);
    try {
      while (!ended && failure === null) {
        last = await src.take(STREAM_FEED);
        if (last.length === 0) {
          failure = 'gzip member cut short';
          break;
        }
        fed += last.length;
        await new Promise<void>((resolve) => inflater.write(last, () => resolve()));
        // 'end' follows the last write's callback on a later tick.
        await new Promise<void>((resolve) => setImmediate(resolve));
        while (out.length > 0) yield out.shift()!;
      }
      if (ended && failure === null) {
        const leftover = fed - inflater.bytesWritten;
        src.unread(Math.min(leftover, last.length));
        await src.ensure(8);
        src.consume(Math.min(8, src.available));
      }
      settle(failure);
    } finally {
      inflater.destroy();
      settle(failure);
    }
  }
  return { chunks: chunks(), finished };
}
