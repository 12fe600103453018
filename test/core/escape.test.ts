import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toBinary } from '../../src/core/bytes.js';
import { escapePattern } from '../../src/core/escape.js';

const esc = (s: string) => escapePattern(toBinary(s));

describe('escapePattern (MaybeEscapePattern)', () => {
  // Source: google/robotstxt robots_test.cc, TestMaybeEscapePattern.
  it('matches the reference examples', () => {
    expect(esc('http://www.example.com')).toBe('http://www.example.com');
    expect(esc('/a/b/c')).toBe('/a/b/c');
    expect(esc('á')).toBe('%C3%A1');
    expect(esc('%aa')).toBe('%AA');
  });

  it('upper-cases only complete %xx escapes', () => {
    expect(esc('/%2f%2F%e3%83%84')).toBe('/%2F%2F%E3%83%84');
    expect(esc('%a')).toBe('%a');
    expect(esc('%')).toBe('%');
    expect(esc('%zz%4g')).toBe('%zz%4g');
    expect(esc('%%aa')).toBe('%%AA');
  });

  it('escapes every byte >= 0x80 with upper-case hex, keeping other bytes', () => {
    expect(esc('/Sanjosé')).toBe('/Sanjos%C3%A9');
    expect(escapePattern('\x80\xff\x7f')).toBe('%80%FF\x7f');
    expect(esc('%é')).toBe('%%C3%A9');
  });

  it('always returns ASCII and is idempotent', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const once = esc(s);
        expect(/^[\x00-\x7f]*$/.test(once)).toBe(true);
        expect(escapePattern(once)).toBe(once);
      }),
    );
  });
});
