import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RuleFacts } from '../../src/core/rule-facts.js';
import type { RuleInfo } from '../../src/core/types.js';

const info = fc.record({
  allowed: fc.boolean(),
  line: fc.integer({ min: 1, max: 2 ** 29 }),
  // Texts with and without the key their `allowed` implies (the packed form stores the key once).
  rule: fc
    .tuple(fc.constantFrom('Disallow: ', 'Allow: ', '', 'Allow:'), fc.string({ maxLength: 40 }))
    .map(([k, v]) => `${k}${v}`),
});

describe('RuleFacts', () => {
  it('gives back every rank exactly as packed, texts included (any Unicode)', () => {
    fc.assert(
      fc.property(fc.array(info, { maxLength: 60 }), (infos: RuleInfo[]) => {
        const facts = RuleFacts.of(infos);
        expect(facts.count).toBe(infos.length);
        infos.forEach((x, r) => {
          expect(facts.info(r)).toEqual(x);
          expect(facts.allowed(r)).toBe(x.allowed);
          expect(facts.line(r)).toBe(x.line);
          expect(facts.rule(r)).toBe(x.rule);
        });
      }),
    );
  });

  it('counts a text with a char above U+00FF at two bytes per char', () => {
    const narrow = RuleFacts.of([{ allowed: false, line: 1, rule: `Disallow: /${'é'.repeat(100)}` }]);
    const wide = RuleFacts.of([{ allowed: false, line: 1, rule: `Disallow: /${'€'.repeat(100)}` }]);
    // Both texts are 101 chars once the `Disallow: ` key is left out; only the second needs two bytes a char.
    expect(wide.byteSize - narrow.byteSize).toBe(101);
  });
});
