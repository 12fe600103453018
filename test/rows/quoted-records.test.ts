import { describe, expect, it } from 'vitest';
import { parseQuotedRecords } from '../../src/rows/quoted-records.js';

const strict = (fields: string[]) => ({ fields, strict: true });

describe('parseQuotedRecords', () => {
  it('parses many records at once', () => {
    expect(parseQuotedRecords(['a,"b,c"', '"x ""y""",z', 'p,"q\nr"'], ',')).toEqual([
      strict(['a', 'b,c']),
      strict(['x "y"', 'z']),
      strict(['p', 'q\nr']),
    ]);
  });

  it('keeps a stray quote in an unquoted field as text, and says the record is not strict CSV', () => {
    expect(parseQuotedRecords(['h,https://a.example/x"y'], ',')).toEqual([
      { fields: ['h', 'https://a.example/x"y'], strict: false },
    ]);
    expect(parseQuotedRecords(['"ab"c,d'], ',')).toEqual([{ fields: ['"ab"c', 'd'], strict: false }]);
  });

  it('returns null only for the record csv-parse rejects', () => {
    expect(parseQuotedRecords(['a,"b', '"c",d'], ',')).toEqual([null, strict(['c', 'd'])]);
  });

  it('uses the given delimiter', () => {
    expect(parseQuotedRecords(['a\t"b\tc"'], '\t')).toEqual([strict(['a', 'b\tc'])]);
  });
});
