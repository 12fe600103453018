/** Merging the --summary files of a sharded run: the rules, on summaries made by hand. */
import { describe, expect, it } from 'vitest';
import {
  mergeSummaries,
  parseSummary,
  type ShardSummary,
  type SummaryFile,
} from '../../../src/pipeline/merge/merge-summaries.js';

const KEY = 'fnv1a32(host) mod N';

/** A shard's summary: `rows` rows, all of the given verdict, with the other fields as given. */
function shard(index: number | null, count: number, over: Partial<ShardSummary> = {}): SummaryFile {
  const summary: ShardSummary = {
    input: 'crawl.csv',
    output: `part-${index}.csv`,
    agents: ['Googlebot'],
    threads: 2,
    shard: index === null ? null : { index, count, key: KEY },
    recordsRead: 10,
    rowsWritten: 10,
    blankLines: 0,
    invalidRows: 0,
    invalidByCode: {},
    invalidExamples: [],
    hostMismatch: 0,
    verdicts: { Googlebot: { allowed_implicit: 10, disallowed_explicit: 0 } },
    origins: {
      resolved: 2,
      compiled: 2,
      byOutcome: { parsed: 2 },
      bySource: { file: 2 },
      failures: {},
      unreachableBy: {},
    },
    topDisallowedHosts: { Googlebot: [] },
    topRules: { Googlebot: [] },
    topCountsExact: true,
    timing: { wallMs: 1000, readingMs: 10, fetchingMs: 20, matchingMs: 30, writingMs: 40 },
    rowsPerSecond: 10,
    ...over,
  };
  return { file: `part-${index}.json`, summary };
}

function refusal(files: SummaryFile[]): { code: string; message: string } {
  try {
    mergeSummaries(files);
  } catch (err) {
    return err as { code: string; message: string };
  }
  throw new Error('the merge was not refused');
}

describe('mergeSummaries', () => {
  it('adds every counter, and the maps key by key', () => {
    const m = mergeSummaries([
      shard(1, 2, {
        blankLines: 3,
        invalidRows: 2,
        invalidByCode: { missing_url: 1, bad_url: 1 },
        hostMismatch: 1,
        origins: {
          resolved: 3,
          compiled: 1,
          byOutcome: { parsed: 1, unreachable: 2 },
          bySource: { fetch: 3 },
          failures: { ERR_DNS: 2 },
          unreachableBy: { ERR_DNS: 2 },
        },
      }),
      shard(2, 2, {
        recordsRead: 5,
        rowsWritten: 5,
        invalidRows: 1,
        invalidByCode: { bad_url: 1 },
        verdicts: { Googlebot: { allowed_implicit: 2, disallowed_explicit: 3 } },
        origins: {
          resolved: 4,
          compiled: 4,
          byOutcome: { parsed: 3, unreachable: 1 },
          bySource: { fetch: 1, cache: 3 },
          failures: { ERR_TLS: 1 },
          unreachableBy: { 'HTTP 503': 1 },
        },
      }),
    ]);
    expect(m).toMatchObject({
      recordsRead: 15,
      rowsWritten: 15,
      blankLines: 3,
      invalidRows: 3,
      invalidByCode: { bad_url: 2, missing_url: 1 },
      hostMismatch: 1,
      verdicts: { Googlebot: { allowed_implicit: 12, disallowed_explicit: 3 } },
      origins: {
        resolved: 7,
        compiled: 5,
        byOutcome: { parsed: 4, unreachable: 3 },
        bySource: { fetch: 4, cache: 3 },
        failures: { ERR_DNS: 2, ERR_TLS: 1 },
        unreachableBy: { ERR_DNS: 2, 'HTTP 503': 1 },
      },
      shard: null,
      mergedShards: 2,
      threads: 4,
    });
    expect(Object.keys(m.invalidByCode)).toEqual(['bad_url', 'missing_url']);
  });

  it('timing: the longest wall time, the other times summed, rows per second from them', () => {
    const m = mergeSummaries([
      shard(1, 2, { timing: { wallMs: 2000, readingMs: 1, fetchingMs: 2, matchingMs: 3, writingMs: 4 } }),
      shard(2, 2, { timing: { wallMs: 4000, readingMs: 10, fetchingMs: 20, matchingMs: 30, writingMs: 40 } }),
    ]);
    expect(m.timing).toEqual({ wallMs: 4000, readingMs: 11, fetchingMs: 22, matchingMs: 33, writingMs: 44 });
    expect(m.rowsPerSecond).toBe(5);
  });

  it('invalidExamples: the union in record order, the first 20', () => {
    const examples = (records: number[]) => records.map((record) => ({ record, code: 'bad_url' }));
    const m = mergeSummaries([
      shard(1, 2, { invalidExamples: examples([1, 4, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40]) }),
      shard(2, 2, { invalidExamples: examples([2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]) }),
    ]);
    expect(m.invalidExamples.map((e) => e.record)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 30, 31, 32,
    ]);
  });

  it('top lists: the union sorted by rows then key, cut to 10; exact only when every shard is', () => {
    const hosts = (names: string[], rows: number[]) => names.map((origin, i) => ({ origin, rows: rows[i]! }));
    const rule = (origin: string, line: number, rows: number) => ({
      origin,
      line,
      rule: 'Disallow: /',
      rows,
    });
    const one = shard(1, 2, {
      topDisallowedHosts: {
        Googlebot: hosts(
          ['https://a', 'https://b', 'https://c', 'https://d', 'https://e', 'https://f'],
          [9, 7, 5, 3, 2, 1],
        ),
      },
      topRules: { Googlebot: [rule('https://a', 2, 9), rule('https://a', 10, 4)] },
    });
    const two = shard(2, 2, {
      topDisallowedHosts: {
        Googlebot: hosts(
          ['https://p', 'https://q', 'https://r', 'https://s', 'https://t', 'https://u'],
          [8, 7, 6, 4, 2, 1],
        ),
      },
      topRules: { Googlebot: [rule('https://p', 3, 4)] },
    });
    const m = mergeSummaries([two, one]);
    expect(m.topDisallowedHosts.Googlebot!.map((h) => `${h.origin}=${h.rows}`)).toEqual([
      'https://a=9',
      'https://p=8',
      'https://b=7',
      'https://q=7',
      'https://r=6',
      'https://c=5',
      'https://s=4',
      'https://d=3',
      'https://e=2',
      'https://t=2',
    ]);
    expect(m.topRules.Googlebot!.map((r) => `${r.origin}:${r.line}=${r.rows}`)).toEqual([
      'https://a:2=9',
      'https://a:10=4',
      'https://p:3=4',
    ]);
    expect(m.topCountsExact).toBe(true);
    expect(
      mergeSummaries([one, { ...two, summary: { ...two.summary, topCountsExact: false } }]).topCountsExact,
    ).toBe(false);
  });

  it('the rules that disallow and those that allow merge list by list; summaries without them give neither', () => {
    const rule = (origin: string, text: string, rows: number) => ({ origin, line: 2, rule: text, rows });
    const one = shard(1, 2, {
      topDisallowRules: { Googlebot: [rule('https://a', 'Disallow: /', 3)] },
      topAllowRules: { Googlebot: [rule('https://a', 'Allow: /x', 1)] },
    });
    const two = shard(2, 2, {
      topDisallowRules: { Googlebot: [rule('https://b', 'Disallow: /b', 5)] },
      topAllowRules: { Googlebot: [rule('https://b', 'Disallow: ', 9)] },
    });
    const m = mergeSummaries([two, one]);
    expect(m.topDisallowRules).toEqual({
      Googlebot: [rule('https://b', 'Disallow: /b', 5), rule('https://a', 'Disallow: /', 3)],
    });
    expect(m.topAllowRules).toEqual({
      Googlebot: [rule('https://b', 'Disallow: ', 9), rule('https://a', 'Allow: /x', 1)],
    });
    const old = mergeSummaries([one, shard(2, 2)]);
    expect([old.topDisallowRules, old.topAllowRules]).toEqual([undefined, undefined]);
  });

  it('the input and other fields every shard agrees on are kept; paths that differ are listed in shard order', () => {
    const m = mergeSummaries([
      shard(2, 2, { future: 'x' } as Partial<ShardSummary>),
      shard(1, 2, { future: 'x' } as Partial<ShardSummary>),
    ]);
    expect(m.input).toBe('crawl.csv');
    expect(m.output).toBe('part-1.csv, part-2.csv');
    expect((m as unknown as { future: string }).future).toBe('x');
  });

  it('refuses shards of different agents, counts or keys, a shard given twice, and missing shards (usage)', () => {
    const gpt = shard(2, 2, { agents: ['GPTBot'] });
    expect(refusal([shard(1, 2), gpt])).toMatchObject({
      code: 'ERR_USAGE',
      message:
        'part-2.json judges GPTBot but part-1.json judges Googlebot: the shards of one run judge the same agents',
    });
    expect(refusal([shard(1, 2), shard(2, 3)]).message).toBe(
      'part-2.json is shard 2/3 but part-1.json is shard 1/2: the shard counts differ',
    );
    const twice = { ...shard(1, 2), file: 'again.json' };
    expect(refusal([shard(1, 2), twice, shard(2, 2)]).message).toBe(
      'shard 1/2 is given twice: part-1.json and again.json',
    );
    expect(refusal([shard(2, 3)]).message).toBe('missing shards 1/3, 3/3');
    expect(refusal([shard(1, 3), shard(3, 3)]).message).toBe('missing shard 2/3');
    const otherKey = shard(2, 2);
    otherKey.summary.shard = { index: 2, count: 2, key: 'crc32(host) mod N' };
    expect(refusal([shard(1, 2), otherKey]).code).toBe('ERR_USAGE');
  });

  it('an unsharded summary merges with nothing but itself', () => {
    expect(refusal([shard(null, 1), shard(1, 1)])).toMatchObject({
      code: 'ERR_USAGE',
      message:
        'part-null.json is the summary of an unsharded run (shard null): it merges with nothing but itself',
    });
    const alone = mergeSummaries([shard(null, 1)]);
    expect(alone).toMatchObject({ recordsRead: 10, shard: null, mergedShards: 1 });
  });

  it('a shard field that is not {index, count} with 1 ≤ index ≤ count is an unreadable summary', () => {
    const bad = shard(3, 2);
    expect(refusal([bad]).code).toBe('ERR_INPUT');
  });
});

describe('parseSummary', () => {
  it('refuses text that is not JSON, and JSON that is not a classify summary (ERR_INPUT)', () => {
    expect(() => parseSummary('x.json', '{"a":')).toThrow(expect.objectContaining({ code: 'ERR_INPUT' }));
    expect(() => parseSummary('x.json', '{"origins":{}}')).toThrow(
      expect.objectContaining({
        message:
          'x.json is not a classify --summary file (it has no agents, recordsRead, rowsWritten, verdicts, timing, invalidExamples)',
      }),
    );
    expect(() => parseSummary('x.json', 'null')).toThrow(expect.objectContaining({ code: 'ERR_INPUT' }));
  });
});
