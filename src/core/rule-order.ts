// Decision order of an agent's rules: the first pattern in this order that matches a path decides.

import { MAX_LINE_BYTES } from './lexer.js';
import type { GroupRule } from './parse.js';
import type { RuleInfo } from './types.js';

/** The rules that take part in matching, in decision order (an Allow may contribute two patterns). */
export interface OrderedRules {
  readonly patterns: string[];
  readonly infos: RuleInfo[];
}

/**
 * The patterns that can decide, in decision order. Priority is the escaped pattern's length; the
 * empty pattern (priority 0) never decides and is left out. Google-specific (HandleAllow): an Allow
 * whose last '/' starts "/index.htm" also allows the pattern cut after that '/' plus '$', same line;
 * it has a lower priority, so it only counts when the full pattern does not match, as in the reference.
 * Order: longest first; on a tie Allow first; then the earlier line (the reference keeps the first
 * line reaching a priority). So the first pattern that matches decides.
 */
export function orderRules(rules: readonly GroupRule[]): OrderedRules {
  const patterns: string[] = [];
  const infos: RuleInfo[] = [];
  for (const r of rules) {
    if (r.pattern.length === 0) continue;
    patterns.push(r.pattern);
    infos.push(r.info);
    if (r.info.allowed) {
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
  const out: OrderedRules = { patterns: new Array(n), infos: new Array(n) };
  for (let k = 0; k < n; k++) {
    const i = keys[k]! % 2 ** 32;
    out.patterns[k] = patterns[i]!;
    out.infos[k] = infos[i]!;
  }
  return out;
}

/** Longer than any pattern: a line keeps at most MAX_LINE_BYTES bytes, escaping at most triples them. */
const MAX_PATTERN = 3 * MAX_LINE_BYTES + 2;
