// Groups made from rule lists, for tests of the compile steps that take an agent's selected groups.

import { isAscii } from '../../src/core/bytes.js';
import { Group } from '../../src/core/group.js';

export interface RuleSpec {
  readonly allowed: boolean;
  /** The value as written (a binary string: one char per byte). */
  readonly value: string;
  readonly line: number;
}

export function ruleSpec(allowed: boolean, value: string, line: number): RuleSpec {
  return { allowed, value, line };
}

/** One group holding `rules` in this order, over a body made of their values. */
export function groupOf(rules: readonly RuleSpec[]): Group[] {
  const body = rules.map((r) => r.value).join('');
  const g = new Group(body, isAscii(body) && !body.includes('%'));
  let at = 0;
  for (const r of rules) {
    g.addRule(r.allowed, r.line, at, at + r.value.length);
    at += r.value.length;
  }
  return [g];
}

/** The lines of an ordered set's ranks. */
export function linesOf(facts: { count: number; line(rank: number): number }): number[] {
  return Array.from({ length: facts.count }, (_, r) => facts.line(r));
}
