import { BaseRanks } from '../core/base-ranks.js';
import type { CompiledRules } from '../core/index.js';
import type { NoHistoryReason } from '../rows/verdict-format.js';
import { type History, latestAtOrBefore } from './history.js';
import type { OriginEntry, Pick } from './origin-entry.js';
import type { AsOfConfig } from './protocol.js';

/** Doubles the slab starts with. */
const FIRST_SIZE = 4096;

/**
 * The times of the histories a worker's origin entries pick from, all in one Float64Array: an entry keeps
 * the array (`spanData`), its history's offset in it (`spanAt`) and version count (`spanN`): first-seen
 * times at [at, at + n), last-seen times at [at + n, at + 2n). A row's pick then loads one cache line of the
 * slab after its entry, where the history object, its arrays and their elements were a chain of loads that
 * mostly missed the cache. Spans of entries let go of are holes until the slab is full; then the live
 * spans move to a new array twice their size (an entry let go of that a batch in flight still holds keeps
 * the old array, and reads it right).
 */
export class HistorySpans {
  private data = new Float64Array(FIRST_SIZE);
  private used = 0;

  /**
   * Gives `e`, the entry that judges every version of `h` itself, a span when it may pick from one
   * (spannable): the versions seen through other rules a bit each with those rules, and with `oneAgent` what
   * those rules are made of when they are an earlier version's in `e`'s ranks (see OriginEntry.viewBase).
   * `entries` lists every live entry with a span, should the slab be full.
   */
  attach(e: OriginEntry, h: History, oneAgent: boolean, entries: () => OriginEntry[]): void {
    const bits = spanBits(h);
    if (bits === null) return;
    const { mask, view } = bits;
    e.viewMask = mask;
    e.view = view;
    e.viewMask2 = bits.mask2;
    e.view2 = bits.view2;
    const seen = view?.[0];
    if (oneAgent && seen instanceof BaseRanks) {
      e.viewBase = seen.base;
      e.viewNb = seen.nb;
      e.viewFallback = seen.fallback;
    }
    this.add(e, h.from, h.lastSeen, entries);
  }

  /** Files the first-seen and last-seen times of `e`'s versions (one each per version) as its span. */
  add(
    e: OriginEntry,
    from: readonly number[],
    lastSeen: readonly number[],
    entries: () => OriginEntry[],
  ): void {
    const n = from.length;
    if (this.used + 2 * n > this.data.length) this.compact(entries(), 2 * n);
    const data = this.data;
    const at = this.used;
    for (let v = 0; v < n; v++) {
      data[at + v] = from[v]!;
      data[at + n + v] = lastSeen[v]!;
    }
    this.used += 2 * n;
    e.spanData = data;
    e.spanAt = at;
    e.spanN = n;
  }

  /** The entry's span is no longer picked from (the entry was let go of). */
  release(e: OriginEntry): void {
    e.spanData = null;
    e.spanAt = -1;
  }

  /** Moves the spans of `entries` to a new array with room for `need` more, and updates their offsets. */
  private compact(entries: readonly OriginEntry[], need: number): void {
    let live = 0;
    for (const e of entries) live += 2 * e.spanN;
    const next = new Float64Array(Math.max(FIRST_SIZE, 2 * (live + need)));
    let at = 0;
    for (const e of entries) {
      const len = 2 * e.spanN;
      next.set(e.spanData!.subarray(e.spanAt, e.spanAt + len), at);
      e.spanData = next;
      e.spanAt = at;
      at += len;
    }
    this.data = next;
    this.used = at;
  }
}

/**
 * versionEntryAt for an origin's entry that judges every version itself, from its span (HistorySpans):
 * the same answer without loading its history (see spannable).
 */
export function spanEntryAt(
  e: OriginEntry,
  t: number,
  stamp: number,
  cfg: AsOfConfig,
  out: Pick,
): OriginEntry | NoHistoryReason | null {
  const data = e.spanData!;
  const at = e.spanAt;
  const n = e.spanN;
  const v = spanVersionAt(e, t);
  out.rules = null;
  if (v < 0) {
    out.reason = n === 0 ? 'no_versions' : 'before_first_version';
    out.ageMs = -1;
    return out.reason;
  }
  const age = t - data[at + n + v]!;
  if (age > cfg.maxAgeMs) {
    out.reason = 'too_old';
    out.ageMs = age;
    return 'too_old';
  }
  out.reason = null;
  out.ageMs = Math.max(0, age);
  if ((e.viewMask >> v) & 1) out.rules = e.view;
  else if ((e.viewMask2 >> v) & 1) out.rules = e.view2;
  const slot = e.slot;
  if (slot !== null) {
    if (slot.rules === null) return null;
    if (slot.used < stamp) slot.used = stamp;
  }
  return e;
}

/**
 * For an entry with a span (see spanEntryAt): whether the version in force at `t` replaced another less than
 * `graceMs` before it. When not, no earlier version was in force within the grace (earlierWithinGrace finds
 * none), and a disallowed row needs no look at the history.
 */
export function replacedWithinGrace(e: OriginEntry, t: number, graceMs: number): boolean {
  const v = spanVersionAt(e, t);
  return v > 0 && e.spanData![e.spanAt + v]! > t - graceMs;
}

/**
 * allowedWithinGrace for an entry with a span, from the span and its view bits alone (the entry judges every
 * version itself; none is an unresolved redirect): true when a version in force within `graceMs` before `t`,
 * earlier than the one in force at `t`, allowed the path for agent `a`.
 */
export function spanAllowedWithinGrace(
  e: OriginEntry,
  t: number,
  graceMs: number,
  a: number,
  path: string,
): boolean {
  const own = e.slot?.rules ?? null;
  // Rules evicted: the versions' rules are gone, as earlierWithinGrace skips such versions.
  if (own === null) return false;
  const data = e.spanData!;
  const at = e.spanAt;
  for (let u = spanVersionAt(e, t) - 1; u >= 0 && data[at + u + 1]! > t - graceMs; u--) {
    const rules = (e.viewMask >> u) & 1 ? e.view! : (e.viewMask2 >> u) & 1 ? e.view2! : own;
    const r = rules[a]!;
    const idx = r.decide(path);
    if (idx < 0 || r.allowedAt(idx)) return true;
  }
  return false;
}

/** versionAt from an entry's span: the latest version first seen at or before `t`, or -1. */
function spanVersionAt(e: OriginEntry, t: number): number {
  return latestAtOrBefore(e.spanData!, e.spanAt, e.spanN, t);
}

/** At most this many versions in a span: a bit each in an entry's `viewMask` (a Smi). */
const MAX_SPAN_VERSIONS = 30;

/**
 * Whether rows of `h`, every version of which `e` judges, may pick from a span (spanEntryAt): no unresolved
 * redirect among them, at most MAX_SPAN_VERSIONS, and the versions seen through other rules than the
 * entry's seen through at most two sets of them (viewBits: an earlier file that a later one appended to, and
 * files with no rules).
 */
export function spannable(h: History): boolean {
  return spanBits(h) !== null;
}

/** The view bits of `h` (viewBits) when it is spannable, else null. */
function spanBits(h: History): ViewBits | null {
  if (h.unresolved !== null || h.from.length > MAX_SPAN_VERSIONS) return null;
  return viewBits(h);
}

/** The versions of a history seen through other rules than their entry's, in at most two sets (spannable). */
export interface ViewBits {
  mask: number;
  view: CompiledRules[] | null;
  mask2: number;
  view2: CompiledRules[] | null;
}

function sameView(a: readonly CompiledRules[], b: readonly CompiledRules[]): boolean {
  return a.length === b.length && a.every((r, i) => r === b[i]);
}

/**
 * The bits of `h`'s versions seen through other rules, and those rules: at most two sets, the one an earlier
 * version's rules are seen through in the entry's ranks (BaseRanks) first; null when there are more.
 */
export function viewBits(h: History): ViewBits | null {
  const bits: ViewBits = { mask: 0, view: null, mask2: 0, view2: null };
  const views = h.views;
  if (views === null) return bits;
  for (let v = 0; v < views.length; v++) {
    const r = views[v];
    if (r == null) continue;
    if (bits.view === null || sameView(r, bits.view)) {
      bits.view ??= r;
      bits.mask |= 1 << v;
    } else if (bits.view2 === null || sameView(r, bits.view2)) {
      bits.view2 ??= r;
      bits.mask2 |= 1 << v;
    } else return null;
  }
  // The set matchRow decides by without loading it (OriginEntry.viewBase) comes first.
  if (bits.view2?.[0] instanceof BaseRanks && !(bits.view?.[0] instanceof BaseRanks)) {
    return { mask: bits.mask2, view: bits.view2, mask2: bits.mask, view2: bits.view };
  }
  return bits;
}
