import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitPattern } from '../../src/core/pattern.js';
import { SplitRules } from '../../src/core/split-rules.js';

describe('SplitRules', () => {
  it('splits every pattern as splitPattern does, pieces rule after rule', () => {
    const part = fc.constantFrom('/', 'a', '*', '$', '**', 'index.html', '%2F');
    fc.assert(
      fc.property(
        fc.array(
          fc.array(part, { maxLength: 6 }).map((p) => p.join('')),
          { maxLength: 12 },
        ),
        (patterns) => {
          const split = new SplitRules(patterns);
          const pieces: string[] = [];
          patterns.forEach((p, r) => {
            const expected = splitPattern(p);
            expect(split.prefixes[r]).toBe(expected.prefix);
            expect(split.meta[r]).toBe(expected.kind);
            expect(split.anchored(r)).toBe(expected.anchored ? 1 : 0);
            expect(split.pieces.slice(split.from(r), split.pieceEnd(r))).toEqual(expected.segments);
            pieces.push(...expected.segments);
          });
          expect(split.pieces).toEqual(pieces);
        },
      ),
    );
  });

  it('gives back the pieces after the first `*` up to a trailing `$`', () => {
    const split = new SplitRules(['/a*b**c$', '/x$', '/y', '*']);
    expect(split.prefixes).toEqual(['/a', '/x', '/y', '']);
    expect(split.pieces).toEqual(['b', '', 'c', '']);
    expect([split.from(0), split.pieceEnd(0), split.from(3), split.pieceEnd(3)]).toEqual([0, 3, 3, 4]);
  });
});
