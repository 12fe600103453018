import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newSiteState, SiteTable } from '../../../src/pipeline/report/site-table.js';

describe('SiteTable', () => {
  it('finds every state it holds by fingerprint, and starts over empty when full', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer(), fc.integer()), { maxLength: 300 }),
        fc.integer({ min: 1, max: 64 }),
        (prints, capacity) => {
          const table = new SiteTable(capacity);
          // What the table should hold: the states inserted since it last started over.
          let held = new Map<string, ReturnType<typeof newSiteState>>();
          for (const [a, b] of prints) {
            const key = `${a},${b}`;
            const found = table.find(a, b);
            expect(found).toBe(held.get(key));
            if (found !== undefined) continue;
            if (held.size >= capacity) held = new Map();
            const state = newSiteState(key, a, b);
            table.insert(state);
            held.set(key, state);
          }
          for (const [key, state] of held) expect(table.find(state.a, state.b)?.site).toBe(key);
        },
      ),
    );
  });
});
