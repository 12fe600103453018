// Rule-level difference between two robots.txt bodies, group by group.

import { extractProductToken, isGlobalAgent } from './agent.js';
import { binaryToText, toBinary } from './bytes.js';
import { KeyKind, lexRobots } from './lexer.js';

/** One group's change: its user-agents as first written, and its rules added and removed (rule text). */
export interface GroupChange {
  /**
   * The user-agent values as written (`*` for every crawler), in file order, one per product token:
   * `MJ12bot` is shown whole though crawlers match its token `MJ`, as the reference reads it.
   */
  group: string[];
  /** `added`: only the new body has the group; `removed`: only the old one; else `changed`. */
  change: 'added' | 'removed' | 'changed';
  added: string[];
  removed: string[];
  /** Exact counts; the lists hold at most `maxRules` each. */
  addedCount: number;
  removedCount: number;
}

interface GroupRules {
  names: string[];
  rules: Map<string, number>;
}

/**
 * Groups of a body keyed by their set of user-agents (case-insensitive, order ignored), as the reference
 * groups lines: user-agent lines up to the first rule, then its rules up to the next user-agent line.
 * Groups that name the same agents are one: a crawler obeys their rules together.
 */
export function groupsOf(body: string | Uint8Array): Map<string, GroupRules> {
  const s = toBinary(body);
  const out = new Map<string, GroupRules>();
  let names: string[] = [];
  let rules: string[] = [];
  let inRules = false;
  // Product tokens (what matching compares) and the values as written (what a reader recognises).
  let tokens: string[] = [];
  const close = (): void => {
    if (names.length === 0) return;
    const key = [...new Set(tokens)].sort().join('\n');
    let g = out.get(key);
    if (g === undefined) {
      const shown = new Map<string, string>();
      tokens.forEach((t, i) => {
        if (!shown.has(t)) shown.set(t, names[i]!);
      });
      g = { names: [...shown.values()], rules: new Map() };
      out.set(key, g);
    }
    for (const r of rules) g.rules.set(r, (g.rules.get(r) ?? 0) + 1);
  };
  lexRobots(s, (_line, kind, _ks, _ke, vs, ve) => {
    if (kind === KeyKind.UserAgent) {
      if (inRules) {
        close();
        names = [];
        tokens = [];
        rules = [];
        inRules = false;
      }
      const value = binaryToText(s.slice(vs, ve));
      const global = isGlobalAgent(value);
      names.push(global ? '*' : value);
      tokens.push(global ? '*' : extractProductToken(value).toLowerCase());
    } else if (kind === KeyKind.Allow || kind === KeyKind.Disallow) {
      // Rules before any user-agent line belong to no group, as the reference ignores them.
      if (names.length === 0) return;
      inRules = true;
      rules.push(`${kind === KeyKind.Allow ? 'Allow' : 'Disallow'}: ${binaryToText(s.slice(vs, ve))}`);
    }
  });
  close();
  return out;
}

/** Rules of `a` not in `b`, counted as multisets (a rule written twice and kept once was removed once). */
function minus(
  a: Map<string, number>,
  b: Map<string, number> | undefined,
  max: number,
  out: string[],
): number {
  let count = 0;
  for (const [rule, n] of a) {
    const extra = n - (b?.get(rule) ?? 0);
    for (let i = 0; i < extra; i++) {
      count++;
      if (out.length < max) out.push(rule);
    }
  }
  return count;
}

/**
 * The groups whose rules differ between `oldBody` and `newBody`, in the new body's order then the
 * removed groups in the old body's order. A reordering of rules within a group is no change (the
 * longest match decides, not the order).
 */
export function diffGroups(
  oldBody: string | Uint8Array,
  newBody: string | Uint8Array,
  maxRules = 20,
): GroupChange[] {
  const before = groupsOf(oldBody);
  const after = groupsOf(newBody);
  const changes: GroupChange[] = [];
  for (const [key, g] of after) {
    const old = before.get(key);
    const added: string[] = [];
    const removed: string[] = [];
    const addedCount = minus(g.rules, old?.rules, maxRules, added);
    const removedCount = old === undefined ? 0 : minus(old.rules, g.rules, maxRules, removed);
    if (old !== undefined && addedCount === 0 && removedCount === 0) continue;
    changes.push({
      group: g.names,
      change: old === undefined ? 'added' : 'changed',
      added,
      removed,
      addedCount,
      removedCount,
    });
  }
  for (const [key, g] of before) {
    if (after.has(key)) continue;
    const removed: string[] = [];
    const removedCount = minus(g.rules, undefined, maxRules, removed);
    changes.push({ group: g.names, change: 'removed', added: [], removed, addedCount: 0, removedCount });
  }
  return changes;
}

/** The Allow/Disallow rule on 1-based `line` of a body as the verdict columns write it, or '' if none. */
export function ruleAtLine(body: string | Uint8Array, line: number): string {
  const s = toBinary(body);
  let rule = '';
  lexRobots(s, (n, kind, _ks, _ke, vs, ve) => {
    if (n !== line || (kind !== KeyKind.Allow && kind !== KeyKind.Disallow)) return;
    rule = `${kind === KeyKind.Allow ? 'Allow' : 'Disallow'}: ${binaryToText(s.slice(vs, ve))}`;
  });
  return rule;
}
