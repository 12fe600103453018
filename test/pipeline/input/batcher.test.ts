import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Batcher, MAX_PENDING_BYTES } from '../../../src/pipeline/input/batcher.js';
import { MAX_RECORD_BYTES, RecordScanner } from '../../../src/rows/record-scanner.js';

function scanAll(text: string): { text: string; kind: number }[] {
  const s = new RecordScanner();
  s.reset(text, text.length, 44, true);
  const out: { text: string; kind: number }[] = [];
  let p = 0;
  while (p < text.length) {
    s.scan(p);
    out.push({ text: text.slice(p, s.contentEnd), kind: s.kind });
    p = s.next;
  }
  return out;
}

function batches(input: Buffer, chunk: number, target: number): Buffer[] {
  const b = new Batcher(44, target);
  const out: Buffer[] = [];
  for (let i = 0; i < input.length; i += chunk) {
    // Copies, as the batcher's buffers are recycled only when given back.
    for (const x of b.push(input.subarray(i, i + chunk))) out.push(Buffer.from(x));
  }
  for (const x of b.end()) out.push(Buffer.from(x));
  return out;
}

describe('Batcher', () => {
  it('holds a line of exactly 64 MiB, and refuses one byte more with one clear error', () => {
    const chunk = Buffer.alloc(1 << 20, 0x61);
    /** Pushes `bytes` bytes of 'a'; returns the bytes of the batches it cut. */
    const fill = (b: Batcher, bytes: number) => {
      let out = 0;
      for (let n = 0; n < bytes; n += chunk.length) {
        for (const batch of b.push(chunk.subarray(0, Math.min(chunk.length, bytes - n)))) out += batch.length;
      }
      return out;
    };
    const sum = (batches: Buffer[]) => batches.reduce((n, b) => n + b.length, 0);
    const ok = new Batcher(44);
    let out = sum(ok.push(Buffer.from('x\n')));
    out += fill(ok, MAX_PENDING_BYTES - 1);
    out += sum(ok.push(Buffer.from('\n'))) + sum(ok.end());
    expect(out).toBe(2 + MAX_PENDING_BYTES);
    const tooLong = new Batcher(44);
    expect(() => fill(tooLong, MAX_PENDING_BYTES + 1)).toThrow(/longer than 64 MiB/);
  });

  it('a long record waiting for its line end is not rescanned per chunk (quadratic: 60 MiB took 60 s)', () => {
    const size = 8 << 20;
    const chunk = 64 << 10;
    for (const start of ['h,"', 'h,', '"x\ny",', 'a,"b\nc",d']) {
      const b = new Batcher(44);
      const head = Buffer.from(`a,b\n${start}`);
      const tail = Buffer.from('"\nz,z\n');
      const sum = (batches: Buffer[]) => batches.reduce((n, x) => n + x.length, 0);
      let out = sum(b.push(head));
      const body = Buffer.alloc(chunk, 0x61);
      for (let n = 0; n < size; n += chunk) out += sum(b.push(body));
      out += sum(b.push(tail)) + sum(b.end());
      expect(out, start).toBe(head.length + size + tail.length);
      // Each byte is looked at a bounded number of times, not once per chunk that follows it.
      expect(b.scannedBytes, start).toBeLessThan(4 * size);
    }
  });

  it('a quoted field that passes its bounds with no new line end still ends its record at the limit', () => {
    // The record ends at its first LF (malformed) once the second quote's field is past 64 KiB; its
    // second line, 4 bytes under the limit, is then a record of its own: nothing is too long.
    const b = new Batcher(44);
    const head = Buffer.from('a,"x\ny",,"');
    let out = b.push(head).reduce((n, x) => n + x.length, 0);
    const chunk = Buffer.alloc(1 << 20, 0x61);
    // First seen when its field is exactly at the 64 KiB bound: not yet malformed, so it waits.
    const first = MAX_RECORD_BYTES - head.length;
    for (const x of b.push(chunk.subarray(0, first))) out += x.length;
    let left = MAX_PENDING_BYTES - head.length - first;
    while (left > 0) {
      const n = Math.min(left, chunk.length);
      for (const x of b.push(chunk.subarray(0, n))) out += x.length;
      left -= n;
    }
    for (const x of [...b.push(Buffer.from('\n')), ...b.end()]) out += x.length;
    expect(out).toBe(MAX_PENDING_BYTES + 1);
  });

  it('cuts at the last line end of a quote-free batch', () => {
    const out = batches(Buffer.from('aaaa\nbbbb\ncccc\ndd'), 3, 6);
    expect(out.map((b) => b.toString())).toEqual(['aaaa\n', 'bbbb\n', 'cccc\n', 'dd']);
  });

  it('never cuts inside a quoted field', () => {
    const out = batches(Buffer.from('a,"x\ny\nz"\nb,c\n'), 2, 4);
    expect(out.map((b) => b.toString())).toEqual(['a,"x\ny\nz"\n', 'b,c\n']);
  });

  it('hands out buffers over their own ArrayBuffer at offset 0 (transferable)', () => {
    const b = new Batcher(44, 8);
    const [first] = b.push(Buffer.from('abcdefgh\nij\n'));
    expect(first!.byteOffset).toBe(0);
    expect(first!.buffer.byteLength).toBeGreaterThanOrEqual(first!.length);
  });

  // Property: whatever the chunking, batches concatenate to the input, and scanning each batch on its
  // own finds exactly the records a scan of the whole input finds (workers and the cutter agree).
  it('keeps records whole for random CSV, chunk sizes and batch sizes', () => {
    const unit = fc.constantFrom('a', 'b', ',', '"', '\n', '\r\n', 'é', ' ');
    fc.assert(
      fc.property(
        fc.string({ unit, maxLength: 200 }),
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 1, max: 40 }),
        (text, chunk, target) => {
          const input = Buffer.from(text, 'latin1');
          const out = batches(input, chunk, target);
          expect(Buffer.concat(out).equals(input)).toBe(true);
          const per = out.flatMap((b) => scanAll(b.toString('latin1')));
          expect(per).toEqual(scanAll(text));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
