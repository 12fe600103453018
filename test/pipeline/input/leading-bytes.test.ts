import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withLeadingBytes } from '../../../src/pipeline/input/leading-bytes.js';

async function collect(chunks: Buffer[], n: number): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for await (const c of withLeadingBytes(
    (async function* () {
      yield* chunks;
    })(),
    n,
  ))
    out.push(c);
  return out;
}

describe('withLeadingBytes', () => {
  it('passes the bytes unchanged, with a first chunk of at least n bytes (or all there are)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.uint8Array({ maxLength: 4 }), { maxLength: 6 }),
        fc.integer({ min: 1, max: 5 }),
        async (parts, n) => {
          const chunks = parts.map((p) => Buffer.from(p));
          const out = await collect(chunks, n);
          const all = Buffer.concat(chunks);
          expect(Buffer.concat(out)).toEqual(all);
          if (all.length > 0) expect(out[0]!.length).toBeGreaterThanOrEqual(Math.min(n, all.length));
        },
      ),
    );
  });

  it('yields nothing for an empty input, and later chunks as they come', async () => {
    expect(await collect([], 2)).toEqual([]);
    const out = await collect([Buffer.from('a'), Buffer.from('bc'), Buffer.from('d')], 2);
    expect(out.map(String)).toEqual(['abc', 'd']);
  });
});
