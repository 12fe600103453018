import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OriginStore } from '../../src/workers/origin-store.js';
import type { WirePolicy } from '../../src/workers/protocol.js';
import { asOfConfig, config, historyPolicy, judgeAt } from './classify-fixtures.js';

// An origin's versions share entries, rank spaces and verdict texts (history.ts's RankViews, appended groups,
// sets with no rules): whatever is shared, a row must read as it would under its version's file alone.

/** Files as real histories change them: none, rules, crawl-delay only, groups appended at the end. */
const BASES = [
  "It's secret\n",
  '',
  'User-agent: *\ncrawl-delay: 5',
  'User-agent: *\nDisallow: /a\n',
  'User-agent: Googlebot\nDisallow: /g\nAllow: /g/ok\n\nUser-agent: *\nDisallow: /\n',
  'User-agent: *\nDisallow:\n',
];
const APPENDED = [
  '\nUser-agent: *\nDisallow: /search\n',
  '\nUser-agent: GPTBot\nDisallow: /\n',
  '\nUser-agent: Googlebot\nAllow: /a/b\nDisallow: /a\n',
  '\nUser-agent: *\nAllow: /search/ok\n',
];
const PATHS = ['/', '/a', '/a/b', '/g', '/g/ok', '/search', '/search/ok', '/other'];
const STEP = 100;

/** An origin's history with these bodies, STEP ms apart, first seen at 0. */
function historyOf(bodies: string[], origin: string): WirePolicy {
  return historyPolicy(bodies, origin, STEP);
}

const origin = { scheme: 'https' as const, host: 'a.example', port: 443 };

/** Each body judged alone: an origin of its own whose one version is it. */
function alone(bodies: string[], agents: string[]) {
  const store = new OriginStore(config({ agents, asOf: asOfConfig(0) }));
  return bodies.map((b, v) => {
    const e = store.install(historyOf([b], `https://v${v}.example`), { ...origin, host: `v${v}.example` }, 1);
    return (path: string) => judgeAt(store, e, path, 0, agents.length);
  });
}

const versions = fc.array(
  fc.record({ base: fc.constantFrom(...BASES), appended: fc.subarray(APPENDED, { maxLength: 2 }) }),
  { minLength: 1, maxLength: 5 },
);
const rows = fc.array(
  fc.record({ path: fc.constantFrom(...PATHS), t: fc.integer({ min: 0, max: 6 * STEP }) }),
  { minLength: 1, maxLength: 24 },
);

describe('as-of verdicts through shared entries', () => {
  it('picks from a span when versions are seen through two sets of rules: none, and the file appended to', () => {
    const store = new OriginStore(config({ asOf: asOfConfig(0) }));
    const rules = 'User-agent: *\nDisallow: /a\n';
    const bodies = ["It's secret\n", rules, `${rules}\nUser-agent: *\nDisallow: /search\n`, "It's secret\n"];
    const e = store.install(historyOf(bodies, 'https://a.example'), origin, 1);
    // The entry judges every version itself: its span says all a row needs, so it keeps no history.
    expect(e.spanAt).toBeGreaterThanOrEqual(0);
    expect(e.history).toBeNull();
    // The appended-to file's set first: a row under it decides by what it is made of (viewBase).
    expect([e.viewMask, e.viewMask2]).toEqual([0b0010, 0b1001]);
    expect(e.viewBase).not.toBeNull();
    expect(e.view2![0]!.count).toBe(0);
    const refs = alone(bodies, ['Googlebot']);
    for (const path of PATHS)
      for (let v = 0; v < bodies.length; v++)
        expect(judgeAt(store, e, path, v * STEP + 1, 1)).toBe(refs[v]!(path));
  });

  it('marks grace from either set a span sees versions through', () => {
    const store = new OriginStore(config({ asOf: asOfConfig(STEP / 2) }));
    const rules = 'User-agent: *\nDisallow: /a\n';
    const bodies = ["It's secret\n", rules, `${rules}\nUser-agent: *\nDisallow: /search\n`, "It's secret\n"];
    const e = store.install(historyOf(bodies, 'https://a.example'), origin, 1);
    expect([e.viewMask, e.viewMask2, e.history]).toEqual([0b0010, 0b1001, null]);
    const graced = ',false,disallowed_explicit,2,Disallow: /a,true,200,\n';
    // Just after the rules came (the file with none, in the second set, allowed it), and well after.
    expect(judgeAt(store, e, '/a', STEP + 10, 1)).toBe(graced);
    expect(judgeAt(store, e, '/a', STEP + STEP / 2 + 10, 1)).toBe(graced.replace(',true,', ',false,'));
    // Just after /search was appended: the file appended to (the first set) allowed it.
    expect(judgeAt(store, e, '/search', 2 * STEP + 10, 1)).toBe(
      ',false,disallowed_explicit,5,Disallow: /search,true,200,\n',
    );
    expect(judgeAt(store, e, '/a', 2 * STEP + 10, 1)).toBe(graced.replace(',true,', ',false,'));
  });

  it('reads every row as its version’s file alone would, for one agent and for two (property)', () => {
    fc.assert(
      fc.property(versions, rows, fc.boolean(), (list, rs, two) => {
        const agents = two ? ['Googlebot', 'GPTBot'] : ['Googlebot'];
        const bodies = list.map((v) => v.base + v.appended.join(''));
        const store = new OriginStore(config({ agents, asOf: asOfConfig(0) }));
        const e = store.install(historyOf(bodies, 'https://a.example'), origin, 1);
        const refs = alone(bodies, agents);
        for (const { path, t } of rs) {
          const v = Math.min(Math.floor(t / STEP), bodies.length - 1);
          expect(judgeAt(store, e, path, t, agents.length)).toBe(refs[v]!(path));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('marks a disallowed row grace exactly when a version in force within the grace allowed it (property)', () => {
    const graceMs = 60;
    fc.assert(
      fc.property(versions, rows, (list, rs) => {
        const bodies = list.map((v) => v.base + v.appended.join(''));
        const store = new OriginStore(config({ asOf: asOfConfig(graceMs) }));
        const e = store.install(historyOf(bodies, 'https://a.example'), origin, 1);
        const refs = alone(bodies, ['Googlebot']);
        for (const { path, t } of rs) {
          const v = Math.min(Math.floor(t / STEP), bodies.length - 1);
          const own = refs[v]!(path);
          // Versions replaced less than graceMs before t: u in force until (u + 1) × STEP.
          let graced = false;
          for (let u = v - 1; u >= 0 && (u + 1) * STEP > t - graceMs; u--)
            if (refs[u]!(path).startsWith(',true,')) graced = true;
          const expected =
            own.startsWith(',false,') && graced ? own.replace(/,false,200,\n$/, ',true,200,\n') : own;
          expect(judgeAt(store, e, path, t, 1)).toBe(expected);
        }
      }),
      { numRuns: 300 },
    );
  });
});
