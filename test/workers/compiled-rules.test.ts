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

  it('files a version whose rules no agent tells apart under the earlier set, and drops both at once', () => {
    const agents = ['Googlebot', 'OtherBot'];
    const stamped = `${BASE}# built at 12:00\n`;
    const probe = new CompiledRuleSets(1 << 30, agents);
    probe.versions([parsedPolicy(BASE), parsedPolicy(stamped)], 1);
    const first = probe.get(parsedPolicy(BASE), 1);
    expect(probe.get(parsedPolicy(stamped), 1)).toBe(first);
    expect(probe.count).toBe(1);
    expect(probe.compiles).toBe(1);
    expect(probe.bytes).toBe(first.cost);
    // A budget the set and a larger one just fit in: one more body drops both (the set once), and the
    // body filed under the set goes with it.
    const larger = `User-agent: *\n${Array.from({ length: 160 }, (_, i) => `Disallow: /q${i}/`).join('\n')}\n`;
    const cost = new CompiledRuleSets(1 << 30, agents).get(parsedPolicy(larger), 1).cost;
    const sets = new CompiledRuleSets(first.cost + cost + 16, agents);
    sets.versions([parsedPolicy(BASE), parsedPolicy(stamped)], 1);
    sets.get(parsedPolicy(larger), 2);
    sets.protectFrom = 8;
    const small = sets.get(parsedPolicy('User-agent: *\nDisallow: /x\n'), 10);
    for (const body of [BASE, stamped, larger]) expect(sets.hold(body, 11)).toBe(false);
    expect(sets.count).toBe(1);
    expect(sets.dropped).toBe(2);
    expect(sets.bytes).toBe(small.cost);
  });

  it('with a row agent, files a version whose groups are an earlier version’s under that parsed set', () => {
    const sets = new CompiledRuleSets(1 << 30, ['Googlebot'], true);
    const stamped = `${BASE}# built at 12:00\n`;
    sets.versions([parsedPolicy(BASE), parsedPolicy(stamped), parsedPolicy(LATER)], 1);
    const first = sets.get(parsedPolicy(BASE), 1);
    expect(first.parsed).not.toBeNull();
    expect(sets.get(parsedPolicy(stamped), 1)).toBe(first);
    // Appending a group is a change some agent's rules see: a parsed set of its own.
    const later = sets.get(parsedPolicy(LATER), 1);
    expect(later).not.toBe(first);
    expect(later.parsed!.check('/search', 'AnyBot').rule).toBe('Disallow: /search');
    expect(sets.count).toBe(2);
    expect(sets.compiles).toBe(2);
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
