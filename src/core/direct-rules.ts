// Deciding a path straight from an agent's parsed rules, in file order, without compiling them: exact,
// and cheaper than compiling for the first checks of a freshly parsed robots.txt.

import { ROBOTS_TXT_PATH } from './compile.js';
import type { GroupRule } from './parse.js';
import { matchWildcardTail, PatternKind, type SplitPattern, splitPattern } from './pattern.js';
import type { Decision } from './types.js';
import { locatePath, type PathSpan, pathFromUrl, SPAN_IN_PLACE } from './url-path.js';

/** Out-parameter for locatePath; checks run one at a time on a thread, so one object serves all. */
const span: PathSpan = { start: 0, end: 0 };

/** A direct check's cost beyond its rule scans, compared with a compiled check, in rule scans. */
const CHECK_OVERHEAD = 4;

const IMPLICIT: Decision = Object.freeze({ allowed: true, verdict: 'allowed_implicit', line: 0, rule: '' });

/** Whether a split pattern matches the path `s[start, end)` (anchored at the path's start). */
function splitMatches(p: SplitPattern, s: string, start: number, end: number): boolean {
  const prefix = p.prefix;
  if (end - start < prefix.length || !s.startsWith(prefix, start)) return false;
  if (p.kind === PatternKind.Prefix) return true;
  if (p.kind === PatternKind.Exact) return end - start === prefix.length;
  return matchWildcardTail(s, start + prefix.length, end, p.segments, p.anchored);
}

function indexPageOf(rule: GroupRule): SplitPattern | null {
  const p = rule.pattern;
  const slash = p.lastIndexOf('/');
  return rule.allowed && slash >= 0 && p.startsWith('/index.htm', slash)
    ? splitPattern(`${p.slice(0, slash + 1)}$`)
    : null;
}

/** Length of the index.htm pattern of a rule (its priority): the pattern up to its last '/', plus '$'. */
function indexPageLength(rule: GroupRule): number {
  return rule.pattern.lastIndexOf('/') + 2;
}

/** A gate char that lets any path char through: `*`, an anchoring `$`, or no char to compare. */
const ANY_CHAR = 0xff;
/** What a path too short to have a second char compares as: equal to no gate char. */
const NO_CHAR = 0x100;

/**
 * The gate of a pattern: its first and second chars when literal (escaped patterns are ASCII), else
 * ANY_CHAR. A path whose first two chars differ from a literal one cannot match. An Allow with an
 * index.htm pattern gates on its first char only (`/$` has no literal second char).
 */
function gateOf(rule: GroupRule): number {
  const p = rule.pattern;
  const c0 = p.charCodeAt(0);
  if (c0 === 42 || (c0 === 36 && p.length === 1)) return ANY_CHAR | (ANY_CHAR << 8);
  const c1 = p.length >= 2 ? p.charCodeAt(1) : -1;
  const any1 =
    c1 < 0 || c1 === 42 || (c1 === 36 && p.length === 2) || (rule.allowed && indexPageOf(rule) !== null);
  return c0 | ((any1 ? ANY_CHAR : c1) << 8);
}

/**
 * One agent's selected rules (file order), decided by one scan per path. The scan keeps the rule that
 * the compiled decision order (rule-order.ts) would put first among those that match: the longest
 * pattern; on equal length an Allow over a Disallow, else the earlier one. So the decision is the
 * compiled one, rule for rule.
 */
export class DirectRules {
  private readonly rules: GroupRule[];
  /** Per rule: pattern length × 2 + 1 if Allow, then its gate (see gateOf): the scan reads no rule object. */
  private readonly packed: Int32Array;
  /** Per rule, its pattern split on first use (most rules never get past their gate). */
  private readonly splits: (SplitPattern | undefined)[];
  /** Per Allow rule, its index.htm pattern once needed; null when it has none. */
  private readonly indexPages: (SplitPattern | null | undefined)[];
  /** The empty-pattern rule that decides when no pattern matches (allowing), or undefined. */
  private readonly fallback: GroupRule | undefined;
  private fallbackDecision: Decision | undefined;
  /**
   * What direct checks have cost so far beyond compiled ones, in rule scans: each check scans every
   * rule, and costs about CHECK_OVERHEAD scans more than a compiled check besides.
   */
  work = 0;

  constructor(rules: readonly GroupRule[]) {
    const kept: GroupRule[] = [];
    let emptyAllow: GroupRule | undefined;
    let emptyDisallow: GroupRule | undefined;
    for (const rule of rules) {
      if (rule.pattern.length > 0) kept.push(rule);
      else if (rule.allowed) emptyAllow ??= rule;
      else emptyDisallow ??= rule;
    }
    const n = kept.length;
    const packed = new Int32Array(2 * n);
    for (let i = 0; i < n; i++) {
      const rule = kept[i]!;
      packed[2 * i] = rule.pattern.length * 2 + (rule.allowed ? 1 : 0);
      packed[2 * i + 1] = gateOf(rule);
    }
    this.rules = kept;
    this.packed = packed;
    this.splits = new Array(n);
    this.indexPages = new Array(n);
    this.fallback = emptyAllow ?? emptyDisallow;
  }

  /** How many rules a check scans. */
  get size(): number {
    return this.rules.length;
  }

  /**
   * The rule deciding the path `s[start, end)`: the fallback when no pattern matches; undefined when
   * no rule decides.
   */
  private decideSpan(s: string, start: number, end: number): GroupRule | undefined {
    const packed = this.packed;
    const n = this.rules.length;
    let best = -1;
    // The best so far as length × 2 + 1 if Allow: a rule outranks it only with a greater key (longer,
    // or as long and an Allow over a Disallow); on equal keys the earlier rule stays.
    let bestKey = -1;
    const p0 = end > start ? s.charCodeAt(start) : NO_CHAR;
    const p1 = end - start > 1 ? s.charCodeAt(start + 1) : NO_CHAR;
    for (let i = 0; i < n; i++) {
      const key = packed[2 * i]!;
      // The index.htm pattern is always shorter than its rule's: if the rule cannot outrank, neither can it.
      if (key <= bestKey) continue;
      const gate = packed[2 * i + 1]!;
      const g0 = gate & 0xff;
      const g1 = gate >> 8;
      if ((g0 !== ANY_CHAR && g0 !== p0) || (g1 !== ANY_CHAR && g1 !== p1)) continue;
      const rule = this.rules[i]!;
      let split = this.splits[i];
      if (split === undefined) {
        split = splitPattern(rule.pattern);
        this.splits[i] = split;
      }
      if (splitMatches(split, s, start, end)) {
        best = i;
        bestKey = key;
        continue;
      }
      if ((key & 1) === 0) continue;
      let page = this.indexPages[i];
      if (page === undefined) {
        page = indexPageOf(rule);
        this.indexPages[i] = page;
      }
      if (page === null) continue;
      const pageKey = indexPageLength(rule) * 2 + 1;
      if (pageKey > bestKey && splitMatches(page, s, start, end)) {
        best = i;
        bestKey = pageKey;
      }
    }
    this.work += n + CHECK_OVERHEAD;
    if (best >= 0) {
      const rule = this.rules[best]!;
      // RFC 9309 §2.2.2: /robots.txt itself is never disallowed.
      if (!rule.allowed && end - start === ROBOTS_TXT_PATH.length && s.startsWith(ROBOTS_TXT_PATH, start)) {
        return undefined;
      }
      return rule;
    }
    return this.fallback;
  }

  /** Accepts an absolute URL or a path, as CompiledRules.check does, and decides the same. */
  check(url: string): Decision {
    if (this.rules.length === 0) {
      // Nothing to scan: a direct check costs what a compiled one does.
      return this.fallback === undefined ? IMPLICIT : this.fallbackOf(this.fallback);
    }
    let found: GroupRule | undefined;
    if (locatePath(url, span) === SPAN_IN_PLACE) {
      found = this.decideSpan(url, span.start, span.end);
    } else {
      const path = pathFromUrl(url);
      found = this.decideSpan(path, 0, path.length);
    }
    if (found === undefined) return IMPLICIT;
    // The fallback (empty pattern) is never among the scanned rules, so identity tells it apart.
    return found === this.fallback ? this.fallbackOf(found) : found.decision;
  }

  /** The empty rule decides, and allows (an empty Disallow disallows nothing). */
  private fallbackOf(rule: GroupRule): Decision {
    this.fallbackDecision ??= Object.freeze({
      allowed: true,
      verdict: 'allowed_explicit',
      line: rule.line,
      rule: rule.info.rule,
    });
    return this.fallbackDecision;
  }
}
