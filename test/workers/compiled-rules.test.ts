import { describe, expect, it } from 'vitest';
import { AppendedRules } from '../../src/core/appended-rules.js';
import { CompiledRuleSets } from '../../src/workers/compiled-rules.js';
import { parsedPolicy } from './classify-fixtures.js';

const BASE = `User-agent: *\n${Array.from({ length: 40 }, (_, i) => `Disallow: /p${i}/`).join('\n')}\n`;
const LATER = `${BASE}User-agent: *\nDisallow: /search\n`;

/** Sets holding one origin's two versions (stamp 1), the later one layered on the earlier. */
function twoVersions(budget: number) {
  const sets = new CompiledRuleSets(budget, ['Googlebot']);
  sets.versions([parsedPolicy(BASE), parsedPolicy(LATER)], 1);
  const first = sets.get(parsedPolicy(BASE), 1);
  const later = sets.get(parsedPolicy(LATER), 1);
  return { sets, first, later };
}

describe('CompiledRuleSets with versions compiled together', () => {
  it('keeps a later version layered on the earlier one, costing only what it added', () => {
    const { sets, first, later } = twoVersions(1 << 30);
    expect(sets.compiles).toBe(2);
    expect(later.rules![0]).toBeInstanceOf(AppendedRules);
    expect(later.bases).toHaveLength(1);
    expect(later.bases![0]).toBe(first);
    expect(later.cost).toBeLessThan(first.cost / 2);
    expect(sets.bytes).toBe(first.cost + later.cost);
  });

  it('drops a layered version with the version it stands on, unless a batch in flight holds it', () => {
    for (const held of [false, true]) {
      const { first, later } = twoVersions(1 << 30);
      // A budget the two just fit in: one more small body makes room by dropping the least recently used.
      const sets = new CompiledRuleSets(first.cost + later.cost + 16, ['Googlebot']);
      sets.versions([parsedPolicy(BASE), parsedPolicy(LATER)], 1);
      const a = sets.get(parsedPolicy(BASE), 1);
      const b = sets.get(parsedPolicy(LATER), 1);
      sets.hold(LATER, held ? 9 : 5);
      sets.protectFrom = 8;
      sets.get(parsedPolicy('User-agent: *\nDisallow: /x\n'), 10);
      // Dropping the earlier version alone brings the cost within the budget: the later one goes with it.
      expect(a.rules).toBeNull();
      if (held) {
        // Still judging its batch: kept, and still deciding as the later file.
        expect(b.rules![0]!.checkPath('/searching').rule).toBe('Disallow: /search');
        expect(sets.hold(LATER, 40)).toBe(true);
      } else {
        expect(b.rules).toBeNull();
        expect(sets.hold(LATER, 40)).toBe(false);
        expect(sets.count).toBe(1);
      }
    }
  });
});
