import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchPattern } from '../../src/core/pattern.js';
import { decideIn, RuleIndex } from '../../src/core/rule-index.js';
import { orderRules } from '../../src/core/rule-order.js';
import { groupOf, type RuleSpec, ruleSpec as rule } from '../helpers/rule-groups.js';

/** First pattern in decision order that matches: what the index must find without scanning. */
function bruteForce(patterns: readonly string[], path: string): number {
  return patterns.findIndex((p) => matchPattern(path, p));
}

describe('RuleIndex.decide', () => {
  it('finds the first matching pattern in decision order', () => {
    const o = orderRules(
      groupOf([
        rule(false, '/', 1),
        rule(true, '/a', 2),
        rule(false, '/a/*.pdf$', 3),
        rule(true, '/a/b$', 4),
      ]),
    );
    const idx = new RuleIndex(o);
    expect(o.facts.line(idx.decide('/a/x.pdf'))).toBe(3);
    expect(o.facts.line(idx.decide('/a/x.pdfx'))).toBe(2);
    expect(o.facts.line(idx.decide('/a/b'))).toBe(4);
    expect(o.facts.line(idx.decide('/zzz'))).toBe(1);
    expect(idx.decide('')).toBe(-1);
    expect(decideIn(idx, 'https://h/a/b#frag', 9, 13)).toBe(idx.decide('/a/b'));
  });

  it('handles nodes with many children (dense tables), split edges and shared prefixes', () => {
    const rules = [...'abcdefghijklmnopqrstuvwxyz'].flatMap((c, i) => [
      rule(false, `/${c}`, 2 * i + 1),
      rule(true, `/${c}${c}long/path`, 2 * i + 2),
    ]);
    const o = orderRules(groupOf(rules));
    const idx = new RuleIndex(o);
    for (const p of ['/a', '/aalong/path/x', '/aalong/pat', '/zz', '/', '/A', '/é', '/q?x']) {
      expect(idx.decide(p)).toBe(bruteForce(o.patterns, p));
    }
  });

  it('agrees with a brute-force scan on random rule sets', () => {
    const piece = fc.constantFrom('/', 'a', 'b', 'ab', '*', '$', '?', '%2F', '.', 'index.html');
    const pattern = fc.array(piece, { maxLength: 5 }).map((p) => p.join(''));
    const path = fc
      .array(fc.constantFrom('/', 'a', 'b', 'ab', '?', '%2F', '.', 'é', '$', '*'), { maxLength: 8 })
      .map((p) => `/${p.join('')}`);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.boolean(), pattern), { maxLength: 30 }),
        fc.array(path, { maxLength: 10 }),
        (spec, paths) => {
          const o = orderRules(groupOf(spec.map(([a, p], i) => rule(a, p, i + 1))));
          const idx = new RuleIndex(o);
          for (const p of paths) expect(idx.decide(p)).toBe(bruteForce(o.patterns, p));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('indexes 50,000 rules and still answers exactly', () => {
    const rules: RuleSpec[] = [];
    for (let i = 0; i < 50_000; i++)
      rules.push(rule(i % 3 === 0, i % 7 === 0 ? `/p${i}/*.x$` : `/p${i}/`, i + 1));
    const o = orderRules(groupOf(rules));
    const idx = new RuleIndex(o);
    expect(o.facts.line(idx.decide('/p49999/a'))).toBe(50_000);
    expect(o.facts.line(idx.decide('/p49994/q.x'))).toBe(49_995);
    expect(idx.decide('/p49994/q.y')).toBe(-1);
    expect(idx.decide('/nothing')).toBe(-1);
  });

  it('filters a node with many wildcard rules through one RegExp, pieces with RegExp syntax taken literally', () => {
    const specials = ['a.b', '(x)', '[y]', 'c+d', 'e?f', '^g', 'h\\i', '{j}', 'k|l', '$m'];
    const o = orderRules(groupOf(specials.map((p, i) => rule(i % 2 === 0, `/*${p}`, i + 1))));
    const idx = new RuleIndex(o);
    expect(idx.filters.length).toBe(1);
    const paths = [
      '/',
      '/zz',
      '/a.b',
      '/aXb',
      '/(x)',
      '/x',
      '/[y]',
      '/y',
      '/c+d',
      '/ccd',
      '/e?f',
      '/ef',
      '/^g',
    ];
    for (const p of [...paths, '/h\\i', '/hi', '/{j}', '/k|l', '/k', '/$m', '/m', '/q/a.b/r']) {
      expect(idx.decide(p)).toBe(bruteForce(o.patterns, p));
    }
    // A piece found only in the fragment does not match the path before it.
    expect(decideIn(idx, 'https://h/x#a.b', 9, 11)).toBe(-1);
  });

  it('builds no filter when a wildcard rule has no piece to look for', () => {
    const o = orderRules(groupOf(['/*a', '/*b', '/*c', '/*'].map((p, i) => rule(false, p, i + 1))));
    const idx = new RuleIndex(o);
    expect(idx.filters.length).toBe(0);
    expect(idx.decide('/zzz')).toBe(bruteForce(o.patterns, '/zzz'));
  });

  it('agrees with a brute-force scan on random wildcard-heavy sets with RegExp syntax in pieces', () => {
    const piece = fc.constantFrom('/', 'a', '.', '(', ']', '+', '\\', '|', '^', '{', '?', '*', '*', '$');
    const pattern = fc.array(piece, { maxLength: 5 }).map((p) => `/*${p.join('')}`);
    const path = fc.array(fc.constantFrom('/', 'a', '.', '(', ']', '+', '\\', '|', '^', '{', '?', '$'), {
      maxLength: 8,
    });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.boolean(), pattern), { minLength: 4, maxLength: 20 }),
        fc.array(path, { maxLength: 10 }),
        (spec, paths) => {
          const o = orderRules(groupOf(spec.map(([a, p], i) => rule(a, p, i + 1))));
          const idx = new RuleIndex(o);
          for (const p of paths.map((x) => `/${x.join('')}`))
            expect(idx.decide(p)).toBe(bruteForce(o.patterns, p));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
