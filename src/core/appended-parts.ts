// The compiled part of a later version that appended groups to an earlier one, shared by every file that
// appended the same rules: many sites add the same crawler block (copied from one guide), so each of
// their layered rule sets would otherwise hold a compiled copy of it.

import { type CompiledBase, CompiledRuleSet, compiledRules } from './compile.js';
import type { Group } from './group.js';
import { type OrderedRules, orderRules } from './rule-order.js';

/** An appended part compiled once: its rules, their order, and the line its first rule was on then. */
export interface AppendedPart {
  readonly extra: CompiledBase;
  readonly ordered: OrderedRules;
  readonly firstLine: number;
}

/** Parts kept per thread, and the longest key kept: a large appended part is rarely another file's. */
const MAX_PARTS = 4096;
const MAX_KEY = 2048;
const parts = new Map<string, AppendedPart>();

/**
 * The compiled rules of `groups` (appended in a later version) for `agent`, and how many lines further
 * down they are than in the part as kept: a part is the same for every file that appended the same rules
 * (kind and value, on the same lines relative to the first), wherever the file put them.
 */
export function appendedPart(agent: string, groups: readonly Group[]): { part: AppendedPart; shift: number } {
  const firstLine = firstRuleLine(groups);
  const key = keyOf(agent, groups, firstLine);
  let part = key === undefined ? undefined : parts.get(key);
  if (part === undefined) {
    const ordered = orderRules(groups);
    part = {
      extra: compiledRules(agent, new CompiledRuleSet(groups, ordered)) as CompiledBase,
      ordered,
      firstLine,
    };
    if (key !== undefined && parts.size < MAX_PARTS) parts.set(key, part);
  }
  return { part, shift: firstLine - part.firstLine };
}

function firstRuleLine(groups: readonly Group[]): number {
  for (const g of groups) if (g.ruleCount > 0) return g.lineAt(0);
  return 0;
}

/** The agent, then each rule as its line relative to the first, its kind and its value; undefined when too long. */
function keyOf(agent: string, groups: readonly Group[], firstLine: number): string | undefined {
  let key = `${agent}\n`;
  for (const g of groups) {
    for (let k = 0; k < g.ruleCount; k++) {
      key += `${g.lineAt(k) - firstLine}${g.allowedAt(k) ? 'A' : 'D'}${g.body.slice(g.valueStart(k), g.valueEnd(k))}\n`;
      if (key.length > MAX_KEY) return undefined;
    }
  }
  return key;
}
