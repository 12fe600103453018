// How much of a site one robots.txt closes to an agent: every path, some paths, or none.

import { agentKey } from './agent.js';
import { toBinary } from './bytes.js';
import { selectGroups } from './compile.js';
import { parseBinary } from './parse.js';
import { type OrderedRules, orderRules } from './rule-order.js';

/** `full`: every path but /robots.txt is disallowed; `none`: no path is; `partial`: anything else. */
export type AgentAccess = 'full' | 'partial' | 'none';

export interface AccessDecision {
  access: AgentAccess;
  /**
   * The rule behind the answer: for `full`, the Disallow that closes every path; for `partial`, the
   * earliest Disallow no Allow overrides everywhere; 0 and '' for `none`.
   */
  line: number;
  rule: string;
}

const NONE: AccessDecision = Object.freeze({ access: 'none', line: 0, rule: '' });

/** The one path a Disallow never closes (RFC 9309 §2.2.2). */
const ROBOTS_TXT_EXACT = '/robots.txt$';

/**
 * Whether an escaped pattern matches every path (paths always start with '/'): only `*`s and at most one
 * '/', and a trailing `$` only after a `*` (`/`, `/*`, `*`, `/*$`).
 */
export function matchesEveryPath(pattern: string): boolean {
  let p = pattern;
  if (p.endsWith('$')) {
    if (p.length < 2 || p.charCodeAt(p.length - 2) !== 42) return false;
    p = p.slice(0, -1);
  }
  const rest = p.replaceAll('*', '');
  return rest === '' || rest === '/';
}

/** Whether an escaped pattern matches some path other than /robots.txt. */
export function matchesSomePath(pattern: string): boolean {
  const c = pattern.charCodeAt(0);
  return (c === 47 || c === 42) && pattern !== ROBOTS_TXT_EXACT;
}

// `full` when a Disallow matching every path is longer than every Allow that can match a path (the
// longest match decides, so that Disallow outranks each of them wherever they match). `none` when every
// Disallow that can match a path is outranked wherever it matches: by an Allow with the same pattern
// (Allow wins a tie) or by an Allow matching every path that is at least as long. Both tests are sound
// but not complete: a file they cannot prove either way (`Disallow: /` with `Allow: /a` and
// `Disallow: /a*`) is `partial`.
export function accessOf(ordered: OrderedRules): AccessDecision {
  const { patterns, facts } = ordered;
  // Decision order is longest first: the first match-all Disallow is the longest, earliest line on a tie.
  let closer = -1;
  for (let i = 0; i < patterns.length; i++) {
    if (!facts.allowed(i) && matchesEveryPath(patterns[i]!)) {
      closer = i;
      break;
    }
  }
  if (closer >= 0) {
    const length = patterns[closer]!.length;
    let opened = false;
    for (let i = 0; i < patterns.length && !opened; i++) {
      opened = facts.allowed(i) && patterns[i]!.length >= length && matchesSomePath(patterns[i]!);
    }
    if (!opened) return { access: 'full', line: facts.line(closer), rule: facts.rule(closer) };
  }
  let longestOpener = -1;
  const allowPatterns = new Set<string>();
  for (let i = 0; i < patterns.length; i++) {
    if (!facts.allowed(i)) continue;
    allowPatterns.add(patterns[i]!);
    if (matchesEveryPath(patterns[i]!)) longestOpener = Math.max(longestOpener, patterns[i]!.length);
  }
  let first = -1;
  for (let i = 0; i < patterns.length; i++) {
    const p = patterns[i]!;
    if (facts.allowed(i) || !matchesSomePath(p)) continue;
    if (allowPatterns.has(p) || longestOpener >= p.length) continue;
    if (first < 0 || facts.line(i) < facts.line(first)) first = i;
  }
  if (first < 0) return NONE;
  return { access: 'partial', line: facts.line(first), rule: facts.rule(first) };
}

/**
 * The access each agent has to a site under one robots.txt body (parsed once, rules selected per agent
 * as `compile` selects them).
 */
export function agentAccess(body: string | Uint8Array, agents: readonly string[]): AccessDecision[] {
  const keys = agents.map(agentKey);
  const parsed = parseBinary(toBinary(body), keys);
  // Agents that select the same groups (most: those no group names) get the same answer.
  const bySelection = new Map<string, AccessDecision>();
  return keys.map((key) => {
    const { specific, groups } = selectGroups(parsed.groups, key);
    const selection = specific ? groups.map((g) => parsed.groups.indexOf(g)).join(',') : '*';
    let decision = bySelection.get(selection);
    if (decision === undefined) {
      const ordered = orderRules(groups);
      decision = ordered.patterns.length === 0 ? NONE : accessOf(ordered);
      bySelection.set(selection, decision);
    }
    return decision;
  });
}
