import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatRecord, quoteField } from '../../src/rows/csv-quote.js';

describe('quoteField', () => {
  it('quotes a bare CR (where csv-stringify would not) and csv-parse reads it back', () => {
    expect(quoteField('a\rb', ',')).toBe('"a\rb"');
    expect(parse(`${formatRecord(['a\rb', 'c'], ',')}\n`)).toEqual([['a\rb', 'c']]);
  });

  it('quotes only when needed and doubles quotes', () => {
    expect(quoteField('Disallow: /x', ',')).toBe('Disallow: /x');
    expect(quoteField('a,b', ',')).toBe('"a,b"');
    expect(quoteField('say "hi"', ',')).toBe('"say ""hi"""');
    expect(quoteField('a\nb', ',')).toBe('"a\nb"');
    expect(quoteField('a\tb', '\t')).toBe('"a\tb"');
    expect(quoteField('a\tb', ',')).toBe('a\tb');
    expect(quoteField('', ',')).toBe('');
  });
});

// Property: byte for byte what csv-stringify writes with its defaults (LF line ends). One deliberate
// difference: a field holding a bare CR is quoted too (csv-stringify leaves it bare), so that readers
// that accept CR line ends still see one field; see the test below.
describe('quoteField and formatRecord agree with csv-stringify', () => {
  const text = fc.string({
    unit: fc.constantFrom('a', ' ', ',', ';', '\t', '"', '\n', 'é', '€', 'x'),
    maxLength: 15,
  });
  it('for random fields and delimiters', () => {
    fc.assert(
      fc.property(
        fc.array(text, { minLength: 1, maxLength: 5 }),
        fc.constantFrom(',', ';', '\t'),
        (fields, d) => {
          const want = stringify([fields], { delimiter: d, record_delimiter: '\n' });
          expect(`${formatRecord(fields, d)}\n`).toBe(want);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
