// What the rule sets layered over compiled rules share: their own estimated size, and Decisions and
// RuleInfos by rank, made on demand from the rank's facts.

import { explicitDecision, IMPLICIT } from './compile.js';
import type { CompiledRules, Decision, RuleInfo } from './types.js';

/** Estimated bytes of the object's own fields and headers. */
export const OWN_BYTES = 96;

/** Decisions of `rules` by rank, made on first use (with the rank's allowed, line and rule text). */
export class Decisions {
  private made: (Decision | undefined)[] | undefined;

  of(rules: CompiledRules, rank: number): Decision {
    if (rank < 0) return IMPLICIT;
    this.made ??= new Array(rules.count);
    let d = this.made[rank];
    if (d === undefined) {
      d = explicitDecision(rules.allowedAt(rank), rules.lineAt(rank), rules.ruleAt(rank));
      this.made[rank] = d;
    }
    return d;
  }
}

/** Every rule of `rules` by rank, frozen. */
export function ruleInfos(rules: CompiledRules): RuleInfo[] {
  const infos: RuleInfo[] = [];
  for (let r = 0; r < rules.count; r++)
    infos.push(Object.freeze({ allowed: rules.allowedAt(r), line: rules.lineAt(r), rule: rules.ruleAt(r) }));
  return infos;
}
