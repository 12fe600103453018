// An agent's rules in a later version of a robots.txt as the earlier version's compiled rules, when its
// selected groups are the earlier ones, moved by lines added or removed above them (ShiftedRules) and/or
// followed by appended groups (AppendedRules): the later file decides like a compile of its own (the
// reference merges every group selected for an agent), while the earlier tables are shared, not rebuilt.

import { appendedPart } from './appended-parts.js';
import { BaseRanks } from './base-ranks.js';
import { CompiledBase, decideBy, decideUrlBy, type RankedRules } from './compile.js';
import type { Group } from './group.js';
import { OWN_BYTES, RankedView } from './rank-decisions.js';
import { type OrderedRules, type OrderKeys, orderKeys } from './rule-order.js';
import type { CompiledRules } from './types.js';

/**
 * A compiled base whose rules are the same in a later version, each on a line `shift` further (lines
 * added or removed above them: a comment, a sitemap, another crawler's group). Decides as the base.
 */
export class ShiftedRules extends RankedView implements RankedRules {
  readonly agent: string;
  readonly count: number;

  private constructor(
    private readonly base: CompiledBase,
    private readonly shift: number,
  ) {
    super();
    this.agent = base.agent;
    this.count = base.count;
  }

  /** The compiled rules these stand on. */
  get shared(): CompiledBase {
    return this.base;
  }

  /** `rules` moved by `shift` lines (itself when 0; a shifted base moved again is moved once). */
  static by(rules: CompiledBase | ShiftedRules, shift: number): CompiledBase | ShiftedRules {
    if (shift === 0) return rules;
    if (rules instanceof ShiftedRules) return ShiftedRules.by(rules.base, rules.shift + shift);
    return new ShiftedRules(rules, shift);
  }

  rankOf(s: string, start: number, end: number): number {
    return this.base.rankOf(s, start, end);
  }

  decide(pathAndQuery: string): number {
    return this.base.decide(pathAndQuery);
  }

  decideUrl(url: string): number {
    return this.base.decideUrl(url);
  }

  allowedAt(rank: number): boolean {
    return this.base.allowedAt(rank);
  }

  lineAt(rank: number): number {
    return this.base.lineAt(rank) + this.shift;
  }

  ruleAt(rank: number): string {
    return this.base.ruleAt(rank);
  }
}

/** The order key of pattern rank `r`: pattern length × 2, + 1 for an Allow (greater decides first). */
function orderKey(o: OrderedRules, r: number): number {
  return o.patterns[r]!.length * 2 + (o.facts.allowed(r) ? 1 : 0);
}

/** How many of `keys` (order keys by rank, never growing) are ≥ `key`. */
function ranksBefore(keys: readonly number[], key: number): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (keys[mid]! >= key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** 2 when the rules' fallback is an empty Allow, 1 an empty Disallow, 0 when there is none. */
function fallbackKind(o: { fallback: number; fallbackAllows: boolean }): number {
  return o.fallback < 0 ? 0 : o.fallbackAllows ? 2 : 1;
}

/**
 * Ranks: the base's pattern ranks, then the appended groups' pattern ranks, then (last) the empty-pattern
 * rule that decides when no pattern matches, if either side has one. The order of the merged rules is by
 * pattern length, Allow first on a tie, then file order (see orderRules); every base rule comes before
 * every appended one in file order, so the better of each side's decision is the merged decision.
 */
export class AppendedRules extends RankedView implements RankedRules {
  readonly agent: string;
  readonly count: number;
  private readonly nb: number;
  private readonly nx: number;
  /**
   * Per appended pattern rank: how many of the base's pattern ranks decide before it. A rank's order
   * key (pattern length × 2, + 1 for an Allow; greater decides first, the base's first on a tie) never
   * grows along the base's ranks, so the base's rank wins exactly below that count.
   */
  private readonly before: number[];
  private readonly fallback: number;
  /** The side whose empty rule is the fallback, and its rank there. */
  private readonly fallbackSide: CompiledRules | null;
  private readonly fallbackRank: number;
  /** The base's ranks are those `baseGroups` order to (never expected otherwise, but then unusable). */
  private readonly consistent: boolean;

  private constructor(
    private readonly base: RankedRules,
    /** The base's order keys only: its patterns and rule texts are the base's to keep. */
    ob: OrderKeys,
    private readonly extra: CompiledBase,
    ox: OrderedRules,
    /** How many lines further down the appended rules are here than in `extra` (see appendedPart). */
    private readonly extraShift: number,
  ) {
    super();
    this.agent = base.agent;
    this.nb = ob.keys.length;
    this.nx = ox.patterns.length;
    // Exactly sized: a pushed-to array keeps room to grow, per layered rule set.
    const before = new Array<number>(this.nx);
    for (let r = 0; r < this.nx; r++) before[r] = ranksBefore(ob.keys, orderKey(ox, r));
    this.before = before;
    // The first empty Allow, else the first empty Disallow, over both sides (the base's come first).
    const kb = fallbackKind(ob);
    const kx = fallbackKind(ox);
    const fromBase = kb === 2 || (kb === 1 && kx !== 2);
    const fromExtra = !fromBase && kx > 0;
    this.fallbackSide = fromBase ? base : fromExtra ? extra : null;
    this.fallbackRank = fromBase ? ob.fallback : fromExtra ? ox.fallback : -1;
    this.fallback = this.fallbackSide === null ? -1 : this.nb + this.nx;
    this.count = this.nb + this.nx + (this.fallback < 0 ? 0 : 1);
    this.consistent = base.count === this.nb + (ob.fallback < 0 ? 0 : 1);
  }

  /**
   * The rules of `groups` (an agent's selection in a later version) from `base`, compiled from
   * `baseGroups` (the agent's selection in an earlier one), when those are the first of `groups`, rule for
   * rule, all moved by one line shift (often none); undefined when they are not, or when the appended part
   * is the larger.
   */
  static on(
    base: CompiledBase | ShiftedRules,
    baseGroups: readonly Group[],
    groups: readonly Group[],
  ): CompiledRules | undefined {
    const n = baseGroups.length;
    if (n === 0 || n > groups.length) return undefined;
    let shift: number | null = null;
    let baseRules = 0;
    for (let i = 0; i < n; i++) {
      const s = baseGroups[i]!.ruleShiftTo(groups[i]!);
      if (s === undefined || (s !== null && shift !== null && s !== shift)) return undefined;
      shift ??= s;
      baseRules += baseGroups[i]!.ruleCount;
    }
    const moved = ShiftedRules.by(base, shift ?? 0);
    if (n === groups.length) return moved;
    const extraGroups = groups.slice(n);
    let extraRules = 0;
    for (const g of extraGroups) extraRules += g.ruleCount;
    if (extraRules > baseRules) return undefined;
    // Before the appended part is compiled: the base's were likely the rules ordered last (see orderKeys).
    const ob = orderKeys(baseGroups);
    const { part, shift: extraShift } = appendedPart(base.agent, extraGroups);
    const rules = new AppendedRules(moved, ob, part.extra, part.ordered, extraShift);
    return rules.consistent ? rules : undefined;
  }

  /** Without the base's: it is counted where it was compiled (see layeredOn). */
  override get byteSize(): number {
    return OWN_BYTES + 8 * this.before.length + this.extra.byteSize;
  }

  /**
   * The earlier version's rules in this set's ranks (see BaseRanks), so that both versions share one
   * rank space (verdict texts and rule counters by rank); undefined when the earlier rules sit on other
   * lines here, or their empty-pattern rule is not this set's.
   */
  baseRanks(): CompiledRules | undefined {
    if (!(this.base instanceof CompiledBase)) return undefined;
    const baseFallback = this.base.count > this.nb;
    if (baseFallback && this.fallbackSide !== this.base) return undefined;
    return new BaseRanks(this.base, this.nb, this.fallback, this);
  }

  /** The compiled rules these stand on. */
  get shared(): CompiledBase {
    return this.base instanceof ShiftedRules ? this.base.shared : (this.base as CompiledBase);
  }

  /** Rank of the deciding rule for `s[start, end)` (the fallback when no pattern matches), or -1. */
  rankOf(s: string, start: number, end: number): number {
    const nb = this.nb;
    const rb = this.base.rankOf(s, start, end);
    const rx = this.extra.rankOf(s, start, end);
    const b = rb >= 0 && rb < nb;
    const x = rx >= 0 && rx < this.nx;
    if (b && x) return rb < this.before[rx]! ? rb : nb + rx;
    if (b) return rb;
    if (x) return nb + rx;
    return this.fallback;
  }

  decide(pathAndQuery: string): number {
    return decideBy(this, pathAndQuery);
  }

  decideUrl(url: string): number {
    return decideUrlBy(this, url);
  }

  allowedAt(rank: number): boolean {
    if (rank < this.nb) return this.base.allowedAt(rank);
    if (rank < this.nb + this.nx) return this.extra.allowedAt(rank - this.nb);
    return true;
  }

  lineAt(rank: number): number {
    if (rank < this.nb) return this.base.lineAt(rank);
    if (rank < this.nb + this.nx) return this.extra.lineAt(rank - this.nb) + this.extraShift;
    const side = this.fallbackSide!;
    return side.lineAt(this.fallbackRank) + (side === this.extra ? this.extraShift : 0);
  }

  ruleAt(rank: number): string {
    if (rank < this.nb) return this.base.ruleAt(rank);
    if (rank < this.nb + this.nx) return this.extra.ruleAt(rank - this.nb);
    return this.fallbackSide!.ruleAt(this.fallbackRank);
  }
}

/**
 * The compiled rules that `rules` (from compileVersions) stand on and keep alive without counting them in
 * their byteSize, or null when they stand alone. A cache that drops those must drop these too.
 */
export function layeredOn(rules: CompiledRules): CompiledRules | null {
  return rules instanceof ShiftedRules || rules instanceof AppendedRules ? rules.shared : null;
}
