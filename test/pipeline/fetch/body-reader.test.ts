import { Readable } from 'node:stream';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseContentEncoding, readCappedBody } from '../../../src/pipeline/fetch/body-reader.js';

/** A stream handing out `data` in chunks of `size` bytes, counting what was pulled. */
function chunked(data: Buffer, size: number) {
  const state = { pulled: 0 };
  let offset = 0;
  const stream = new Readable({
    read() {
      if (offset >= data.length) return void this.push(null);
      const chunk = data.subarray(offset, offset + size);
      offset += chunk.length;
      state.pulled += chunk.length;
      this.push(chunk);
    },
  });
  return { stream, state };
}

const ENCODERS = {
  gzip: gzipSync,
  deflate: deflateSync,
  'deflate-raw': deflateRawSync,
  br: brotliCompressSync,
} as const;

describe('parseContentEncoding', () => {
  it('lower-cases, trims, drops identity, keeps order', () => {
    expect(parseContentEncoding(' GZip , identity,br')).toEqual(['gzip', 'br']);
    expect(parseContentEncoding(undefined)).toEqual([]);
    expect(parseContentEncoding(['gzip', 'br'])).toEqual(['gzip', 'br']);
    // Misconfigured servers: `none` or a charset is no coding (the body is as sent); real unknown codings stay.
    expect(parseContentEncoding('none')).toEqual([]);
    expect(parseContentEncoding('UTF-8, gzip')).toEqual(['gzip']);
    expect(parseContentEncoding('compress, zstd')).toEqual(['compress', 'zstd']);
  });
});

describe('readCappedBody', () => {
  it('round-trips any bytes under any encoding and chunking, capped at maxBytes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 3000 }),
        fc.constantFrom('identity', 'gzip', 'deflate', 'deflate-raw', 'br'),
        fc.integer({ min: 1, max: 700 }),
        fc.integer({ min: 1, max: 4000 }),
        async (bytes, encoding, chunk, cap) => {
          const plain = Buffer.from(bytes);
          const wire = encoding === 'identity' ? plain : ENCODERS[encoding](plain);
          const header = encoding === 'deflate-raw' ? 'deflate' : encoding;
          const { body, truncated } = await readCappedBody(chunked(wire, chunk).stream, header, cap);
          expect(body.equals(plain.subarray(0, cap))).toBe(true);
          expect(truncated).toBe(plain.length > cap);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('decodes layered encodings in reverse order of application', async () => {
    const plain = Buffer.from('User-agent: *\nDisallow: /\n');
    const wire = brotliCompressSync(gzipSync(plain));
    const { body } = await readCappedBody(Readable.from([wire]), 'gzip, br', 1000);
    expect(body.equals(plain)).toBe(true);
  });

  it('stops pulling the compressed stream soon after the cap (a bomb is not read to its end)', async () => {
    const plain = Buffer.alloc(256 * 1024 * 1024);
    const wire = gzipSync(plain); // ~255 KiB on the wire
    const { stream, state } = chunked(wire, 1024);
    const { body, truncated } = await readCappedBody(stream, 'gzip', 500 * 1024);
    expect(body.length).toBe(500 * 1024);
    expect(truncated).toBe(true);
    // Only the streams' buffers run ahead of the cap (a few 16 KiB chunks), not the whole bomb.
    expect(state.pulled).toBeLessThan(128 * 1024);
    expect(wire.length).toBeGreaterThan(200 * 1024);
    expect(stream.destroyed).toBe(true);
  });

  it('an unknown or >2-layer encoding is refused with ERR_UNSUPPORTED_ENCODING and the body destroyed', async () => {
    const s = Readable.from([Buffer.from('x')]);
    await expect(readCappedBody(s, 'compress', 10)).rejects.toMatchObject({
      code: 'ERR_UNSUPPORTED_ENCODING',
    });
    expect(s.destroyed).toBe(true);
    await expect(
      readCappedBody(Readable.from([Buffer.from('x')]), 'gzip, gzip, gzip', 10),
    ).rejects.toMatchObject({
      code: 'ERR_UNSUPPORTED_ENCODING',
    });
  });

  it('corrupt data rejects with the zlib error (classified ERR_CONTENT_DECODING upstream)', async () => {
    await expect(readCappedBody(Readable.from([Buffer.from('not gzip')]), 'gzip', 10)).rejects.toMatchObject({
      code: 'Z_DATA_ERROR',
    });
    await expect(readCappedBody(Readable.from([Buffer.from('not brotli!!')]), 'br', 10)).rejects.toThrow();
  });

  it('an error of the source stream propagates', async () => {
    const s = new Readable({
      read() {
        this.destroy(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }));
      },
    });
    await expect(readCappedBody(s, undefined, 10)).rejects.toMatchObject({ code: 'ECONNRESET' });
  });
});
