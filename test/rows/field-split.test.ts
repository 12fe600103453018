import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FieldSplitter } from '../../src/rows/field-split.js';

describe('FieldSplitter', () => {
  it('finds the wanted fields and counts all of them', () => {
    const sp = new FieldSplitter();
    const text = 'x\na,b,,d\nz';
    sp.reset(text, ',');
    sp.split(2, 8, 1, 3);
    expect(sp.count).toBe(4);
    expect(text.slice(sp.aStart, sp.aEnd)).toBe('b');
    expect(text.slice(sp.bStart, sp.bEnd)).toBe('d');
    sp.split(9, 10, 1, 0);
    expect(sp.count).toBe(1);
    expect(sp.aStart).toBe(-1);
    expect(text.slice(sp.bStart, sp.bEnd)).toBe('z');
  });

  it('lists field starts', () => {
    const sp = new FieldSplitter();
    sp.reset('a,bc,,d', ',');
    expect(sp.fieldStarts(0, 7)).toEqual([0, 2, 5, 6]);
  });
});

// Property: the hand split equals csv-parse for every record without quotes (csv-parse is the authority).
const plainField = fc.string({
  unit: fc.constantFrom('a', 'B', '1', ' ', '/', '?', '=', '&', '%', 'é', '\t', ';'),
  maxLength: 10,
});

describe('FieldSplitter agrees with csv-parse on quote-free records', () => {
  it('for random lines, delimiters and wanted columns', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(plainField, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 10 }),
        fc.constantFrom(',', ';', '|'),
        fc.nat(6),
        fc.nat(6),
        (rows, d, a, b) => {
          fc.pre(a !== b);
          const lines = rows.map((r) => r.join(d)).filter((l) => l !== '');
          fc.pre(lines.length > 0);
          const text = lines.join('\n');
          const want = parse(text, { delimiter: d, relax_column_count: true }) as string[][];
          const sp = new FieldSplitter();
          sp.reset(text, d);
          let p = 0;
          lines.forEach((line, i) => {
            sp.split(p, p + line.length, a, b);
            expect(sp.count).toBe(want[i]!.length);
            expect(sp.aStart < 0 ? undefined : text.slice(sp.aStart, sp.aEnd)).toBe(want[i]![a]);
            expect(sp.bStart < 0 ? undefined : text.slice(sp.bStart, sp.bEnd)).toBe(want[i]![b]);
            p += line.length + 1;
          });
        },
      ),
      { numRuns: 500 },
    );
  });
});
