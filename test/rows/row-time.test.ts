import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTime, parseTimeIn } from '../../src/rows/row-time.js';

const T = Date.UTC(2024, 0, 31, 23, 59, 59);

describe('parseTime', () => {
  it('reads every documented form of one instant', () => {
    const forms = [
      '2024-01-31T23:59:59Z',
      '2024-01-31T23:59:59.000Z',
      '2024-01-31 23:59:59',
      '2024-01-31T23:59:59',
      '2024-01-31t23:59:59z',
      '2024-02-01T01:59:59+02:00',
      '2024-01-31T18:59:59-0500',
      '  2024-01-31T23:59:59Z  ',
      '1706745599',
      '1706745599000',
      '1706745599.0',
      '20240131235959',
      '31/Jan/2024:23:59:59 +0000',
      '[01/Feb/2024:00:59:59 +0100]',
      '31/Jan/2024:15:59:59 -0800',
      'Wed, 31 Jan 2024 23:59:59 GMT',
      '31 Jan 2024 23:59:59 GMT',
      // PostgreSQL's timestamptz text: an offset of hours only.
      '2024-01-31 23:59:59+00',
      '2024-02-01 01:59:59+02',
      '2024-01-31 18:59:59.000-05',
      // BigQuery's and Presto's text: a zone name.
      '2024-01-31 23:59:59 UTC',
      '2024-01-31 23:59:59.000000 UTC',
      '2024-01-31T23:59:59GMT',
      // HTTP-date's obsolete forms (RFC 9110 §5.6.7): RFC 850, asctime.
      'Wednesday, 31-Jan-24 23:59:59 GMT',
      'Wed Jan 31 23:59:59 2024',
    ];
    for (const f of forms) expect(parseTime(f), f).toBe(T);
  });

  it('reads a run of canonical times, dates repeated or not, valid or not, as the calendar has them (property)', () => {
    const pad = (n: number, w: number) => String(n).padStart(w, '0');
    const timeArb = fc.record({
      y: fc.integer({ min: 1999, max: 2001 }),
      mo: fc.integer({ min: 1, max: 12 }),
      d: fc.integer({ min: 27, max: 31 }),
      h: fc.integer({ min: 0, max: 24 }),
      mi: fc.integer({ min: 0, max: 59 }),
      s: fc.integer({ min: 0, max: 59 }),
      ms: fc.option(fc.integer({ min: 0, max: 999 })),
    });
    fc.assert(
      fc.property(fc.array(timeArb, { minLength: 1, maxLength: 12 }), (times) => {
        for (const { y, mo, d, h, mi, s, ms } of times) {
          const text = `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}T${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}${ms === null ? '' : `.${pad(ms, 3)}`}Z`;
          const t = Date.UTC(y, mo - 1, d, h, mi, s, ms ?? 0);
          const valid = h < 24 && new Date(Date.UTC(y, mo - 1, d)).getUTCDate() === d;
          expect(parseTimeIn(`x,${text},y`, 2, 2 + text.length), text).toBe(valid ? t : Number.NaN);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('reads a cell in place within a longer text as it reads the cell alone', () => {
    const cells = [
      '2024-01-31T23:59:59Z',
      '2024-01-31T23:59:59.123Z',
      '2024-01-31T23:59:59.1x3Z',
      ' 1706745599',
      'x',
    ];
    for (const cell of cells) {
      const text = `host,${cell},url`;
      expect(parseTimeIn(text, 5, 5 + cell.length), cell).toBe(parseTime(cell));
      // The text around the cell is not read: a canonical-looking end beyond it changes nothing.
      expect(parseTimeIn(`${text}Z`, 5, 5 + cell.length), cell).toBe(parseTime(cell));
    }
    expect(parseTimeIn('1706745599', 0, 10, 'epoch-ms')).toBe(1706745599);
  });

  it('keeps fractions to the millisecond, and reads a date alone as its midnight UTC', () => {
    expect(parseTime('2024-01-31T23:59:59.123456Z')).toBe(T + 123);
    expect(parseTime('2024-01-31T23:59:59,5Z')).toBe(T + 500);
    expect(parseTime('2024-01-31')).toBe(Date.UTC(2024, 0, 31));
    expect(parseTime('1706745599.25')).toBe(T + 250);
  });

  it('reads an RFC 850 two-digit year as 2000–2069 or 1970–1999, whenever the audit runs', () => {
    expect(parseTime('Sunday, 06-Nov-94 08:49:37 GMT')).toBe(Date.UTC(1994, 10, 6, 8, 49, 37));
    expect(parseTime('Thursday, 01-Jan-70 00:00:00 GMT')).toBe(0);
    expect(parseTime('Friday, 31-Dec-69 23:59:59 GMT')).toBe(Date.UTC(2069, 11, 31, 23, 59, 59));
    expect(parseTime('Sun Nov  6 08:49:37 1994')).toBe(Date.UTC(1994, 10, 6, 8, 49, 37));
  });

  it('reads epoch numbers as the format says when it is forced', () => {
    expect(parseTime('1706745599', 'epoch-s')).toBe(T);
    expect(parseTime('1706745599', 'epoch-ms')).toBe(1706745599);
    expect(parseTime('20240131235959', 'epoch-s')).toBe(20240131235959000);
    expect(parseTime('2024-01-31T23:59:59Z', 'epoch-s')).toBeNaN();
  });

  it('refuses what is not a time, and impossible dates', () => {
    for (const bad of [
      '',
      '   ',
      'yesterday',
      '2024-02-30T00:00:00Z',
      '2024-13-01',
      '2024-01-31T24:00:00Z',
      '2024-01-31T23:59:59+25:00',
      '31/Foo/2024:23:59:59 +0000',
      '20241331235959x',
      '1e9',
      '0x10',
      'Wed, 31 Jan 2024 23:59:59 PST',
      '2024-01-31T23:59:59+2',
      '2024-01-31 23:59:59 PST',
      '2024-01-31T23:59:59+24',
      'Wednesday, 31-Jan-24 23:59:59 PST',
      'Wednesday, 31-Foo-24 23:59:59 GMT',
      'Wed Feb 30 23:59:59 2024',
    ]) {
      expect(parseTime(bad), bad).toBeNaN();
    }
  });

  it('reads an RFC 3339 time of any four-digit year as the calendar says, leap days included (property)', () => {
    const first = Date.parse('0000-01-01T00:00:00.000Z');
    const last = Date.parse('9999-12-31T23:59:59.999Z');
    fc.assert(
      fc.property(fc.integer({ min: first, max: last }), (ms) => {
        const iso = new Date(ms).toISOString();
        expect(parseTime(iso)).toBe(ms);
        expect(parseTime(`${iso.slice(0, 19)}Z`)).toBe(Math.floor(ms / 1000) * 1000);
        expect(parseTime(iso.replace('T', ' '))).toBe(ms);
      }),
      { numRuns: 2000 },
    );
    expect(parseTime('0050-03-01T00:00:00Z')).toBe(Date.parse('0050-03-01T00:00:00Z'));
    expect(parseTime('2000-02-29T00:00:00Z')).toBe(Date.UTC(2000, 1, 29));
    expect(parseTime('1900-02-29T00:00:00Z')).toBeNaN();
  });

  it('round-trips any instant through each form (property)', () => {
    const CLF_MONTHS = 'Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec'.split(' ');
    const pad = (n: number, w = 2) => String(n).padStart(w, '0');
    fc.assert(
      fc.property(
        // From 1974: epoch milliseconds before 1973-03-03 (< 1e11) read as seconds, as documented.
        fc.integer({ min: Date.UTC(1974, 0, 1), max: Date.UTC(2200, 0, 1) }),
        fc.integer({ min: -14 * 60, max: 14 * 60 }),
        (ms, offMin) => {
          const sec = Math.floor(ms / 1000) * 1000;
          const d = new Date(ms);
          expect(parseTime(d.toISOString())).toBe(ms);
          expect(parseTime(String(ms))).toBe(ms);
          expect(parseTime(String(sec / 1000))).toBe(sec);
          expect(parseTime(d.toUTCString())).toBe(sec);
          const s = new Date(sec);
          const digits = `${s.getUTCFullYear()}${pad(s.getUTCMonth() + 1)}${pad(s.getUTCDate())}${pad(s.getUTCHours())}${pad(s.getUTCMinutes())}${pad(s.getUTCSeconds())}`;
          expect(parseTime(digits)).toBe(sec);
          const local = new Date(sec + offMin * 60_000);
          const sign = offMin < 0 ? '-' : '+';
          const off = `${sign}${pad(Math.floor(Math.abs(offMin) / 60))}${pad(Math.abs(offMin) % 60)}`;
          const clf = `[${pad(local.getUTCDate())}/${CLF_MONTHS[local.getUTCMonth()]}/${local.getUTCFullYear()}:${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())} ${off}]`;
          expect(parseTime(clf)).toBe(sec);
        },
      ),
    );
  });
});
