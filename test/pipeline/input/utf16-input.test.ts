import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asUtf8, utf16Encoding } from '../../../src/pipeline/input/utf16-input.js';

async function collect(chunks: Buffer[]): Promise<Buffer> {
  async function* from() {
    yield* chunks;
  }
  const out: Buffer[] = [];
  for await (const c of asUtf8(from())) out.push(c);
  return Buffer.concat(out);
}

/** `bytes` cut at the given offsets (sorted, deduplicated, in range). */
function cut(bytes: Buffer, at: number[]): Buffer[] {
  const points = [...new Set(at.map((a) => a % (bytes.length + 1)))].sort((a, b) => a - b);
  const parts: Buffer[] = [];
  let from = 0;
  for (const p of [...points, bytes.length]) {
    if (p > from) parts.push(bytes.subarray(from, p));
    from = Math.max(from, p);
  }
  return parts;
}

function utf16be(text: string): Buffer {
  const le = Buffer.from(text, 'utf16le');
  for (let i = 0; i + 1 < le.length; i += 2) [le[i], le[i + 1]] = [le[i + 1]!, le[i]!];
  return le;
}

const text = fc.string({ unit: fc.constantFrom('a', ',', '\n', '"', 'é', '€', '😀', '\u0000', 'ÿ') });

describe('utf16Encoding', () => {
  it('names the encoding of a UTF-16 BOM only', () => {
    expect(utf16Encoding(Buffer.from([0xff, 0xfe, 0x41, 0]))).toBe('utf-16le');
    expect(utf16Encoding(Buffer.from([0xfe, 0xff, 0, 0x41]))).toBe('utf-16be');
    expect(utf16Encoding(Buffer.from([0xef, 0xbb, 0xbf]))).toBeNull();
    expect(utf16Encoding(Buffer.from([0xff]))).toBeNull();
    expect(utf16Encoding(Buffer.from('host,url'))).toBeNull();
  });
});

describe('asUtf8', () => {
  it('transcodes UTF-16 (LE and BE, BOM dropped) cut anywhere, even inside a surrogate pair', async () => {
    await fc.assert(
      fc.asyncProperty(text, fc.array(fc.nat(), { maxLength: 6 }), fc.boolean(), async (t, at, le) => {
        const bytes = le
          ? Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(t, 'utf16le')])
          : Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(t)]);
        expect((await collect(cut(bytes, at))).toString('utf8')).toBe(t);
      }),
    );
  });

  it('passes any other bytes through unchanged, a lone first byte included', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 40 }),
        fc.array(fc.nat(), { maxLength: 4 }),
        async (raw, at) => {
          const bytes = Buffer.from(raw);
          fc.pre(utf16Encoding(bytes) === null);
          expect((await collect(cut(bytes, at))).equals(bytes)).toBe(true);
        },
      ),
    );
    expect((await collect([Buffer.from([0xff])])).equals(Buffer.from([0xff]))).toBe(true);
  });
});
