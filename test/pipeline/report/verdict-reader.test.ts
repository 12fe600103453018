import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NameIndex, RowView, readVerdicts } from '../../../src/pipeline/report/verdict-reader.js';

let dir: string;
let n = 0;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'verdict-reader-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Every record's first `width` fields as the reader hands them over (latin1 views decoded), and the bad ones. */
async function read(
  text: string,
  width: number,
  delimiter = ',',
): Promise<{ rows: string[][]; bad: string[] }> {
  const p = path.join(dir, `f${n++}.csv`);
  writeFileSync(p, text);
  const rows: string[][] = [];
  const bad: string[] = [];
  await readVerdicts(p, { delimiter, urlColumn: 'url', hostColumn: 'host' }, () => ({
    width,
    sink: {
      row: (v) => {
        const fields: string[] = [];
        for (let i = 0; i < width; i++) fields.push(Buffer.from(v.get(i), 'latin1').toString('utf8'));
        rows.push(fields);
      },
      bad: (reason) => bad.push(reason),
    },
  }));
  return { rows, bad };
}

/** A field as a CSV writer writes it: quoted when it holds a delimiter, quote or line break (or at random). */
function csvField(value: string, quote: boolean, delimiter: string): string {
  const needs =
    value.includes(delimiter) || value.includes('"') || value.includes('\n') || value.includes('\r');
  return needs || quote ? `"${value.replaceAll('"', '""')}"` : value;
}

describe('readVerdicts', () => {
  it('splits records, quoted or not, as csv-parse reads them', async () => {
    const field = fc.tuple(fc.stringMatching(/^[a-z ,;"\n\u00e9/:]{0,8}$/), fc.boolean());
    const record = fc.array(field, { minLength: 4, maxLength: 4 });
    await fc.assert(
      fc.asyncProperty(
        fc.array(record, { minLength: 1, maxLength: 8 }),
        fc.constantFrom(',', ';'),
        fc.constantFrom('\n', '\r\n'),
        async (records, d, eol) => {
          const lines = records.map((r) => r.map(([v, q]) => csvField(v, q, d)).join(d));
          // A record of one empty unquoted field is a blank line, which the reader skips.
          const text = `url${d}b${d}c${d}verdict${eol}${lines.join(eol)}${eol}`;
          const expected = (parse(text, { delimiter: d, relax_column_count: true }) as string[][]).slice(1);
          const got = await read(text, 4, d);
          expect(got.bad).toEqual([]);
          expect(got.rows).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('reads a header after a sep= line, a BOM and CRLF line ends, and keeps fields past `width` unsplit', async () => {
    const text = '\ufeffsep=;\r\nurl;verdict;x\r\nhttps://a.example/;allowed_implicit;1;2;3\r\n';
    expect((await read(text, 2, ',')).rows).toEqual([['https://a.example/', 'allowed_implicit']]);
  });

  it('counts short rows and unterminated quotes apart', async () => {
    const text = 'url,verdict\nhttps://a.example/\n"https://a.example/,x\nhttps://b.example/,y\n';
    const got = await read(text, 2);
    expect(got.rows).toEqual([['https://b.example/', 'y']]);
    expect(got.bad).toEqual(['short_row', 'malformed_record']);
  });

  it('reads text after a closing quote as csv-parse does, with relax_quotes', async () => {
    const got = await read('url,verdict\n"a"b,c\n', 2);
    expect(got.rows).toEqual([['"a"b', 'c']]);
  });
});

describe('RowView, read in place', () => {
  /** A view of one record's fields laid out in `text` at the given offsets. */
  function viewOf(fields: readonly string[]): RowView {
    const v = new RowView(fields.length);
    v.text = fields.join(',');
    let at = 0;
    fields.forEach((f, i) => {
      v.starts[i] = at;
      v.ends[i] = at + f.length;
      at += f.length + 1;
    });
    return v;
  }

  const names = [
    'allowed_explicit',
    'allowed_implicit',
    'not_cached',
    'no_history',
    // Same length and same char at 8 as the one before: the index must fall back to comparing each.
    'xxxxxxxxeeeeeee',
    'yyyyyyyyeeeeeee',
    'a',
    'z'.repeat(40),
  ];
  const index = new NameIndex(names);
  const field = fc.oneof(
    fc.constantFrom(...names),
    fc.constantFrom(...names).map((n) => `${n.slice(0, -1)}!`),
    fc.string({ maxLength: 45 }).map((s) => s.replace(/,/g, ';')),
  );

  it('finds a name through its index exactly as by comparing each', () => {
    fc.assert(
      fc.property(fc.array(field, { minLength: 1, maxLength: 4 }), (fields) => {
        const v = viewOf(fields);
        fields.forEach((f, i) => {
          expect(v.matchIndexed(i, index)).toBe(names.indexOf(f));
          expect(v.match(i, names)).toBe(names.indexOf(f));
        });
      }),
    );
  });

  it('compares, hashes and fingerprints fields without copying them, as their copies would', () => {
    fc.assert(
      fc.property(
        fc.array(field, { minLength: 3, maxLength: 3 }),
        fc.string({ maxLength: 20 }),
        (fields, s) => {
          const v = viewOf(fields);
          const copy = new RowView(3);
          copy.fields = [...fields];
          for (let i = 0; i < 3; i++) {
            expect(v.equals(i, fields[i]!)).toBe(true);
            expect(v.equals(i, s)).toBe(fields[i] === s);
            expect(v.empty(i)).toBe(fields[i] === '');
            expect(v.hash(i)).toBe(copy.hash(i));
          }
          const a = new Int32Array(2);
          const b = new Int32Array(2);
          v.fingerprint(0, 1, 2, 7, 9, a);
          copy.fingerprint(0, 1, 2, 7, 9, b);
          expect([...a]).toEqual([...b]);
          // Fields are kept apart: moving a char from one field to the next changes the fingerprint.
          if (fields[0]!.length > 0) {
            const moved = viewOf([fields[0]!.slice(0, -1), fields[0]!.slice(-1) + fields[1], fields[2]!]);
            moved.fingerprint(0, 1, 2, 7, 9, b);
            expect([...a]).not.toEqual([...b]);
          }
        },
      ),
    );
  });
});
