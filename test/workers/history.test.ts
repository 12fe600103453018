import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CompiledRules, compileRobotsTxt, compileVersions } from '../../src/core/index.js';
import {
  ageBucket,
  buildHistory,
  earlierWithinGrace,
  type History,
  pickVersion,
  rankViews,
  versionAt,
  versionEntryAt,
} from '../../src/workers/history.js';
import {
  HistorySpans,
  replacedWithinGrace,
  spanEntryAt,
  spannable,
  viewBits,
} from '../../src/workers/history-spans.js';
import type { OriginEntry, Pick } from '../../src/workers/origin-entry.js';
import type { AsOfConfig, WireVersion } from '../../src/workers/protocol.js';

/** A history of `from` times (sorted) with last-seen times, and no entries (only times are read here). */
function history(from: number[], seenAfter: number[], unresolved: boolean[]): History {
  return {
    from,
    lastSeen: from.map((f, i) => f + seenAfter[i]!),
    versions: [] as OriginEntry[],
    unresolved: unresolved.includes(true) ? unresolved.map((u) => (u ? 1 : 0)) : null,
    views: null,
  };
}

describe('history', () => {
  it('picks the version a scan of every version would pick, or the reason there is none (property)', () => {
    fc.assert(
      fc.property(
        fc
          .uniqueArray(fc.integer({ min: 0, max: 1000 }), { maxLength: 12 })
          .map((a) => a.sort((x, y) => x - y)),
        fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 12, maxLength: 12 }),
        fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
        fc.integer({ min: -50, max: 1400 }),
        fc.oneof(fc.constant(Number.POSITIVE_INFINITY), fc.integer({ min: 0, max: 400 })),
        (from, seen, unresolved, t, maxAge) => {
          const h = history(from, seen, unresolved.slice(0, from.length));
          let brute = -1;
          for (let v = 0; v < from.length; v++) if (from[v]! <= t) brute = v;
          expect(versionAt(h, t)).toBe(brute);
          const picked = pickVersion(h, t, maxAge);
          if (from.length === 0) expect(picked).toBe('no_versions');
          else if (brute < 0) expect(picked).toBe('before_first_version');
          else if (Math.max(0, t - (from[brute]! + seen[brute]!)) > maxAge) expect(picked).toBe('too_old');
          else if (unresolved[brute]) expect(picked).toBe('redirect_unresolved');
          else expect(picked).toBe(brute);
        },
      ),
    );
  });

  it('buckets ages by whole days, a day itself in the first bucket', () => {
    const day = 86_400_000;
    expect([0, day, day + 1, 7 * day, 30 * day + 1, 365 * day, 366 * day].map(ageBucket)).toEqual([
      0, 0, 1, 1, 3, 3, 4,
    ]);
  });

  it('gives the entry in force, stamps its rule set and those within the grace, and tells an evicted one', () => {
    const versions = [0, 100, 200].map(
      (validFrom) => ({ validFrom, lastSeen: validFrom + 50, errorCode: '' }) as WireVersion,
    );
    // Each version's entry with a rule set of its own (rules: null once evicted).
    const slots = versions.map(() => ({ rules: [] as unknown[] | null, used: 0 }));
    const h = buildHistory(versions, (w) => ({ slot: slots[versions.indexOf(w)] }) as unknown as OriginEntry);
    expect(h.versions.map((e) => e.version)).toEqual([0, 1, 2]);
    expect(h.versions.every((e) => e.history === h)).toBe(true);
    const cfg: AsOfConfig = {
      timeIndex: 0,
      fixedTime: Number.NaN,
      timeFormat: 'auto',
      graceMs: 30,
      maxAgeMs: 1000,
    };
    const out: Pick = { reason: null, ageMs: 0, rules: null };
    // Well after the change at 100: version 1 alone is stamped.
    expect(versionEntryAt(h, 180, 7, cfg, out)).toBe(h.versions[1]);
    expect(out).toEqual({ reason: null, ageMs: 30, rules: null });
    expect(slots.map((x) => x.used)).toEqual([0, 7, 0]);
    // Within the grace after the change at 200: version 1 is stamped too (a grace check reads it).
    expect(versionEntryAt(h, 210, 8, cfg, out)).toBe(h.versions[2]);
    expect(slots.map((x) => x.used)).toEqual([0, 8, 8]);
    expect(versionEntryAt(h, -5, 9, cfg, out)).toBe('before_first_version');
    expect(out.reason).toBe('before_first_version');
    expect(versionEntryAt(h, 1300, 9, cfg, out)).toBe('too_old');
    expect(out.ageMs).toBe(1050);
    // A rule set the grace check needs was evicted: the origin must be asked for again.
    slots[1]!.rules = null;
    expect(versionEntryAt(h, 210, 10, cfg, out)).toBeNull();
    expect(versionEntryAt(h, 260, 10, cfg, out)).toBe(h.versions[2]);
  });

  it('picks from an entry’s span as from its history, one entry judging every version (property)', () => {
    const spans = new HistorySpans();
    const spanned: OriginEntry[] = [];
    fc.assert(
      fc.property(
        fc
          .uniqueArray(fc.integer({ min: 0, max: 1000 }), { minLength: 1, maxLength: 12 })
          .map((a) => a.sort((x, y) => x - y)),
        fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 12, maxLength: 12 }),
        fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 12, maxLength: 12 }),
        fc.array(fc.integer({ min: -50, max: 1400 }), { minLength: 1, maxLength: 8 }),
        fc.oneof(fc.constant(Number.POSITIVE_INFINITY), fc.integer({ min: 0, max: 400 })),
        fc.integer({ min: 0, max: 120 }),
        (from, seen, viewed, times, maxAge, graceMs) => {
          // One entry judges every version; the viewed ones through one of two other rule sets (as a later
          // version's entry judges the earlier file it appended to, and files with no rules).
          const others = [null, [{}], [{}]] as unknown as (CompiledRules[] | null)[];
          const slot = { rules: [] as unknown[] | null, used: 0 };
          const e = { slot, spanAt: -1, viewMask: 0, view: null } as unknown as OriginEntry;
          const h = history(from, seen, []);
          h.versions = from.map(() => e);
          h.views = from.map((_, v) => others[viewed[v]!]!);
          expect(spannable(h)).toBe(true);
          const { mask, view, mask2, view2 } = viewBits(h)!;
          Object.assign(e, { history: h, viewMask: mask, view, viewMask2: mask2, view2 });
          spans.add(e, h.from, h.lastSeen, () => spanned);
          spanned.push(e);
          const cfg: AsOfConfig = {
            timeIndex: 0,
            fixedTime: Number.NaN,
            timeFormat: 'auto',
            graceMs,
            maxAgeMs: maxAge,
          };
          for (const [k, t] of times.entries()) {
            const fromSpan: Pick = { reason: null, ageMs: 0, rules: null };
            const fromHistory: Pick = { reason: null, ageMs: 0, rules: null };
            slot.used = 0;
            const a = spanEntryAt(e, t, k + 1, cfg, fromSpan);
            const stampedBySpan = slot.used;
            slot.used = 0;
            expect(a).toBe(versionEntryAt(h, t, k + 1, cfg, fromHistory));
            expect(fromSpan).toEqual(fromHistory);
            expect(stampedBySpan).toBe(slot.used);
            // A version replaced within the grace is what the history's look back would find.
            expect(replacedWithinGrace(e, t, graceMs)).toBe(
              earlierWithinGrace(h, versionAt(h, t), t, graceMs) >= 0,
            );
          }
          // An evicted rule set: both ask for the origin again, or both answer without it.
          slot.rules = null;
          const t = times[0]!;
          const out: Pick = { reason: null, ageMs: 0, rules: null };
          expect(spanEntryAt(e, t, 99, cfg, out)).toBe(versionEntryAt(h, t, 99, cfg, { ...out }));
        },
      ),
    );
  });

  it('keeps an entry’s span when the slab moves to a new array, and lets entries let go of keep theirs', () => {
    const spans = new HistorySpans();
    const live: OriginEntry[] = [];
    const entry = () => ({ spanAt: -1, spanN: 0, spanData: null }) as unknown as OriginEntry;
    const gone = entry();
    spans.add(gone, [5, 6], [7, 8], () => live);
    const oldData = gone.spanData;
    spans.release(gone);
    expect(gone.spanAt).toBe(-1);
    // Enough spans to fill the first array several times over: each keeps its own times.
    for (let i = 0; i < 3000; i++) {
      const e = entry();
      spans.add(e, [i, i + 1], [i + 0.5, i + 2], () => live);
      live.push(e);
    }
    live.forEach((e, i) => {
      const d = e.spanData!;
      expect([d[e.spanAt], d[e.spanAt + 1], d[e.spanAt + 2], d[e.spanAt + 3]]).toEqual([
        i,
        i + 1,
        i + 0.5,
        i + 2,
      ]);
    });
    expect(new Set(live.map((e) => e.spanData)).size).toBe(1);
    // A batch in flight may still hold an entry let go of: its old array is left as it was.
    expect(Array.from(oldData!.subarray(0, 4))).toEqual([5, 6, 7, 8]);
  });

  it('walks back over the versions replaced within the grace, skipping unresolved and evicted ones', () => {
    const from = [0, 100, 200, 300];
    const h = history(from, [10, 10, 10, 10], [false, true, false, false]);
    const slots = from.map(() => ({ rules: [] as unknown[] | null }));
    h.versions = slots.map((slot) => ({ slot }) as unknown as OriginEntry);
    const walk = (v: number, t: number, grace: number) => {
      const seen: number[] = [];
      for (let u = earlierWithinGrace(h, v, t, grace); u >= 0; u = earlierWithinGrace(h, u, t, grace))
        seen.push(u);
      return seen;
    };
    // Replaced at 300, 200 and 100: within 150 before 320 only the first two; 1 is an unresolved redirect.
    expect(walk(3, 320, 150)).toEqual([2]);
    expect(walk(3, 320, 1000)).toEqual([2, 0]);
    // 300 is 40 before 340: a grace of 40 or less reaches nothing.
    expect(walk(3, 340, 40)).toEqual([]);
    expect(walk(3, 340, 41)).toEqual([2]);
    slots[2]!.rules = null;
    expect(walk(3, 320, 1000)).toEqual([0]);
    expect(walk(0, 320, 1000)).toEqual([]);
  });

  it('serves each version a later one appended groups to through that one, with one status only', () => {
    const base = 'User-agent: *\nDisallow: /a\n';
    const bodies = [base, `${base}User-agent: *\nDisallow: /b\n`, base, 'User-agent: *\nDisallow: /c\n'];
    const compiled = compileVersions(bodies, ['Googlebot']);
    const versions = (statuses: string[]) =>
      bodies.map((_, i) => ({ outcome: 'parsed', status: statuses[i] }) as WireVersion);
    const rulesOf = (list: WireVersion[]) => (w: WireVersion) => compiled[list.indexOf(w)]!;
    const same = versions(['200', '200', '200', '200']);
    const views = rankViews(same, rulesOf(same))!;
    expect(views.map((x) => x?.into ?? null)).toEqual([1, null, 1, null]);
    expect(views[0]!.rules[0]).toBe(views[2]!.rules[0]);
    expect(views[0]!.rules[0]!.checkPath('/b').verdict).toBe('allowed_implicit');
    // A version with another status has another tail: it keeps its own entry.
    const other = versions(['200', '200', '203', '200']);
    expect(rankViews(other, rulesOf(other))!.map((x) => x?.into ?? null)).toEqual([1, null, null, null]);
    const none = versions(['200', '404', '200', '200']);
    expect(rankViews(none, rulesOf(none))).toBeNull();
  });

  it('serves a version with no rules for an agent through a version with rules, whichever comes first', () => {
    // A file with no group (or one with only a crawl-delay) that a later one added rules to: the earlier
    // rules decide nothing, in any rank space (real histories: api.mziq.com, rallscountymo.gov).
    const none = "It's secret\n";
    const bodies = [
      none,
      `${none}\nUser-agent: *\nDisallow: /search\n`,
      none,
      'User-agent: *\ncrawl-delay: 5',
    ];
    const compiled = compileVersions(bodies, ['Googlebot']);
    expect(compiled[0]![0]!.count).toBe(0);
    const w = bodies.map(() => ({ outcome: 'parsed', status: '200' }) as WireVersion);
    const views = rankViews(w, (x) => compiled[w.indexOf(x)]!)!;
    expect(views.map((x) => x?.into ?? null)).toEqual([1, null, 1, 1]);
    expect(views[0]!.rules[0]).toBe(compiled[0]![0]);
    expect(views[0]!.rules[0]!.decide('/search')).toBe(-1);
    // Every version one entry: the origin picks from a span.
    expect(
      spannable({ ...history([0, 1, 2, 3], [0, 0, 0, 0], []), views: views.map((x) => x?.rules ?? null) }),
    ).toBe(true);
    // Rules removed (a later file with none): the earlier rules have no ranks there.
    expect(rankViews([w[1]!, w[0]!], (x) => compiled[w.indexOf(x)]!)!.map((x) => x?.into ?? null)).toEqual([
      null,
      0,
    ]);
  });

  it('serves every version through the one with most rules, never through a version that is served itself', () => {
    const agents = ['Googlebot', 'GPTBot'];
    const [empty, alsoEmpty] = [compileRobotsTxt('', agents), compileRobotsTxt('# none\n', agents)];
    // Agents that decide alike share one set (as a worker's compiled slots hold them).
    const x = compileRobotsTxt('User-agent: *\nDisallow: /x\n', ['Googlebot'])[0]!;
    const both = [x, x];
    const google = compileRobotsTxt('User-agent: Googlebot\nDisallow: /x\n', ['Googlebot']);
    const w = [0, 1, 2].map(() => ({ outcome: 'parsed', status: '200' }) as WireVersion);
    const into = (sets: CompiledRules[][]) =>
      rankViews(w, (x) => sets[w.indexOf(x)]!)?.map((x) => x?.into ?? null) ?? null;
    // The empty versions first in the list: the version with rules still serves both.
    expect(into([empty, alsoEmpty, both])).toEqual([2, 2, null]);
    // Googlebot's rules the same object, GPTBot's none then some: served by the version with GPTBot's too.
    const gpt = [google[0]!, both[0]!];
    expect(into([[google[0]!, empty[1]!], gpt, [google[0]!, alsoEmpty[1]!]])).toEqual([1, null, 1]);
    // Agents that share one set in the serving version decide once for both: their views must decide alike.
    expect(into([[both[0]!, empty[1]!], both, both])).toBeNull();
    expect(into([empty, both, both])).toEqual([1, null, null]);
  });

  it('serves a version through a later one for several agents when each agent’s rules are the same or appended to', () => {
    const base = 'User-agent: Googlebot\nDisallow: /x\n\nUser-agent: *\nDisallow: /a\n';
    const w = [{ status: '200' }, { status: '200' }] as WireVersion[];
    const agents = ['Googlebot', 'GPTBot'];
    // A `*` group appended: Googlebot's own group is as it was, GPTBot's selection grew.
    const [v0, v1] = compileVersions([base, `${base}User-agent: *\nDisallow: /b\n`], agents);
    const views = rankViews(w, (x) => (x === w[0] ? v0! : v1!))!;
    expect(views[0]!.into).toBe(1);
    expect(views[0]!.rules[0]).toBe(v1![0]);
    expect(views[0]!.rules[1]!.checkPath('/b').verdict).toBe('allowed_implicit');
    expect(v1![1]!.checkPath('/b').verdict).toBe('disallowed_explicit');
    // A group of GPTBot's own appended: GPTBot's rules are compiled anew, not appended to.
    const [, own] = compileVersions([base, `${base}User-agent: GPTBot\nDisallow: /g\n`], agents);
    expect(rankViews(w, (x) => (x === w[0] ? v0! : own!))).toBeNull();
  });
});
