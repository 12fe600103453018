import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crToLf, lineEndStyle, withLfLines } from '../../../src/pipeline/input/line-ends.js';

const b = (s: string) => Buffer.from(s, 'latin1');

describe('lineEndStyle', () => {
  it.each([
    ['a,b\nc', false, 'lf'],
    ['a,b\r\nc', false, 'lf'],
    ['a,b\rc', false, 'cr'],
    ['a,b\r', false, undefined], // the next byte may be an LF
    ['a,b\r', true, 'cr'],
    ['a,b', false, undefined],
    ['a,b', true, 'lf'],
    ['', true, 'lf'],
  ] as const)('%j (eof %s) → %s', (text, eof, style) => {
    expect(lineEndStyle(b(text), eof)).toBe(style);
  });
});

describe('crToLf', () => {
  it('turns every CR into LF, leaves the rest and its input alone', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', ',', '"', '\r', '\n', 'é') }), (text) => {
        const input = Buffer.from(text);
        const before = Buffer.from(input);
        const out = crToLf(input);
        expect(out.toString()).toBe(text.replaceAll('\r', '\n'));
        expect(input.equals(before)).toBe(true);
      }),
    );
  });
});

describe('withLfLines', () => {
  it('gives the whole input with LF line ends when its first line end is a lone CR, else unchanged, however cut', async () => {
    const text = fc.string({ unit: fc.constantFrom('a', ',', '\r', '\n') });
    await fc.assert(
      fc.asyncProperty(text, fc.array(fc.nat(), { maxLength: 5 }), async (t, at) => {
        const whole = Buffer.from(t);
        const cuts = [...new Set(at.map((a) => a % (whole.length + 1)))].sort((x, y) => x - y);
        const parts = [0, ...cuts, whole.length]
          .slice(1)
          .map((end, k, ends) => whole.subarray(k === 0 ? 0 : ends[k - 1]!, end));
        async function* from() {
          yield* parts;
        }
        const out: Buffer[] = [];
        for await (const c of withLfLines(from())) out.push(c);
        const expected = lineEndStyle(whole, true) === 'cr' ? crToLf(whole) : whole;
        expect(Buffer.concat(out).equals(expected)).toBe(true);
      }),
    );
  });
});
