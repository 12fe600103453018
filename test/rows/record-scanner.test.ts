import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  KIND_BLANK,
  KIND_MALFORMED,
  KIND_PLAIN,
  KIND_QUOTED,
  MAX_RECORD_BYTES,
  MAX_RECORD_LINES,
  RecordScanner,
} from '../../src/rows/record-scanner.js';

interface Rec {
  text: string;
  kind: number;
}

/** Every record of `text` (blank lines included, as kind BLANK), scanned as one whole input. */
function records(text: string, delimiter = ','): Rec[] {
  const s = new RecordScanner();
  s.reset(text, text.length, delimiter.charCodeAt(0), true);
  const out: Rec[] = [];
  let p = 0;
  while (p < text.length) {
    expect(s.scan(p)).toBe(true);
    out.push({ text: text.slice(p, s.contentEnd), kind: s.kind });
    expect(s.next).toBeGreaterThan(p);
    p = s.next;
  }
  return out;
}

describe('RecordScanner', () => {
  it('ends records at LF and CRLF, and reports blank lines', () => {
    expect(records('a,b\r\nc,d\n\n\r\ne,f')).toEqual([
      { text: 'a,b', kind: KIND_PLAIN },
      { text: 'c,d', kind: KIND_PLAIN },
      { text: '', kind: KIND_BLANK },
      { text: '', kind: KIND_BLANK },
      { text: 'e,f', kind: KIND_PLAIN },
    ]);
  });

  it('keeps quoted line breaks, delimiters and doubled quotes inside one record', () => {
    expect(records('h,"a\nb, ""c"""\nx,y\n')).toEqual([
      { text: 'h,"a\nb, ""c"""', kind: KIND_QUOTED },
      { text: 'x,y', kind: KIND_PLAIN },
    ]);
  });

  it('treats a quote inside an unquoted field as text (csv-parse relax_quotes)', () => {
    expect(records('h,https://a.example/x"y\nz,w\n')).toEqual([
      { text: 'h,https://a.example/x"y', kind: KIND_QUOTED },
      { text: 'z,w', kind: KIND_PLAIN },
    ]);
  });

  it('turns a field back into text after a closing quote followed by other characters', () => {
    expect(records('"ab"c,d\ne,f\n').map((r) => r.text)).toEqual(['"ab"c,d', 'e,f']);
  });

  it('makes an unterminated quote at the end of input one malformed line, then resumes', () => {
    expect(records('a,"b\nc,d\ne,f')).toEqual([
      { text: 'a,"b', kind: KIND_MALFORMED },
      { text: 'c,d', kind: KIND_PLAIN },
      { text: 'e,f', kind: KIND_PLAIN },
    ]);
  });

  it('bounds a quoted field by lines: past the bound the record is its first line', () => {
    const lines = Array.from({ length: MAX_RECORD_LINES + 2 }, (_, i) => `l${i}`).join('\n');
    const text = `a,"${lines}"\nz,z\n`;
    const recs = records(text);
    expect(recs[0]).toEqual({ text: 'a,"l0', kind: KIND_MALFORMED });
    expect(recs.at(-1)).toEqual({ text: 'z,z', kind: KIND_PLAIN });
    expect(recs).toHaveLength(MAX_RECORD_LINES + 3);
  });

  it('bounds a quoted field by bytes', () => {
    const text = `a,"${'x'.repeat(MAX_RECORD_BYTES)}\n"\nb,c\n`;
    const recs = records(text);
    // The long line is malformed; so is the lone `"` line after it (unterminated); `b,c` survives.
    expect(recs.map((r) => r.kind)).toEqual([KIND_MALFORMED, KIND_MALFORMED, KIND_PLAIN]);
    expect(recs.at(-1)!.text).toBe('b,c');
  });

  it('asks for more input instead of deciding early', () => {
    const s = new RecordScanner();
    const text = 'a,"b\nc';
    s.reset(text, text.length, 44, false);
    expect(s.scan(0)).toBe(false);
    expect(s.lastBoundary(0)).toBe(0);
    const more = 'a,"b\nc"\nd,e\nf';
    s.reset(more, more.length, 44, false);
    expect(s.lastBoundary(0)).toBe('a,"b\nc"\nd,e\n'.length);
  });

  it('honours other delimiters (tab)', () => {
    expect(records('a\t"b\tc"\td\n', '\t')).toEqual([{ text: 'a\t"b\tc"\td', kind: KIND_QUOTED }]);
  });
});

const field = fc.string({
  unit: fc.constantFrom('a', 'b', 'Z', '0', ' ', ',', '"', '\n', '\r', ';', 'é', '/', '?'),
  maxLength: 12,
});
/** RFC 4180 writer (csv-stringify leaves a bare LF unquoted when the record delimiter is CRLF). */
const rfc4180 = (rows: string[][], eol: string) =>
  rows
    .map((r) => r.map((f) => (/[",\r\n]/.test(f) ? `"${f.replaceAll('"', '""')}"` : f)).join(','))
    .join(eol) + eol;

const table = fc.array(fc.array(field, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 20 });

describe('RecordScanner agrees with csv-parse on well-formed CSV', () => {
  it('for random RFC 4180 tables (LF and CRLF)', () => {
    fc.assert(
      fc.property(table, fc.constantFrom('\n', '\r\n'), fc.boolean(), (rows, eol, trailing) => {
        // A lone empty field is written as an empty line, which is a blank line, not a record.
        const kept = rows.filter((r) => !(r.length === 1 && r[0] === ''));
        let csv = kept.length === 0 ? '' : rfc4180(kept, eol);
        if (!trailing) csv = csv.slice(0, csv.length - eol.length);
        const want =
          csv === '' ? [] : (parse(csv, { relax_column_count: true, skip_empty_lines: true }) as string[][]);
        const got = records(csv).filter((r) => r.kind !== KIND_BLANK);
        expect(got.map((r) => r.kind)).not.toContain(KIND_MALFORMED);
        expect(got).toHaveLength(want.length);
        got.forEach((r, i) => {
          const one = parse(r.text, { relax_column_count: true, record_delimiter: '\n' }) as string[][];
          expect(one, r.text).toEqual([want[i]]);
        });
      }),
      { numRuns: 500 },
    );
  });
});
