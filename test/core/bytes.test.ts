import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { binaryToText, bytesToBinary, isAscii, isLatin1, ownString, toBinary } from '../../src/core/bytes.js';
import { usedAfterGc } from '../helpers/heap.js';

const all = Uint8Array.from({ length: 256 }, (_, i) => i);

describe('toBinary', () => {
  it('maps every byte to the char of the same code (latin1, not windows-1252)', () => {
    const bin = bytesToBinary(all);
    expect(bin.length).toBe(256);
    for (let i = 0; i < 256; i++) expect(bin.charCodeAt(i)).toBe(i);
  });

  it('gives the same result for a Node Buffer (native path) and a plain Uint8Array', () => {
    const big = Uint8Array.from({ length: 20_000 }, (_, i) => (i * 7919) & 255);
    expect(bytesToBinary(Buffer.from(big))).toBe(bytesToBinary(big));
    expect(bytesToBinary(Buffer.from(all))).toBe(bytesToBinary(all));
  });

  it('treats a string as its UTF-8 bytes', () => {
    expect(toBinary('abc')).toBe('abc');
    expect(toBinary('é')).toBe('\xc3\xa9');
    expect(toBinary('ツ')).toBe('\xe3\x83\x84');
    // A lone surrogate has no UTF-8 form: it becomes U+FFFD, as TextEncoder does.
    expect(toBinary('a\ud800b')).toBe('a\xef\xbf\xbdb');
  });

  it('returns an empty string for a non-byte input (total, never throws)', () => {
    expect(toBinary(42 as unknown as string)).toBe('');
  });
});

describe('binaryToText', () => {
  it('decodes UTF-8 and replaces invalid sequences', () => {
    expect(binaryToText('/caf\xc3\xa9')).toBe('/café');
    expect(binaryToText('/\xff')).toBe('/\ufffd');
    expect(binaryToText('plain')).toBe('plain');
  });

  it('isAscii looks at every code unit', () => {
    expect(isAscii('')).toBe(true);
    expect(isAscii('\x00\x7f')).toBe(true);
    expect(isAscii('a\x80')).toBe(false);
  });

  it('isAscii is exact on long texts too, whatever the non-ASCII unit and where it is', () => {
    const long = 'Disallow: /a\n'.repeat(40);
    expect(isAscii(long)).toBe(true);
    expect(isAscii(`${long}\x7f`)).toBe(true);
    for (const odd of ['\x80', '\xff', '\u0100', '\u20ac', '\ud83d', '\ude00', '\ud83d\ude00']) {
      expect(isAscii(`${odd}${long}`)).toBe(false);
      expect(isAscii(`${long.slice(0, 100)}${odd}${long.slice(100)}`)).toBe(false);
      expect(isAscii(`${long}${odd}`)).toBe(false);
    }
  });
});

/** Slices of `count` distinct 512 KiB strings (each slice long enough to be a V8 sliced string). */
function slicesOfBigStrings(count: number, own: boolean): string[] {
  const kept: string[] = [];
  for (let i = 0; i < count; i++) {
    const big = `${i}:${Buffer.alloc(512 * 1024, 97 + (i % 26)).toString('latin1')}`;
    const host = big.slice(10, 40);
    kept.push(own ? ownString(host) : host);
  }
  return kept;
}

describe('ownString', () => {
  it('returns an equal string', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.nat(), fc.nat(), (s, a, b) => {
        const part = s.slice(Math.min(a, b) % (s.length + 1), Math.max(a, b) % (s.length + 1));
        expect(ownString(part)).toBe(part);
      }),
    );
  });

  it('does not keep alive the string it was sliced from (a host must not hold its whole batch)', () => {
    const base = usedAfterGc();
    const sliced = slicesOfBigStrings(40, false);
    const withParents = usedAfterGc() - base;
    sliced.length = 0;
    const base2 = usedAfterGc();
    const owned = slicesOfBigStrings(40, true);
    const withoutParents = usedAfterGc() - base2;
    expect(owned).toHaveLength(40);
    expect(withParents).toBeGreaterThan(40 * 400 * 1024); // the control: plain slices do retain
    expect(withoutParents).toBeLessThan(1024 * 1024);
  });
});

describe('isLatin1', () => {
  it('is true exactly when no code unit is above 0xFF', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(isLatin1(s)).toBe([...s].every((c) => c.charCodeAt(0) <= 0xff));
      }),
    );
    expect(isLatin1('café')).toBe(true);
    expect(isLatin1('€')).toBe(false);
  });
});
