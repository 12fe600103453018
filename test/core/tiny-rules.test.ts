import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CompiledRuleSet, compiledRules } from '../../src/core/compile.js';
import { matchPattern } from '../../src/core/pattern.js';
import { orderRules } from '../../src/core/rule-order.js';
import { TINY_MAX, tinyHit, tinySlots } from '../../src/core/tiny-rules.js';
import { groupOf, ruleSpec as rule } from '../helpers/rule-groups.js';

/** Hit test of one slot on a whole path (the second char is what the compiled set passes). */
function hit(path: string, pattern: string): boolean {
  const slot = tinySlots(orderRules(groupOf([rule(false, pattern, 1)])))![0]!;
  return tinyHit(path, 0, path.length, path.length > 1 ? path.charCodeAt(1) : -1, slot.p, slot.m);
}

describe('tinySlots', () => {
  it('takes 1 to TINY_MAX prefix or exact patterns, in decision order', () => {
    const o = orderRules(groupOf([rule(false, '/a', 1), rule(true, '/a/b$', 2)]));
    expect(tinySlots(o)?.map((s) => s.p)).toEqual(['/a/b', '/a']);
    expect(tinySlots(orderRules(groupOf([])))).toBeUndefined();
    const many = Array.from({ length: TINY_MAX + 1 }, (_, i) => rule(false, `/p${i}`, i + 1));
    expect(tinySlots(orderRules(groupOf(many)))).toBeUndefined();
    expect(tinySlots(orderRules(groupOf([rule(false, '/a', 1), rule(false, '/*.pdf', 2)])))).toBeUndefined();
    // An Allow of …/index.html adds an exact pattern: two slots from one line.
    expect(tinySlots(orderRules(groupOf([rule(true, '/d/index.html', 1)])))?.map((s) => s.p)).toEqual([
      '/d/index.html',
      '/d/',
    ]);
  });
});

describe('tinyHit', () => {
  it('matches a prefix, or the whole path for an exact pattern', () => {
    expect(hit('/abc?x', '/ab')).toBe(true);
    expect(hit('/a', '/ab')).toBe(false);
    expect(hit('/xbc', '/ab')).toBe(false);
    expect(hit('/b', '/a')).toBe(false);
    expect(hit('/ab', '/ab$')).toBe(true);
    expect(hit('/abc', '/ab$')).toBe(false);
    expect(hit('/', '/$')).toBe(true);
    expect(hit('/x', '/')).toBe(true);
    expect(hit('x', 'x')).toBe(true);
    expect(hit('', 'x')).toBe(false);
    expect(hit('ab', 'ab')).toBe(true);
  });
});

describe('CompiledRules with a tiny set', () => {
  it('uses the tiny layout and agrees with a brute-force scan', () => {
    const piece = fc.constantFrom('/', 'a', 'b', 'ab', '?', '$', '%2F', 'index.html');
    const pattern = fc
      .array(piece, { minLength: 1, maxLength: 4 })
      .map((p) => p.join('').replaceAll('*', ''))
      .filter((p) => p !== '$');
    const path = fc.array(fc.constantFrom('/', 'a', 'b', 'ab', '?', '$', '%2F'), { maxLength: 6 });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.boolean(), pattern), { minLength: 1, maxLength: 3 }),
        fc.array(path, { maxLength: 10 }),
        (spec, paths) => {
          const rules = spec.map(([a, p], i) => rule(a, p, i + 1));
          const o = orderRules(groupOf(rules));
          const set = new CompiledRuleSet(groupOf(rules));
          if (o.patterns.length <= TINY_MAX) expect(set.tiny).toBeDefined();
          const compiled = compiledRules('a', set);
          for (const parts of paths) {
            for (const p of [parts.join(''), `/${parts.join('')}`]) {
              const expected = p === '/robots.txt' ? -1 : o.patterns.findIndex((q) => matchPattern(p, q));
              expect(compiled.decide(p)).toBe(expected);
            }
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('matches a URL in place: the fragment is not part of the path', () => {
    const set = new CompiledRuleSet(groupOf([rule(false, '/a$', 1), rule(true, '/b', 2)]));
    const compiled = compiledRules('a', set);
    expect(compiled.check('https://h/a#x')).toMatchObject({ allowed: false, line: 1 });
    expect(compiled.check('https://h/a?x')).toMatchObject({ verdict: 'allowed_implicit' });
    expect(compiled.check('https://h/bb')).toMatchObject({ verdict: 'allowed_explicit', line: 2 });
    expect(compiled.check('https://h/robots.txt')).toMatchObject({ verdict: 'allowed_implicit' });
  });
});
