import { describe, expect, it } from 'vitest';
import type { GroupRule } from '../../src/core/parse.js';
import { orderRules } from '../../src/core/rule-order.js';

function rule(allowed: boolean, pattern: string, line: number): GroupRule {
  return { pattern, info: { allowed, line, rule: `${allowed ? 'Allow' : 'Disallow'}: ${pattern}` } };
}

describe('orderRules', () => {
  it('orders by length, then Allow before Disallow, then line; drops empty patterns', () => {
    const o = orderRules([
      rule(false, '/ab', 1),
      rule(true, '', 2),
      rule(false, '/abc', 3),
      rule(true, '/ab', 4),
      rule(false, '/xy', 5),
    ]);
    expect(o.patterns).toEqual(['/abc', '/ab', '/ab', '/xy']);
    expect(o.infos.map((i) => i.line)).toEqual([3, 4, 1, 5]);
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
