import { describe, expect, it } from 'vitest';
import { ruleKey, ruleOfKey, SummaryBuilder } from '../../../src/pipeline/figures/summary.js';
import type { BrokerStats } from '../../../src/pipeline/policy/policy-broker.js';
import type { BatchStats } from '../../../src/workers/protocol.js';

const broker: BrokerStats = {
  outcomes: { parsed: 0, unavailable: 0, unreachable: 0, not_cached: 0 },
  sources: {},
  failures: {},
  unreachableBy: {},
  resolved: 0,
  inFlight: 0,
  fetchMs: 0,
};

function stats(over: Partial<BatchStats>): BatchStats {
  return {
    records: 0,
    inputRecords: 0,
    blankLines: 0,
    hostMismatch: 0,
    invalid: [],
    verdicts: [],
    disallowedHosts: [],
    rules: [],
    invalidExamples: [],
    workMs: 0,
    policyWaitMs: 0,
    compiles: 0,
    policies: null,
    ...over,
  };
}

describe('SummaryBuilder top lists', () => {
  it('reads origin, line and rule back from a rule key', () => {
    const rule = 'Disallow: /a\tb/*?x=1 # é';
    expect(ruleOfKey(ruleKey('https://a.example:8080', 12, rule))).toEqual({
      origin: 'https://a.example:8080',
      line: 12,
      rule,
    });
  });

  it('lists each agent’s rules, allowing and disallowing apart, with other rules at the same line apart', () => {
    const b = new SummaryBuilder(['a', 'b']);
    b.add(
      stats({
        rules: [
          [[0, 1], 'https://x.example', 2, 'Disallow: /p', 5, false],
          [0, 'https://x.example', 2, 'Disallow: /q', 3, false],
          [1, 'https://x.example', 3, 'Allow: /p/ok', 4, true],
          [0, 'https://y.example', 1, 'Disallow:', 7, true],
        ],
        disallowedHosts: [
          [[0, 1], 'https://x.example', 5],
          [0, 'https://x.example', 3],
        ],
      }),
    );
    b.add(stats({ rules: [[[0, 1], 'https://x.example', 2, 'Disallow: /p', 1, false]] }));
    const s = b.build({ input: 'i', output: 'o', threads: 1, broker, wallMs: 1, readingMs: 0, writingMs: 0 });
    const r = (origin: string, line: number, rule: string, rows: number) => ({ origin, line, rule, rows });
    expect(s.topRules).toEqual({
      a: [
        r('https://y.example', 1, 'Disallow:', 7),
        r('https://x.example', 2, 'Disallow: /p', 6),
        r('https://x.example', 2, 'Disallow: /q', 3),
      ],
      b: [r('https://x.example', 2, 'Disallow: /p', 6), r('https://x.example', 3, 'Allow: /p/ok', 4)],
    });
    expect(s.topAllowRules).toEqual({
      a: [r('https://y.example', 1, 'Disallow:', 7)],
      b: [r('https://x.example', 3, 'Allow: /p/ok', 4)],
    });
    expect(s.topDisallowRules).toEqual({
      a: [r('https://x.example', 2, 'Disallow: /p', 6), r('https://x.example', 2, 'Disallow: /q', 3)],
      b: [r('https://x.example', 2, 'Disallow: /p', 6)],
    });
    expect(s.topDisallowedHosts).toEqual({
      a: [{ origin: 'https://x.example', rows: 8 }],
      b: [{ origin: 'https://x.example', rows: 5 }],
    });
    expect(s.topCountsExact).toBe(true);
  });
});
