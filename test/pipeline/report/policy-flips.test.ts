import { describe, expect, it } from 'vitest';
import { addExample, FlipTally } from '../../../src/pipeline/report/policy-flips.js';

const rule = (line: number) => () => ({ version: 'new' as const, line, rule: `Disallow: /${line}` });

describe('FlipTally', () => {
  it('keeps the entries with most flips once over its bound (a dropped one restarts), agent counts exact', () => {
    const t = new FlipTally(2);
    // Site sN flips N times for agent A; s9 also once the other way for agent B.
    for (let n = 1; n <= 6; n++) for (let i = 0; i < n; i++) t.add(`s${n}`, 'A', `/u${i}`, rule(n), true);
    t.add('s9', 'B', '/x', rule(9), false);
    expect(t.exact).toBe(false);
    expect(t.agents()).toEqual({
      A: { allowedToDisallowed: 21, disallowedToAllowed: 0 },
      B: { allowedToDisallowed: 0, disallowedToAllowed: 1 },
    });
    expect(t.top(2)).toEqual([
      {
        site: 's6',
        agent: 'A',
        allowedToDisallowed: 6,
        disallowedToAllowed: 0,
        examples: ['/u0', '/u1', '/u2'],
        rule: { version: 'new', line: 6, rule: 'Disallow: /6' },
      },
      // s5 was dropped on its first flip (the 5th entry over a bound of 4) and restarted: 4 of its 5 flips.
      {
        site: 's4',
        agent: 'A',
        allowedToDisallowed: 4,
        disallowedToAllowed: 0,
        examples: ['/u0', '/u1', '/u2'],
        rule: { version: 'new', line: 4, rule: 'Disallow: /4' },
      },
    ]);
  });

  it('names the rule of the smallest example URL, asking for it only when that example changes', () => {
    const t = new FlipTally(10);
    let asked = 0;
    const ruleOf = (line: number) => () => {
      asked++;
      return { version: 'old' as const, line, rule: `Disallow: /${line}` };
    };
    t.add('s', 'A', '/m', ruleOf(1), false);
    t.add('s', 'A', '/z', ruleOf(2), false);
    t.add('s', 'A', '/a', ruleOf(3), false);
    t.add('s', 'A', '/b', ruleOf(4), false);
    expect(asked).toBe(2);
    expect(t.top(1)[0]).toMatchObject({ examples: ['/a', '/b', '/m'], rule: { line: 3 } });
  });

  it('keeps the 3 smallest distinct examples', () => {
    const ex: string[] = [];
    for (const u of ['d', 'c', 'c', 'e', 'a', 'b']) addExample(ex, u);
    expect(ex).toEqual(['a', 'b', 'c']);
  });
});
