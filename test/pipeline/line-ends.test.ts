import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crToLf, lineEndStyle } from '../../src/pipeline/line-ends.js';

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
