// Deciding a path straight from an agent's parsed rules, in file order, without compiling them: exact,
// and cheaper than compiling for the first checks of a freshly parsed robots.txt.

import { ROBOTS_TXT_PATH } from './compile.js';
import type { Group, GroupRule } from './group.js';
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

/** Ints per rule in DirectRules.packed. */
const STRIDE = 5;

/** Chars of a pattern's literal start the gate compares (one byte each in an int). */
const GATE_CHARS = 4;
/** What a path char that is not ASCII, or past the path's end, compares as: no literal equals it. */
const NOT_LITERAL = 0xfe;

/**
 * The gate of the pattern `p[from, to)`: its first GATE_CHARS chars (one per byte) as far as they are
 * literal, and the mask of those bytes. Escaped patterns are ASCII, so a path whose first chars differ
 * from a literal one cannot match. Literal means before any `*` and a final `$`; for an Allow with an
 * index.htm pattern, also up to its last '/' only (that pattern is cut after it).
 */
function gateOf(p: string, from: number, to: number, allowed: boolean, out: Int32Array, at: number): void {
  let literal = to - from;
  if (p.charCodeAt(to - 1) === 36) literal--;
  if (allowed) {
    // The last '/' of the value, looked for within it only (p may be the whole body).
    let slash = to - 1;
    while (slash >= from && p.charCodeAt(slash) !== 47) slash--;
    if (slash >= from && to - slash >= 10 && p.startsWith('/index.htm', slash)) {
      literal = Math.min(literal, slash + 1 - from);
    }
  }
  let chars = 0;
  let mask = 0;
  for (let j = 0; j < GATE_CHARS && j < literal; j++) {
    const c = p.charCodeAt(from + j);
    if (c === 42) break;
    chars |= c << (8 * j);
    mask |= 0xff << (8 * j);
  }
  out[at] = chars;
  out[at + 1] = mask;
}

/** The first GATE_CHARS chars of the path `s[start, end)` as gateOf packs them. */
function pathGate(s: string, start: number, end: number): number {
  let chars = 0;
  for (let j = 0; j < GATE_CHARS; j++) {
    const c = start + j < end ? s.charCodeAt(start + j) : NOT_LITERAL;
    chars |= (c < 0x80 ? c : NOT_LITERAL) << (8 * j);
  }
  return chars;
}

/** A rule's index.htm pattern and its rank key. */
interface IndexPage {
  readonly split: SplitPattern;
  readonly key: number;
}

function indexPageOf(pattern: string): IndexPage | null {
  const slash = pattern.lastIndexOf('/');
  if (slash < 0 || !pattern.startsWith('/index.htm', slash)) return null;
  return { split: splitPattern(`${pattern.slice(0, slash + 1)}$`), key: (slash + 2) * 2 + 1 };
}

/**
 * One agent's selected rules (file order), decided by one scan per path. The scan keeps the rule that
 * the compiled decision order (rule-order.ts) would put first among those that match: the longest
 * pattern; on equal length an Allow over a Disallow, else the earlier one. So the decision is the
 * compiled one, rule for rule. Rules are read from their groups' packed offsets; a rule becomes an
 * object only when a path gets past its gate.
 */
export class DirectRules {
  private readonly groups: readonly Group[];
  /**
   * Per rule with a pattern: pattern length × 2 + 1 if Allow, its gate chars and mask (see gateOf), its
   * group's index and its index in the group. The scan reads no rule object.
   */
  private readonly packed: Int32Array;
  private readonly count: number;
  /** Per rule, its pattern split on first use (most rules never get past their gate). */
  private readonly splits: (SplitPattern | undefined)[];
  /** Per Allow rule, its index.htm pattern once needed; null when it has none. */
  private readonly indexPages: (IndexPage | null | undefined)[];
  /** The empty-pattern rule that decides when no pattern matches (allowing), or undefined. */
  private readonly fallback: GroupRule | undefined;
  private fallbackDecision: Decision | undefined;
  /**
   * What direct checks have cost so far beyond compiled ones, in rule scans: each check scans every
   * rule, and costs about CHECK_OVERHEAD scans more than a compiled check besides.
   */
  work = 0;

  constructor(groups: readonly Group[]) {
    let total = 0;
    for (const g of groups) total += g.ruleCount;
    const packed = new Int32Array(STRIDE * total);
    let n = 0;
    let emptyAllow: GroupRule | undefined;
    let emptyDisallow: GroupRule | undefined;
    for (let gi = 0; gi < groups.length; gi++) {
      const g = groups[gi]!;
      for (let k = 0; k < g.ruleCount; k++) {
        const allowed = g.allowedAt(k);
        // Escaping leaves an empty value empty and a non-empty one non-empty.
        if (g.valueStart(k) === g.valueEnd(k)) {
          if (allowed) emptyAllow ??= g.ruleAt(k);
          else emptyDisallow ??= g.ruleAt(k);
          continue;
        }
        let length: number;
        if (g.plain) {
          length = g.valueEnd(k) - g.valueStart(k);
          gateOf(g.body, g.valueStart(k), g.valueEnd(k), allowed, packed, STRIDE * n + 1);
        } else {
          const pattern = g.ruleAt(k).pattern;
          length = pattern.length;
          gateOf(pattern, 0, length, allowed, packed, STRIDE * n + 1);
        }
        packed[STRIDE * n] = length * 2 + (allowed ? 1 : 0);
        packed[STRIDE * n + 3] = gi;
        packed[STRIDE * n + 4] = k;
        n++;
      }
    }
    this.groups = groups;
    this.packed = packed;
    this.count = n;
    this.splits = new Array(n);
    this.indexPages = new Array(n);
    this.fallback = emptyAllow ?? emptyDisallow;
  }

  /** How many rules a check scans. */
  get size(): number {
    return this.count;
  }

  /**
   * The rule deciding the path `s[start, end)`: the fallback when no pattern matches; undefined when
   * no rule decides.
   */
  private decideSpan(s: string, start: number, end: number): GroupRule | undefined {
    const packed = this.packed;
    const n = this.count;
    let best = -1;
    // The best so far as length × 2 + 1 if Allow: a rule outranks it only with a greater key (longer,
    // or as long and an Allow over a Disallow); on equal keys the earlier rule stays.
    let bestKey = -1;
    const chars = pathGate(s, start, end);
    for (let i = 0; i < n; i++) {
      const at = STRIDE * i;
      const key = packed[at]!;
      // The index.htm pattern is always shorter than its rule's: if the rule cannot outrank, neither can it.
      if (key <= bestKey || ((chars ^ packed[at + 1]!) & packed[at + 2]!) !== 0) continue;
      let split = this.splits[i];
      if (split === undefined) {
        split = splitPattern(this.ruleOf(i).pattern);
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
        page = indexPageOf(this.ruleOf(i).pattern);
        this.indexPages[i] = page;
      }
      if (page !== null && page.key > bestKey && splitMatches(page.split, s, start, end)) {
        best = i;
        bestKey = page.key;
      }
    }
    this.work += n + CHECK_OVERHEAD;
    if (best >= 0) {
      const rule = this.ruleOf(best);
      // RFC 9309 §2.2.2: /robots.txt itself is never disallowed.
      if (!rule.allowed && end - start === ROBOTS_TXT_PATH.length && s.startsWith(ROBOTS_TXT_PATH, start)) {
        return undefined;
      }
      return rule;
    }
    return this.fallback;
  }

  /** The scanned rule `i` as an object. */
  private ruleOf(i: number): GroupRule {
    return this.groups[this.packed[STRIDE * i + 3]!]!.ruleAt(this.packed[STRIDE * i + 4]!);
  }

  /** Accepts an absolute URL or a path, as CompiledRules.check does, and decides the same. */
  check(url: string): Decision {
    if (this.count === 0) {
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
