import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RuleFacts } from '../../src/core/rule-facts.js';
import type { RuleInfo } from '../../src/core/types.js';

const info = fc.record({
  allowed: fc.boolean(),
  line: fc.integer({ min: 1, max: 2 ** 29 }),
  // Texts with and without the key their `allowed` implies (the packed form stores the key once).
  rule: fc
    .tuple(
      fc.constantFrom('Disallow: ', 'Allow: ', '', 'Allow:'),
      // ASCII, Latin-1 and any code point: texts above U+00FF are stored apart from the others.
      fc.oneof(
        fc.string({ maxLength: 40 }),
        fc.string({ maxLength: 40, unit: 'binary' }),
        fc.string({ maxLength: 8, unit: fc.constantFrom('é', 'ÿ', '€', 'я', '😀', '/') }),
      ),
    )
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

  it('counts a text with a char above U+00FF at two bytes per char, and only that text', () => {
    const rule = (c: string) => ({ allowed: false, line: 1, rule: `Disallow: /${c.repeat(100)}` });
    const narrow = RuleFacts.of([rule('é')]);
    const wide = RuleFacts.of([rule('€')]);
    // Both texts are 101 chars once the `Disallow: ` key is left out; only the second needs two bytes a
    // char, and is kept apart (an object of its own).
    expect(wide.byteSize - narrow.byteSize).toBe(101 + 64);
    // One wide rule among many narrow ones leaves them at one byte a char.
    const many = Array.from({ length: 200 }, (_, i) => ({ ...rule('é'), line: i + 1 }));
    const mixed = RuleFacts.of([...many, rule('€')]);
    expect(mixed.byteSize - RuleFacts.of(many).byteSize).toBe(202 + 64 + 8);
    expect(mixed.rule(200)).toBe(rule('€').rule);
    expect(mixed.rule(199)).toBe(rule('é').rule);
  });
});
