import { describe, expect, it } from 'vitest';
import { GroupRule } from '../../src/core/parse.js';
import { orderRules } from '../../src/core/rule-order.js';

function rule(allowed: boolean, pattern: string, line: number): GroupRule {
  return new GroupRule(allowed, line, pattern, pattern);
}

describe('orderRules', () => {
  it('orders by length, then Allow before Disallow, then line; empty patterns become the fallback', () => {
    const o = orderRules([
      rule(false, '/ab', 1),
      rule(true, '', 2),
      rule(false, '/abc', 3),
      rule(true, '/ab', 4),
      rule(false, '/xy', 5),
    ]);
    expect(o.patterns).toEqual(['/abc', '/ab', '/ab', '/xy']);
    expect(o.infos.map((i) => i.line)).toEqual([3, 4, 1, 5]);
    expect(o.fallback).toEqual({ allowed: true, line: 2, rule: 'Allow: ' });
  });

  // robots.cc RobotsMatcher (commit c8ac4b1d): an empty pattern matches with priority 0; a later equal
  // priority does not replace the first; matching_line() takes the Allow on a tie; disallow() needs > 0.
  it('takes the first empty Allow, else the first empty Disallow, as an allowing fallback', () => {
    const disallowOnly = orderRules([rule(false, '', 3), rule(false, '/x', 4), rule(false, '', 6)]);
    expect(disallowOnly.fallback).toEqual({ allowed: true, line: 3, rule: 'Disallow: ' });
    const both = orderRules([rule(false, '', 2), rule(true, '', 5), rule(true, '', 7)]);
    expect(both.fallback).toEqual({ allowed: true, line: 5, rule: 'Allow: ' });
    expect(both.patterns).toEqual([]);
    expect(orderRules([rule(false, '/x', 1)]).fallback).toBeUndefined();
  });

  it('adds the index.htm rule for Allow only, on the same line, after the full pattern', () => {
    const o = orderRules([
      rule(true, '/d/index.html', 7),
      rule(false, '/e/index.htm', 8),
      rule(true, '/index.htmx/a', 9),
    ]);
    // '/index.htmx/a': its last '/' starts "/a", so no extra pattern.
    expect(o.patterns).toEqual(['/d/index.html', '/index.htmx/a', '/e/index.htm', '/d/$']);
    expect(o.infos.map((i) => i.line)).toEqual([7, 9, 8, 7]);
  });
});
