import { describe, expect, it } from 'vitest';
import type { ClassifySummary, RuleCount } from '../../../src/pipeline/figures/summary.js';
import { formatSummary } from '../../../src/pipeline/figures/summary-text.js';

const rule = (origin: string, line: number, text: string, rows: number): RuleCount => ({
  origin,
  line,
  rule: text,
  rows,
});

function summary(over: Partial<ClassifySummary> = {}): ClassifySummary {
  return {
    input: 'in.csv',
    output: 'out.csv',
    agents: ['Googlebot'],
    threads: 2,
    shard: null,
    recordsRead: 10,
    rowsWritten: 10,
    blankLines: 0,
    invalidRows: 0,
    invalidByCode: {},
    invalidExamples: [],
    hostMismatch: 0,
    verdicts: { Googlebot: { allowed_explicit: 10 } },
    origins: {
      resolved: 1,
      compiled: 1,
      byOutcome: { parsed: 1 },
      bySource: {},
      failures: {},
      unreachableBy: {},
    },
    topDisallowedHosts: { Googlebot: [] },
    topRules: { Googlebot: [] },
    topDisallowRules: { Googlebot: [] },
    topAllowRules: { Googlebot: [] },
    topCountsExact: true,
    timing: { wallMs: 1000, readingMs: 0, fetchingMs: 0, matchingMs: 0, writingMs: 0 },
    rowsPerSecond: 10,
    ...over,
  };
}

const linesOf = (s: ClassifySummary) => formatSummary(s).split('\n');

describe('formatSummary', () => {
  it('lists the rules that disallow and those that allow on lines of their own; an empty Disallow says it disallows nothing', () => {
    const empty = rule('https://open.example', 2, 'Disallow: ', 27);
    const shut = rule('https://img.example', 7, 'Disallow: /', 20);
    const allow = rule('https://wiki.example', 17, 'Allow: /w/', 7);
    const lines = linesOf(
      summary({
        topRules: { Googlebot: [empty, shut, allow] },
        topDisallowRules: { Googlebot: [shut] },
        topAllowRules: { Googlebot: [empty, allow] },
      }),
    );
    expect(lines.filter((l) => l.includes('rules ('))).toEqual([
      '  top disallow rules (Googlebot): https://img.example line 7 "Disallow: /" 20',
      '  top allow rules (Googlebot): https://open.example line 2 "Disallow: " (empty: disallows nothing) 27; https://wiki.example line 17 "Allow: /w/" 7',
    ]);
  });

  it('prints no rules line for a list that is empty', () => {
    const shut = rule('https://img.example', 7, 'Disallow: /', 20);
    const lines = linesOf(
      summary({ topRules: { Googlebot: [shut] }, topDisallowRules: { Googlebot: [shut] } }),
    );
    expect(lines.filter((l) => l.includes('rules ('))).toEqual([
      '  top disallow rules (Googlebot): https://img.example line 7 "Disallow: /" 20',
    ]);
  });

  it('gives the first five records with extra fields, and their likely cause', () => {
    const examples = [2, 3, 5, 8, 13, 21, 34].map((record) => ({ record, code: 'extra_fields' }));
    examples.splice(1, 0, { record: 2_500, code: 'bad_url' });
    const lines = linesOf(
      summary({
        invalidRows: 1_234,
        invalidByCode: { bad_url: 1, extra_fields: 1_233 },
        invalidExamples: examples.sort((a, b) => a.record - b.record),
      }),
    );
    const at = lines.findIndex((l) => l.startsWith('  invalid rows:'));
    expect(lines.slice(at, at + 3)).toEqual([
      '  invalid rows: 1,234 (bad_url 1, extra_fields 1,233)',
      '  extra_fields: 1,233 rows with more fields than the header, first at records 2, 3, 5, 8, 13 (header not counted, as --row-number counts)',
      '    likely cause: a field holding the delimiter unquoted, such as a URL with a comma; quote such fields ("…")',
    ]);
  });

  it('names one record in the singular, and no records when the examples hold none', () => {
    const one = linesOf(
      summary({
        invalidRows: 1,
        invalidByCode: { extra_fields: 1 },
        invalidExamples: [{ record: 4, code: 'extra_fields' }],
      }),
    );
    expect(one).toContain(
      '  extra_fields: 1 row with more fields than the header, first at record 4 (header not counted, as --row-number counts)',
    );
    const none = linesOf(summary({ invalidRows: 30, invalidByCode: { extra_fields: 30 } }));
    expect(none).toContain('  extra_fields: 30 rows with more fields than the header');
  });

  it('says nothing of extra fields when there are none', () => {
    expect(formatSummary(summary())).not.toContain('extra_fields');
  });
});
