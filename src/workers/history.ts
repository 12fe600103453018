import { AppendedRules } from '../core/appended-rules.js';
import { sameRuleSet } from '../core/compile.js';
import type { CompiledRules } from '../core/index.js';
import type { NoHistoryReason } from '../rows/verdict-format.js';
import { V_ALLOWED_UNAVAILABLE } from '../rows/verdict-format.js';
import { type OriginEntry, type Pick, zeros } from './origin-entry.js';
import { AGE_BUCKET_DAYS, type AsOfConfig, type WireVersion } from './protocol.js';

/** An origin's stored versions as of-time runs judge by: one entry per version, oldest first. */
export interface History {
  // Plain arrays of doubles: three typed arrays per origin weighed ≈ 600 bytes of object headers.
  /** When each version was first seen (epoch ms), ascending. */
  from: number[];
  /** When each was last seen before the next one (or until now, for the last). */
  lastSeen: number[];
  versions: OriginEntry[];
  /**
   * Per version: 1 when it is a redirect whose target was not found (no evidence of a policy); null
   * when no version is.
   */
  unresolved: number[] | null;
  /**
   * Per version: the rules its rows decide by, per agent, when its entry is a later version's, whose rules
   * only appended groups to its own (see RankViews), else null; null when no version has such rules.
   */
  views: (CompiledRules[] | null)[] | null;
}

/**
 * Versions whose rules, for every agent, are another version's, what its layered sets stand on (shift 0,
 * fallback shared), or none at all are judged through that version's entry, by the layered sets' BaseRanks
 * or their own rules: one entry, one set of verdict texts and rule counters for both, in one rank space.
 * Per version: the version whose entry serves it and its rules there per agent, or null.
 */
export type RankViews = ({ into: number; rules: CompiledRules[] } | null)[];

/**
 * Version `u`'s rules (`earlier`, per agent) read in the ranks of `later`'s, or undefined when one agent's
 * cannot be: per agent the same object, a set that decides nothing (no rule for that agent: it decides no
 * rank in any rank space, the earlier file of the commonest change, rules added where there were none), or
 * the earlier set a layered one appended to (its BaseRanks). Agents that share a set in `later` decide once
 * for all of them (CompiledSlot.lead): their views must then decide alike too.
 */
function ranksIn(
  earlier: readonly CompiledRules[],
  later: readonly CompiledRules[],
  ctx: ViewsMade,
): CompiledRules[] | undefined {
  let seen = false;
  const out = new Array<CompiledRules>(later.length);
  for (let a = 0; a < later.length; a++) {
    const r = later[a]!;
    const was = earlier[a]!;
    if (r === was) {
      out[a] = r;
      continue;
    }
    seen = true;
    if (was.count === 0) {
      // One such set per agent for every version: views of versions with none then read as one (spannable).
      ctx.empties[a] ??= was;
      out[a] = ctx.empties[a]!;
      continue;
    }
    // Agents selecting the same groups share a layered set, on the first such agent's rules.
    if (!(r instanceof AppendedRules) || !sameRuleSet(r.shared, was)) return undefined;
    let k = ctx.layered.indexOf(r);
    if (k < 0) {
      k = ctx.layered.push(r) - 1;
      ctx.made.push(r.baseRanks());
    }
    const view = ctx.made[k];
    if (view === undefined) return undefined;
    out[a] = view;
  }
  if (!seen) return undefined;
  for (let a = 1; a < later.length; a++) {
    for (let b = 0; b < a; b++) {
      if (later[b] !== later[a]) continue;
      if (out[b] !== out[a] && !(out[b]!.count === 0 && out[a]!.count === 0)) return undefined;
      break;
    }
  }
  return out;
}

/** What ranksIn made for an origin's versions: layered sets' BaseRanks (once each), one empty set per agent. */
interface ViewsMade {
  /** Layered sets met, and their BaseRanks (undefined: none) at the same index (a few: no map). */
  layered: AppendedRules[];
  made: (CompiledRules | undefined)[];
  empties: CompiledRules[];
}

/** Added to servingWeight for version rules with appended groups: above any count of agents. */
const LAYERED_WEIGHT = 1 << 16;

/**
 * How well version rules `r` can serve others (-1: not parsed): those with appended groups first
 * (LAYERED_WEIGHT), then those with rules for more agents.
 */
function servingWeight(r: readonly CompiledRules[] | null): number {
  if (r == null) return -1;
  let n = 0;
  let layered = false;
  for (const x of r) {
    if (x.count > 0) n++;
    if (x instanceof AppendedRules) layered = true;
  }
  return layered ? LAYERED_WEIGHT + n : n;
}

/**
 * The RankViews of an origin's versions (their rules per agent, `rulesOf`, null when not parsed): each
 * version whose rules another one's entry can judge in its ranks (see ranksIn), with one status (so one
 * tail); null when none is. Versions serve in servingWeight's order (they can serve the most); a version
 * serving others is never served by another, nor one with appended groups.
 */
export function rankViews(
  list: readonly WireVersion[],
  rulesOf: (w: WireVersion) => readonly CompiledRules[] | null,
): RankViews | null {
  const n = list.length;
  if (n < 2) return null;
  let views: RankViews | null = null;
  const rules = new Array<readonly CompiledRules[] | null>(n);
  const weight = new Array<number>(n);
  // Version indexes by weight, heaviest first, then oldest first (an insertion sort: a few versions).
  const order = new Array<number>(n);
  const serving = new Array<boolean>(n);
  for (let v = 0; v < n; v++) {
    rules[v] = rulesOf(list[v]!);
    weight[v] = servingWeight(rules[v]!);
    serving[v] = false;
    let at = v;
    while (at > 0 && weight[order[at - 1]!]! < weight[v]!) {
      order[at] = order[at - 1]!;
      at--;
    }
    order[at] = v;
  }
  const ctx: ViewsMade = { layered: [], made: [], empties: [] };
  for (const v of order) {
    const later = rules[v];
    if (later == null || views?.[v] != null) continue;
    // A version with an earlier one's rules (a change reverted) is seen through the same view.
    let seenRules: readonly CompiledRules[] | null = null;
    let seenView: CompiledRules[] | undefined;
    for (let u = 0; u < n; u++) {
      const earlier = rules[u];
      if (u === v || earlier == null || serving[u] || views?.[u] != null) continue;
      // Rules with appended groups are never served.
      if (list[u]!.status !== list[v]!.status || weight[u]! >= LAYERED_WEIGHT) continue;
      const view = earlier === seenRules ? seenView : ranksIn(earlier, later, ctx);
      seenRules = earlier;
      seenView = view;
      if (view === undefined) continue;
      if (views === null) {
        views = new Array<RankViews[number]>(n);
        for (let w = 0; w < n; w++) views[w] = null;
      }
      views[u] = { into: v, rules: view };
      serving[v] = true;
    }
  }
  return views;
}

/** An origin's history from its stored versions (oldest first), each version's entry made by `entryOf`. */
export function buildHistory(
  list: readonly WireVersion[],
  entryOf: (w: WireVersion) => OriginEntry,
  views: RankViews | null = null,
): History {
  const n = list.length;
  // Exactly sized (a pushed-to array keeps room for 17 elements): they live as long as the origin.
  const from = new Array<number>(n);
  const lastSeen = new Array<number>(n);
  let unresolved: number[] | null = null;
  for (let v = 0; v < n; v++) {
    const w = list[v]!;
    from[v] = w.validFrom;
    lastSeen[v] = w.lastSeen;
    if (w.errorCode === 'ERR_REDIRECT_UNRESOLVED') {
      unresolved ??= zeros(n);
      unresolved[v] = 1;
    }
  }
  let viewRules: (CompiledRules[] | null)[] | null = null;
  if (views !== null) {
    viewRules = new Array<CompiledRules[] | null>(n);
    for (let v = 0; v < n; v++) viewRules[v] = views[v]?.rules ?? null;
  }
  const history: History = { from, lastSeen, versions: [], unresolved, views: viewRules };
  // Versions with one compiled set decide alike: with one tail too (a change reverted, or one no agent's
  // rules see) they share an entry, else they count rule hits together (one report per rule).
  const made: OriginEntry[] = [];
  // Versions served by a later one's entry are filled in once that entry is made.
  const versions: (OriginEntry | null)[] = [];
  for (let v = 0; v < n; v++) {
    if (views?.[v] != null) {
      versions.push(null);
      continue;
    }
    let e = entryOf(list[v]!);
    if (e.slot !== null) {
      let first: OriginEntry | undefined;
      for (const m of made) {
        if (m.slot === e.slot) {
          first = m;
          break;
        }
      }
      if (first === undefined) made.push(e);
      else if (first.tail === e.tail) e = first;
      else e.ruleHits = first.ruleHits;
    }
    // An entry serving several versions keeps the first one's index.
    if (e.history !== history) {
      e.history = history;
      e.version = v;
    }
    versions.push(e);
  }
  const all = new Array<OriginEntry>(n);
  for (let v = 0; v < n; v++) all[v] = versions[v] ?? versions[views![v]!.into]!;
  history.versions = all;
  return history;
}

/**
 * The entry of the version in force at `t`, with its rule sets and those a grace check may read stamped
 * for `stamp`; or why no version answers (`out` gets the reason and the version's age); or null when a
 * version it needs lost its compiled rules (the origin must then be asked for again). Only those are
 * stamped: holding every version of the origins in use made a tight compiled budget evict others.
 */
export function versionEntryAt(
  h: History,
  t: number,
  stamp: number,
  cfg: AsOfConfig,
  out: Pick,
): OriginEntry | NoHistoryReason | null {
  const v = pickVersion(h, t, cfg.maxAgeMs);
  if (typeof v === 'string') {
    out.reason = v;
    out.ageMs = v === 'too_old' ? t - h.lastSeen[versionAt(h, t)]! : -1;
    out.rules = null;
    return v;
  }
  out.reason = null;
  out.ageMs = Math.max(0, t - h.lastSeen[v]!);
  out.rules = h.views === null ? null : h.views[v]!;
  for (let u = v; u >= 0 && (u === v || h.from[u + 1]! > t - cfg.graceMs); u--) {
    const slot = h.versions[u]!.slot;
    if (slot === null) continue;
    if (slot.rules === null) return null;
    if (slot.used < stamp) slot.used = stamp;
  }
  return h.versions[v]!;
}

const DAY = 86_400_000;

/** The bucket of an age (ms) in AGE_BUCKET_DAYS, or its length for older. */
export function ageBucket(ageMs: number): number {
  let b = 0;
  while (b < AGE_BUCKET_DAYS.length && ageMs > AGE_BUCKET_DAYS[b]! * DAY) b++;
  return b;
}

/** Index of the version in force at `t` (the latest first seen at or before it), or -1. */
export function versionAt(h: History, t: number): number {
  return latestAtOrBefore(h.from, 0, h.from.length, t);
}

/** Of the `n` ascending times at `times[at…]`, the index of the latest at or before `t`, or -1. */
export function latestAtOrBefore(times: ArrayLike<number>, at: number, n: number, t: number): number {
  let lo = 0;
  let hi = n - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (times[at + mid]! <= t) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** How long before `t` the version was last seen (0 when it was seen at or after `t`). */
export function ageAt(h: History, v: number, t: number): number {
  return Math.max(0, t - h.lastSeen[v]!);
}

/** The version that answers for `t`, or why none does. */
export function pickVersion(h: History, t: number, maxAgeMs: number): number | NoHistoryReason {
  if (h.from.length === 0) return 'no_versions';
  const v = versionAt(h, t);
  if (v < 0) return 'before_first_version';
  if (ageAt(h, v, t) > maxAgeMs) return 'too_old';
  if (isUnresolved(h, v)) return 'redirect_unresolved';
  return v;
}

/** Whether version `v` is a redirect whose target was not found. */
function isUnresolved(h: History, v: number): boolean {
  return h.unresolved !== null && h.unresolved[v] === 1;
}

/** `view`: the version's rules in its entry per agent (History.views), or null for the entry's own. */
function allows(e: OriginEntry, a: number, path: string, view: CompiledRules[] | null): boolean {
  if (e.fixedVerdict >= 0) return e.fixedVerdict === V_ALLOWED_UNAVAILABLE;
  const r = view === null ? e.slot!.rules![a]! : view[a]!;
  const idx = r.decide(path);
  return idx < 0 || r.allowedAt(idx);
}

/**
 * True when a version in force within `graceMs` before `t` (an earlier one than the version in force at
 * `t`, replaced less than that long ago) allowed the path for agent `a`: RFC 9309 §2.4 lets a crawler use
 * its cached copy that long.
 */
export function allowedWithinGrace(h: History, t: number, graceMs: number, a: number, path: string): boolean {
  const v = versionAt(h, t);
  for (let u = earlierWithinGrace(h, v, t, graceMs); u >= 0; u = earlierWithinGrace(h, u, t, graceMs))
    if (allows(h.versions[u]!, a, path, h.views === null ? null : h.views[u]!)) return true;
  return false;
}

/**
 * The latest version before `u` that was in force within `graceMs` before `t` (replaced less than that
 * long before it), except unresolved redirects and versions whose compiled rules were evicted; or -1.
 * A loop, not a callback: no closure per disallowed row.
 */
export function earlierWithinGrace(h: History, u: number, t: number, graceMs: number): number {
  for (let w = u - 1; w >= 0 && h.from[w + 1]! > t - graceMs; w--) {
    if (isUnresolved(h, w)) continue;
    const slot = h.versions[w]!.slot;
    if (slot !== null && slot.rules === null) continue;
    return w;
  }
  return -1;
}
