// Decision order of an agent's rules: the first pattern in this order that matches a path decides.

import { MAX_LINE_BYTES } from './lexer.js';
import type { GroupRule } from './parse.js';
import type { RuleInfo } from './types.js';

/** The rules that take part in matching, in decision order (an Allow may contribute two patterns). */
export interface OrderedRules {
  readonly patterns: string[];
  readonly infos: RuleInfo[];
  /**
   * The empty-pattern rule that decides when no pattern matches (it matches every path with priority 0,
   * below any pattern), with `allowed: true`: an empty Disallow disallows nothing. Undefined when none.
   */
  readonly fallback: RuleInfo | undefined;
}

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
export function orderRules(rules: readonly GroupRule[]): OrderedRules {
  const patterns: string[] = [];
  const infos: RuleInfo[] = [];
  let emptyAllow: RuleInfo | undefined;
  let emptyDisallow: RuleInfo | undefined;
  for (const r of rules) {
    if (r.pattern.length === 0) {
      if (r.allowed) emptyAllow ??= r.info;
      else emptyDisallow ??= r.info;
      continue;
    }
    patterns.push(r.pattern);
    infos.push(r.info);
    if (r.allowed) {
      const slash = r.pattern.lastIndexOf('/');
      if (slash >= 0 && r.pattern.startsWith('/index.htm', slash)) {
        patterns.push(`${r.pattern.slice(0, slash + 1)}$`);
        infos.push(r.info);
      }
    }
  }
  // Rules arrive in file order, so the position breaks ties by line; a numeric key sorts natively.
  const n = patterns.length;
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const primary = (MAX_PATTERN - patterns[i]!.length) * 2 + (infos[i]!.allowed ? 0 : 1);
    keys[i] = primary * 2 ** 32 + i;
  }
  keys.sort();
  const empty = emptyAllow ?? emptyDisallow;
  const fallback = empty === undefined ? undefined : { ...empty, allowed: true };
  const out: OrderedRules = { patterns: new Array(n), infos: new Array(n), fallback };
  for (let k = 0; k < n; k++) {
    const i = keys[k]! % 2 ** 32;
    out.patterns[k] = patterns[i]!;
    out.infos[k] = infos[i]!;
  }
  return out;
}

/** Longer than any pattern: a line keeps at most MAX_LINE_BYTES bytes, escaping at most triples them. */
const MAX_PATTERN = 3 * MAX_LINE_BYTES + 2;
