import { describe, expect, it } from 'vitest';
import { binaryToText, bytesToBinary, isAscii, toBinary } from '../../src/core/bytes.js';

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
});
