import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { orderKeys, orderRules } from '../../src/core/rule-order.js';
import { patternArb } from '../helpers/robots-arbitraries.js';
import { groupOf, linesOf, ruleSpec as rule } from '../helpers/rule-groups.js';

describe('orderRules', () => {
  it('orders by length, then Allow before Disallow, then line; empty patterns become the fallback', () => {
    const o = orderRules(
      groupOf([
        rule(false, '/ab', 1),
        rule(true, '', 2),
        rule(false, '/abc', 3),
        rule(true, '/ab', 4),
        rule(false, '/xy', 5),
      ]),
    );
    expect(o.patterns).toEqual(['/abc', '/ab', '/ab', '/xy']);
    expect(linesOf(o.facts)).toEqual([3, 4, 1, 5, 2]);
    expect(o.fallback).toBe(4);
    expect(o.facts.info(4)).toEqual({ allowed: true, line: 2, rule: 'Allow: ' });
  });

  // robots.cc RobotsMatcher (commit c8ac4b1d): an empty pattern matches with priority 0; a later equal
  // priority does not replace the first; matching_line() takes the Allow on a tie; disallow() needs > 0.
  it('takes the first empty Allow, else the first empty Disallow, as an allowing fallback', () => {
    const disallowOnly = orderRules(groupOf([rule(false, '', 3), rule(false, '/x', 4), rule(false, '', 6)]));
    expect(disallowOnly.facts.info(disallowOnly.fallback)).toEqual({
      allowed: true,
      line: 3,
      rule: 'Disallow: ',
    });
    const both = orderRules(groupOf([rule(false, '', 2), rule(true, '', 5), rule(true, '', 7)]));
    expect(both.fallback).toBe(0);
    expect(both.facts.info(0)).toEqual({ allowed: true, line: 5, rule: 'Allow: ' });
    expect(both.patterns).toEqual([]);
    expect(orderRules(groupOf([rule(false, '/x', 1)])).fallback).toBe(-1);
  });

  it('adds the index.htm rule for Allow only, on the same line, after the full pattern', () => {
    const o = orderRules(
      groupOf([
        rule(true, '/d/index.html', 7),
        rule(false, '/e/index.htm', 8),
        rule(true, '/index.htmx/a', 9),
      ]),
    );
    // '/index.htmx/a': its last '/' starts "/a", so no extra pattern.
    expect(o.patterns).toEqual(['/d/index.html', '/index.htmx/a', '/e/index.htm', '/d/$']);
    expect(linesOf(o.facts)).toEqual([7, 9, 8, 7]);
    expect(o.facts.rule(3)).toBe('Allow: /d/index.html');
  });

  it('matches escaped patterns and reports the rules as written (UTF-8 decoded)', () => {
    // 'é' as its UTF-8 bytes, and a lower-case escape: both change when escaped.
    const o = orderRules(
      groupOf([
        rule(false, '/\xc3\xa9', 1),
        rule(true, '/%2f/\xc3\xa9/index.htm', 2),
        rule(false, '/plain', 3),
        rule(false, '', 4),
      ]),
    );
    expect(o.patterns).toEqual(['/%2F/%C3%A9/index.htm', '/%2F/%C3%A9/$', '/%C3%A9', '/plain']);
    expect(linesOf(o.facts)).toEqual([2, 2, 1, 3, 4]);
    expect(o.facts.rule(0)).toBe('Allow: /%2f/é/index.htm');
    expect(o.facts.rule(1)).toBe('Allow: /%2f/é/index.htm');
    expect(o.facts.rule(2)).toBe('Disallow: /é');
    expect(o.facts.info(4)).toEqual({ allowed: true, line: 4, rule: 'Disallow: ' });
  });

  it('gives every rule list without a rule one shared, empty order', () => {
    const none = orderRules(groupOf([]));
    expect(none).toBe(orderRules([]));
    expect([none.patterns, none.facts.count, none.fallback]).toEqual([[], 0, -1]);
    expect(orderRules(groupOf([rule(false, '', 1)])).facts.count).toBe(1);
  });
});

describe('orderKeys', () => {
  it("gives orderRules' pattern lengths × 2 (+ 1 for an Allow) and fallback, index.htm and escaped patterns included (property)", () => {
    const valueArb = fc.oneof(
      patternArb,
      fc.constantFrom(
        '',
        '/',
        '/a/index.html',
        '/index.htm',
        '/x/index.htmlx',
        '/caf%c3%a9',
        '/café',
        '/%7e',
      ),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), valueArb), { maxLength: 12 }), (rules) => {
        const groups = groupOf(rules.map(([allowed, value], i) => rule(allowed, value, i + 1)));
        const o = orderRules(groups);
        const expected = {
          keys: o.patterns.map((p, r) => p.length * 2 + (o.facts.allowed(r) ? 1 : 0)),
          fallback: o.fallback,
          fallbackAllows: o.fallbackAllows,
        };
        // Right after orderRules (read off its order), then again (sorted anew: the order is read once).
        expect(orderKeys([...groups])).toEqual(expected);
        expect(orderKeys(groups)).toEqual(expected);
      }),
      { numRuns: 1000 },
    );
  });

  it('gives the keys of the groups asked for, not those orderRules ordered last (property)', () => {
    const rulesArb = fc.array(fc.tuple(fc.boolean(), patternArb), { maxLength: 8 });
    fc.assert(
      fc.property(rulesArb, rulesArb, (a, b) => {
        const ga = groupOf(a.map(([allowed, value], i) => rule(allowed, value, i + 1)));
        const gb = groupOf(b.map(([allowed, value], i) => rule(allowed, value, i + 1)));
        const ob = orderRules(gb);
        orderRules(ga);
        expect(orderKeys(gb)).toEqual({
          keys: ob.patterns.map((p, r) => p.length * 2 + (ob.facts.allowed(r) ? 1 : 0)),
          fallback: ob.fallback,
          fallbackAllows: ob.fallbackAllows,
        });
      }),
      { numRuns: 300 },
    );
  });
});
