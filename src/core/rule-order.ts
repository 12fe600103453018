// Decision order of an agent's rules: the first pattern in this order that matches a path decides.

import { binaryToText, isAscii } from './bytes.js';
import { escapePattern } from './escape.js';
import type { Group } from './group.js';
import { MAX_LINE_BYTES } from './lexer.js';
import { DISALLOW_KEY, type RuleFacts, RuleFactsWriter } from './rule-facts.js';
import { Scratch } from './scratch.js';

/** The rules that take part in matching, in decision order (an Allow may contribute two patterns). */
export interface OrderedRules {
  readonly patterns: string[];
  /**
   * Allowed, line and text of each pattern's rule by rank; then, at rank `fallback`, the empty-pattern
   * rule that decides when no pattern matches (it matches every path with priority 0, below any
   * pattern), with allowed set: an empty Disallow disallows nothing.
   */
  readonly facts: RuleFacts;
  /** The fallback's rank (`patterns.length`), or -1 when no rule has an empty pattern. */
  readonly fallback: number;
  /** The fallback is an empty Allow (else an empty Disallow, or there is none). */
  readonly fallbackAllows: boolean;
}

/** The order of no rules: shared, never written. */
const NO_RULES: OrderedRules = Object.freeze({
  patterns: [],
  facts: new RuleFactsWriter(0).done(),
  fallback: -1,
  fallbackAllows: false,
});

/** Candidates of the compile being ordered, kept up to 48 KiB: a file of 50,000 rules should not pin megabytes. */
const scratch = new Scratch((n) => new Float64Array(n), 96, 6 * 1024);

/**
 * The patterns that can decide, in decision order. Priority is the escaped pattern's length. The empty
 * pattern (priority 0) matches every path: as in the reference's matching_line(), it is the deciding line
 * when nothing longer matches (the first empty Allow, else the first empty Disallow), but it never
 * disallows (RobotsMatcher::disallow() needs a priority above 0). Google-specific (HandleAllow): an Allow
 * whose last '/' starts "/index.htm" also allows the pattern cut after that '/' plus '$', same line;
 * it has a lower priority, so it only counts when the full pattern does not match, as in the reference.
 * Order: longest first; on a tie Allow first; then the earlier line (the reference keeps the first
 * line reaching a priority). So the first pattern that matches decides.
 */
export function orderRules(groups: readonly Group[]): OrderedRules {
  const c = sortedCandidates(groups);
  // Many real files have no rule for a given agent: they share one answer.
  if (c === null) {
    lastGroups = null;
    return NO_RULES;
  }
  const { n, keys, at, escaped, emptyGroup, emptyAllowed } = c;
  const count = emptyGroup < 0 ? n : n + 1;
  const patterns: string[] = new Array(n);
  const facts = new RuleFactsWriter(count);
  for (let r = 0; r < n; r++) {
    const p = keys[r]! % 2 ** 32;
    const g = groups[keys[at + 2 * p]!]!;
    const kk = keys[at + 2 * p + 1]!;
    const k = kk >> 1;
    const value = g.body.slice(g.valueStart(k), g.valueEnd(k));
    let pattern = escaped?.[p] ?? value;
    if ((kk & 1) === 1) pattern = `${pattern.slice(0, indexHtmSlash(pattern, 0, pattern.length) + 1)}$`;
    patterns[r] = pattern;
    facts.add(g.allowedAt(k), g.lineAt(k), true, g.plain ? value : binaryToText(value));
  }
  if (emptyGroup >= 0) {
    // An empty Disallow allows as the fallback; its text keeps its own key.
    facts.add(true, groups[emptyGroup]!.lineAt(c.emptyRule), emptyAllowed, emptyAllowed ? '' : DISALLOW_KEY);
  }
  const ordered = {
    patterns,
    facts: facts.done(),
    fallback: emptyGroup < 0 ? -1 : n,
    fallbackAllows: emptyAllowed,
  };
  lastGroups = groups;
  lastOrdered = ordered;
  return ordered;
}

/**
 * The groups orderRules ordered last, and their order: when versions are compiled together, the rules a
 * later version appended groups to were mostly the last ones compiled, and orderKeys then reads their keys
 * off that order instead of sorting them again. Read once (see orderKeys).
 */
let lastGroups: readonly Group[] | null = null;
let lastOrdered: OrderedRules | null = null;

/** Whether two selections are the same groups (a selection is made anew for each compile). */
function sameGroups(a: readonly Group[], b: readonly Group[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The decision order of `groups`' rules reduced to what comparing it with another's needs (see orderKeys). */
export interface OrderKeys {
  /** Per pattern rank: its pattern's length × 2, + 1 for an Allow (greater decides first). */
  readonly keys: readonly number[];
  /** As OrderedRules' (here `keys.length` when there is an empty-pattern rule). */
  readonly fallback: number;
  readonly fallbackAllows: boolean;
}

/**
 * `orderRules(groups)`'s order keys, read off the sorted candidates without making the patterns or the
 * rule texts: a later version layered on these rules (AppendedRules) only compares its keys with them.
 */
export function orderKeys(groups: readonly Group[]): OrderKeys {
  const known = lastGroups !== null && sameGroups(lastGroups, groups) ? lastOrdered : null;
  // Not kept past one read: a later parse may reuse the rules of groups that are not owned.
  lastGroups = null;
  lastOrdered = null;
  if (known !== null) {
    // The key orderRules sorted each pattern by: its length × 2, + 1 for an Allow.
    const keys = new Array<number>(known.patterns.length);
    for (let r = 0; r < keys.length; r++)
      keys[r] = known.patterns[r]!.length * 2 + (known.facts.allowed(r) ? 1 : 0);
    return { keys, fallback: known.fallback, fallbackAllows: known.fallbackAllows };
  }
  const c = sortedCandidates(groups);
  if (c === null) return { keys: [], fallback: -1, fallbackAllows: false };
  const keys = new Array<number>(c.n);
  for (let r = 0; r < c.n; r++) {
    const hi = Math.floor(c.keys[r]! / 2 ** 32);
    keys[r] = (MAX_PATTERN - (hi >> 1)) * 2 + ((hi & 1) === 0 ? 1 : 0);
  }
  return { keys, fallback: c.emptyGroup < 0 ? -1 : c.n, fallbackAllows: c.emptyAllowed };
}

/** Candidates of `groups` sorted into decision order in the scratch array (read before the next call). */
interface Candidates {
  n: number;
  /** [0, n): sort keys, in order; from `at`: each candidate's group index and rule index × 2 (+ 1: index.htm). */
  keys: Float64Array;
  at: number;
  /** Patterns that escaping changed, by candidate. */
  escaped: string[] | undefined;
  /** The fallback's group (-1: none) and rule, and whether it is an Allow. */
  emptyGroup: number;
  emptyRule: number;
  emptyAllowed: boolean;
}

/**
 * Each rule's candidate patterns, sorted: a key is (MAX_PATTERN - length) × 2 (+ 1 for a Disallow) above
 * 2³² plus the candidate's position, so sorting numbers orders by length, Allow first, then file order.
 * Null when there is no rule at all.
 */
function sortedCandidates(groups: readonly Group[]): Candidates | null {
  let total = 0;
  for (const g of groups) total += g.ruleCount;
  // Each rule gives at most two candidates: [0, n) their sort keys, then from `at` each one's group
  // index and rule index × 2 (+ 1 for an index.htm pattern). Nothing per candidate is allocated.
  const keys = scratch.get(6 * total);
  const at = 2 * total;
  // Patterns that escaping changed, by candidate (none in a body without '%' or bytes above 0x7f).
  let escaped: string[] | undefined;
  // The fallback's group (-1: none yet) and rule.
  let emptyGroup = -1;
  let emptyRule = 0;
  let emptyAllowed = false;
  let n = 0;
  for (let gi = 0; gi < groups.length; gi++) {
    const g = groups[gi]!;
    const body = g.body;
    for (let k = 0; k < g.ruleCount; k++) {
      const allowed = g.allowedAt(k);
      const vs = g.valueStart(k);
      const ve = g.valueEnd(k);
      // Escaping leaves an empty value empty and a non-empty one non-empty.
      if (vs === ve) {
        // The first empty Allow, else the first empty Disallow.
        if (emptyGroup < 0 || (allowed && !emptyAllowed)) {
          emptyGroup = gi;
          emptyRule = k;
          emptyAllowed = allowed;
        }
        continue;
      }
      let pattern: string | undefined;
      if (!g.plain) {
        const raw = body.slice(vs, ve);
        pattern = isAscii(raw) && raw.indexOf('%') < 0 ? raw : escapePattern(raw);
        if (pattern !== raw) {
          escaped ??= [];
          escaped[n] = pattern;
        }
      }
      const length = pattern === undefined ? ve - vs : pattern.length;
      keys[n] = ((MAX_PATTERN - length) * 2 + (allowed ? 0 : 1)) * 2 ** 32 + n;
      keys[at + 2 * n] = gi;
      keys[at + 2 * n + 1] = 2 * k;
      n++;
      if (!allowed) continue;
      const slash =
        pattern === undefined ? indexHtmSlash(body, vs, ve) - vs : indexHtmSlash(pattern, 0, length);
      if (slash < 0) continue;
      if (pattern !== undefined && escaped?.[n - 1] === pattern) escaped[n] = pattern;
      // The cut pattern keeps up to the last '/' and adds '$'; an Allow, so it sorts first on a tie.
      keys[n] = (MAX_PATTERN - slash - 2) * 2 * 2 ** 32 + n;
      keys[at + 2 * n] = gi;
      keys[at + 2 * n + 1] = 2 * k + 1;
      n++;
    }
  }
  if (n === 0 && emptyGroup < 0) return null;
  // Candidates arrive in file order, so the position breaks ties by line; a numeric key sorts natively.
  keys.subarray(0, n).sort();
  return { n, keys, at, escaped, emptyGroup, emptyRule, emptyAllowed };
}

/** Where the index.htm part of the Allow pattern `s[start, end)` starts (its last '/'), or -1. */
function indexHtmSlash(s: string, start: number, end: number): number {
  const slash = s.lastIndexOf('/', end - 1);
  return slash >= start && slash + 10 <= end && s.startsWith('/index.htm', slash) ? slash : -1;
}

/** Longer than any pattern: a line keeps at most MAX_LINE_BYTES bytes, escaping at most triples them. */
const MAX_PATTERN = 3 * MAX_LINE_BYTES + 2;
