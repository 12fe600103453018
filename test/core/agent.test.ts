import { describe, expect, it } from 'vitest';
import {
  asciiLower,
  extractProductToken,
  isGlobalAgent,
  isGlobalAgentAt,
  keyOfAgentValue,
  normalizeAgent,
} from '../../src/core/agent.js';

describe('normalizeAgent', () => {
  it('drops a /version suffix and surrounding whitespace', () => {
    expect(normalizeAgent('MyBot/2.1')).toBe('MyBot');
    expect(normalizeAgent('  Googlebot  ')).toBe('Googlebot');
    expect(normalizeAgent(' Foo / 1 ')).toBe('Foo');
    expect(normalizeAgent('Googlebot-Image')).toBe('Googlebot-Image');
    expect(normalizeAgent('')).toBe('');
  });
});

describe('extractProductToken (ExtractUserAgent)', () => {
  it('keeps the leading run of [a-zA-Z_-]', () => {
    expect(extractProductToken('Googlebot/2.1')).toBe('Googlebot');
    expect(extractProductToken('Foo Bar')).toBe('Foo');
    expect(extractProductToken('Foo_Bar-Baz9')).toBe('Foo_Bar-Baz');
    expect(extractProductToken('*Foo')).toBe('');
    expect(extractProductToken('ツbot')).toBe('');
    expect(extractProductToken('')).toBe('');
  });
});

describe('isGlobalAgent', () => {
  it('is `*` alone or followed by whitespace (Google-specific)', () => {
    expect(isGlobalAgent('*')).toBe(true);
    expect(isGlobalAgent('* foo')).toBe(true);
    expect(isGlobalAgent('*\tfoo')).toBe(true);
    expect(isGlobalAgent('*\vfoo')).toBe(true);
    expect(isGlobalAgent('*foo')).toBe(false);
    expect(isGlobalAgent('**')).toBe(false);
    expect(isGlobalAgent('')).toBe(false);
  });
});

describe('asciiLower', () => {
  it('folds ASCII letters only (absl::EqualsIgnoreCase)', () => {
    expect(asciiLower('GoogleBot')).toBe('googlebot');
    expect(asciiLower('already')).toBe('already');
    // U+212A KELVIN SIGN lower-cases to ASCII 'k' in Unicode; the reference does not fold it.
    expect(asciiLower('\u212Aey')).toBe('\u212Aey');
    expect(asciiLower('ÄB')).toBe('Äb');
    expect(asciiLower('Zé\u212AX')).toBe('zé\u212Ax');
    expect(asciiLower('GoogleBot-Image')).toBe('googlebot-image');
    expect(asciiLower('googlebot é')).toBe('googlebot é');
  });
});

describe('keyOfAgentValue', () => {
  const keys = ['googlebot', 'googlebot-image', 'k', ''];
  const key = (line: string) => keyOfAgentValue(`x:${line}#`, 2, line.length + 2, keys);

  it('finds the key the value’s product token is, ignoring ASCII case, in place', () => {
    expect(key('GoogleBot/2.1 (+http://x)')).toBe('googlebot');
    expect(key('Googlebot-Image')).toBe('googlebot-image');
    expect(key('K')).toBe('k');
    expect(key('/1.0')).toBe('');
    expect(key('Googlebo')).toBeUndefined();
    expect(key('Googlebot_x')).toBeUndefined();
    // Only ASCII folds: U+212A KELVIN SIGN is not 'k', and the token stops before it.
    expect(key('\u212A')).toBe('');
    expect(keyOfAgentValue('Bingbot', 0, 7, keys)).toBeUndefined();
  });

  it('agrees with isGlobalAgent on a value in place', () => {
    for (const v of ['*', '* x', '*\t', '*x', 'x*', ''])
      expect(isGlobalAgentAt(`:${v}:`, 1, v.length + 1)).toBe(isGlobalAgent(v));
  });
});
