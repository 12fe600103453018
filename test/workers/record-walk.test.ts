import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KIND_BLANK, RecordScanner } from '../../src/rows/record-scanner.js';
import { BatchRows } from '../../src/workers/batch-rows.js';
import { RecordWalk } from '../../src/workers/record-walk.js';

/** Each row the walk makes of `text`: where it lies, its code, and whether nextPlain gave it. */
function walked(text: string, lineMode: boolean, columns = 2) {
  const rows = new BatchRows({ columns, delimiter: ',' });
  rows.reset(Buffer.from(text, 'latin1'));
  const walk = new RecordWalk(',', lineMode, { url: 1, host: 0 });
  walk.begin(rows);
  const plain = new Set<number>();
  for (let i = walk.nextPlain(); i >= 0; i = walk.nextPlain()) plain.add(i);
  const quoted = new Map<number, string[] | null>();
  for (let i = walk.nextQuoted(); i >= 0; i = walk.nextQuoted()) quoted.set(i, walk.quotedFields);
  const out = [];
  for (let i = 0; i < rows.count; i++) {
    out.push({ start: rows.starts[i], end: rows.ends[i], code: rows.codes[i], plain: plain.has(i) });
  }
  return { rows: out, quoted, blankLines: walk.blankLines };
}

/** The rows the record scanner's records make of a text with no quote. */
function scanned(text: string, lineMode: boolean) {
  const s = new RecordScanner();
  s.reset(text, text.length, 44, true);
  const rows = [];
  let blankLines = 0;
  for (let p = 0; p < text.length; p = s.next) {
    s.scan(p);
    const blank = s.kind === KIND_BLANK;
    if (blank && !lineMode) blankLines++;
    else rows.push({ start: p, end: s.contentEnd, code: blank ? 'blank_line' : null, plain: !blank });
  }
  return { rows, quoted: new Map(), blankLines };
}

describe('RecordWalk', () => {
  it('cuts a batch with no quote at each LF where the record scanner ends its records', () => {
    const line = fc.stringMatching(/^[a, \r\u00e9]{0,6}$/);
    fc.assert(
      fc.property(fc.array(line, { maxLength: 8 }), fc.boolean(), fc.boolean(), (lines, lf, lineMode) => {
        const text = lines.join('\n') + (lf ? '\n' : '');
        // Only short records: the comparison is about where records lie, not about extra fields.
        fc.pre(text.split('\n').every((l) => l.split(',').length <= 2));
        expect(walked(text, lineMode)).toEqual(scanned(text, lineMode));
      }),
      { numRuns: 500 },
    );
  });

  it('hands over the quoted records after the plain ones, with their fields or none', () => {
    const text = 'a,b\n"x,1",y\n\nc,d\n"p","q","r"\nz,"unclosed\n';
    const { rows, quoted, blankLines } = walked(text, false);
    expect(rows.map((r) => [r.code, r.plain])).toEqual([
      [null, true],
      [null, false],
      [null, true],
      ['extra_fields', false],
      ['malformed_record', false],
    ]);
    expect(quoted).toEqual(
      new Map([
        [1, ['x,1', 'y']],
        [3, null],
      ]),
    );
    expect(blankLines).toBe(1);
  });
});
