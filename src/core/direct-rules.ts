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

/** A rule's pattern as the direct scan reads it: split on first use, once per rule. */
interface Scanned {
  readonly rule: GroupRule;
  /** Undefined until the rule is first tried beyond its first char. */
  split: SplitPattern | undefined;
  /**
   * Google-specific (HandleAllow): an Allow whose last '/' starts "/index.htm" also allows the pattern
   * cut after that '/' plus '$'. Undefined until first needed; null when the rule has none.
   */
  indexPage: SplitPattern | null | undefined;
}

function indexPageOf(rule: GroupRule): SplitPattern | null {
  if (!rule.allowed) return null;
  const p = rule.pattern;
  const slash = p.lastIndexOf('/');
  return slash >= 0 && p.startsWith('/index.htm', slash) ? splitPattern(`${p.slice(0, slash + 1)}$`) : null;
}

/** Length of the index.htm pattern of a rule (its priority): the pattern up to its last '/', plus '$'. */
function indexPageLength(rule: GroupRule): number {
  return rule.pattern.lastIndexOf('/') + 2;
}

/**
 * One agent's selected rules (file order), decided by one scan per path. The scan keeps the rule that
 * the compiled decision order (rule-order.ts) would put first among those that match: the longest
 * pattern; on equal length an Allow over a Disallow, else the earlier one. So the decision is the
 * compiled one, rule for rule.
 */
export class DirectRules {
  private readonly scanned: Scanned[];
  /** The empty-pattern rule that decides when no pattern matches (allowing), or undefined. */
  private readonly fallback: GroupRule | undefined;
  private fallbackDecision: Decision | undefined;
  /**
   * What direct checks have cost so far beyond compiled ones, in rule scans: each check scans every
   * rule, and costs about CHECK_OVERHEAD scans more than a compiled check besides.
   */
  work = 0;

  constructor(rules: readonly GroupRule[]) {
    const scanned: Scanned[] = [];
    let emptyAllow: GroupRule | undefined;
    let emptyDisallow: GroupRule | undefined;
    for (const rule of rules) {
      if (rule.pattern.length > 0) scanned.push({ rule, split: undefined, indexPage: undefined });
      else if (rule.allowed) emptyAllow ??= rule;
      else emptyDisallow ??= rule;
    }
    this.scanned = scanned;
    this.fallback = emptyAllow ?? emptyDisallow;
  }

  /** How many rules a check scans. */
  get size(): number {
    return this.scanned.length;
  }

  /**
   * The rule deciding the path `s[start, end)`: the fallback when no pattern matches; undefined when
   * no rule decides.
   */
  private decideSpan(s: string, start: number, end: number): GroupRule | undefined {
    const scanned = this.scanned;
    let best: GroupRule | undefined;
    let bestLength = 0;
    const c0 = end > start ? s.charCodeAt(start) : -1;
    for (let i = 0; i < scanned.length; i++) {
      const entry = scanned[i]!;
      const rule = entry.rule;
      const pattern = rule.pattern;
      const length = pattern.length;
      // Only a longer pattern, or an equally long Allow over a Disallow, outranks the best so far; the
      // index.htm pattern is always shorter than its rule's.
      if (
        best !== undefined &&
        (length < bestLength || (length === bestLength && (best.allowed || !rule.allowed)))
      ) {
        continue;
      }
      const first = pattern.charCodeAt(0);
      // A pattern whose first char is a literal other than the path's cannot match (nor its index.htm form).
      if (first !== c0 && first !== 42 && !(first === 36 && length === 1)) continue;
      entry.split ??= splitPattern(pattern);
      if (splitMatches(entry.split, s, start, end)) {
        best = rule;
        bestLength = length;
        continue;
      }
      if (!rule.allowed) continue;
      if (entry.indexPage === undefined) entry.indexPage = indexPageOf(rule);
      const page = entry.indexPage;
      if (page === null) continue;
      const pageLength = indexPageLength(rule);
      if (best !== undefined && (pageLength < bestLength || (pageLength === bestLength && best.allowed)))
        continue;
      if (splitMatches(page, s, start, end)) {
        best = rule;
        bestLength = pageLength;
      }
    }
    this.work += scanned.length + CHECK_OVERHEAD;
    if (best !== undefined) {
      // RFC 9309 §2.2.2: /robots.txt itself is never disallowed.
      if (!best.allowed && end - start === ROBOTS_TXT_PATH.length && s.startsWith(ROBOTS_TXT_PATH, start)) {
        return undefined;
      }
      return best;
    }
    return this.fallback;
  }

  /** Accepts an absolute URL or a path, as CompiledRules.check does, and decides the same. */
  check(url: string): Decision {
    if (this.scanned.length === 0) {
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
