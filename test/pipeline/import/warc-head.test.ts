import { describe, expect, it } from 'vitest';
import { parseTargetUri, parseWarcDate } from '../../../src/pipeline/import/warc-head.js';

describe('parseWarcDate', () => {
  it('reads WARC 1.0 seconds, WARC 1.1 fractions and offsets', () => {
    const t = Date.UTC(2024, 0, 31, 23, 59, 59);
    expect(parseWarcDate('2024-01-31T23:59:59Z')).toBe(t);
    expect(parseWarcDate(' 2024-01-31T23:59:59.123456Z ')).toBe(t + 123);
    expect(parseWarcDate('2024-02-01T00:59:59+01:00')).toBe(t);
    expect(parseWarcDate('2024-01-31T23:59Z')).toBe(t - 59_000);
  });

  it('refuses what is not a W3C-DTF time, and impossible dates', () => {
    for (const bad of [
      undefined,
      '',
      '20240131235959',
      '2024-01-31 23:59:59Z',
      '2024-02-30T00:00:00Z',
      '2023-02-29T12:00:00Z',
      '2024-01-31T25:00:00Z',
    ])
      expect(parseWarcDate(bad), String(bad)).toBeNull();
  });
});

describe('parseTargetUri', () => {
  it('takes a URI with or without the angle brackets WARC/1.0 writers put around it, without its fragment', () => {
    expect(parseTargetUri('<http://a.example/robots.txt>')?.href).toBe('http://a.example/robots.txt');
    expect(parseTargetUri('https://a.example/robots.txt#x')?.href).toBe('https://a.example/robots.txt');
    expect(parseTargetUri('dns:a.example')).toBeNull();
    expect(parseTargetUri('not a uri')).toBeNull();
  });
});
