import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TopList } from '../../../src/pipeline/report/report-model.js';
import { exampleHash, mergeTopLists, TopTally } from '../../../src/pipeline/report/top-tally.js';

const id = <T>(x: T) => x;

function tallyOf(keys: readonly string[], capacity: number, held?: number): TopList<{ key: string }> {
  const t = new TopTally<{ key: string }>(capacity, held);
  for (const k of keys)
    t.add(k, `https://${k}.example/`, exampleHash(`https://${k}.example/`)).item ??= { key: k };
  return t.toList(capacity, id, id);
}

function exactCounts(keys: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const k of keys) m.set(k, (m.get(k) ?? 0) + 1);
  return m;
}

const keysArb = fc.array(fc.constantFrom(...'abcdefghijklmnop'.split('')), { maxLength: 300 });

describe('TopTally', () => {
  it('is exact, and says so, while it holds every key', () => {
    fc.assert(
      fc.property(keysArb, (keys) => {
        const list = tallyOf(keys, 16);
        const counts = exactCounts(keys);
        expect(list.exact).toBe(true);
        expect(list.dropBound).toBe(0);
        expect(list.distinct).toBe(counts.size);
        expect(new Map(list.entries.map((e) => [e.key, e.count]))).toEqual(counts);
        for (let i = 1; i < list.entries.length; i++) {
          expect(list.entries[i - 1]!.count).toBeGreaterThanOrEqual(list.entries[i]!.count);
        }
      }),
    );
  });

  it('never over-counts, and is low by at most its bound once it drops keys', () => {
    fc.assert(
      fc.property(
        keysArb,
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 3 }),
        (keys, capacity, held) => {
          const list = tallyOf(keys, capacity, held);
          const counts = exactCounts(keys);
          const kept = new Set(list.entries.map((e) => e.key));
          for (const e of list.entries) {
            const truth = counts.get(e.key)!;
            expect(e.count).toBeLessThanOrEqual(truth);
            expect(truth - e.count).toBeLessThanOrEqual(list.dropBound);
          }
          for (const [k, truth] of counts)
            if (!kept.has(k)) expect(truth).toBeLessThanOrEqual(list.dropBound);
          if (counts.size > capacity) expect(list.exact).toBe(false);
        },
      ),
    );
  });

  it('keeps 3 examples per entry whatever the order they come in', () => {
    const urls = Array.from({ length: 10 }, (_, i) => `https://a.example/${i}`);
    const pick = (order: string[]) => {
      const t = new TopTally<{ key: string }>(5);
      for (const u of order) t.add('a', u, exampleHash(u)).item ??= { key: 'a' };
      return t.toList(5, id, id).entries[0]!.examples;
    };
    const forward = pick(urls);
    expect(forward).toHaveLength(3);
    expect(pick([...urls].reverse())).toEqual(forward);
    expect(new Set(forward).size).toBe(3);
  });
});

describe('mergeTopLists', () => {
  it('adds the counts of the same keys and stays exact while the union fits', () => {
    fc.assert(
      fc.property(keysArb, keysArb, (a, b) => {
        const merged = mergeTopLists(tallyOf(a, 16), tallyOf(b, 16));
        const whole = tallyOf([...a, ...b], 16);
        expect(merged).toEqual(whole);
      }),
    );
  });

  it('is not exact once the union overflows, with the cut counts in its bound', () => {
    const merged = mergeTopLists(tallyOf(['a', 'a', 'b'], 2), tallyOf(['c', 'c', 'c'], 2));
    expect(merged.entries.map((e) => [e.key, e.count])).toEqual([
      ['c', 3],
      ['a', 2],
    ]);
    expect(merged.exact).toBe(false);
    expect(merged.dropBound).toBe(1);
  });
});
