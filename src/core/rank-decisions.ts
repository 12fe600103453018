// What the rule sets layered over compiled rules share: their own estimated size, and Decisions and
// RuleInfos by rank, made on demand from the rank's facts (the pipeline reads ranks, not Decisions).

import { explicitDecision, IMPLICIT } from './compile.js';
import type { CompiledRules, Decision, RuleInfo } from './types.js';

/** Estimated bytes of the object's own fields and headers. */
export const OWN_BYTES = 96;

/**
 * Compiled rules that answer by rank through other compiled rules (ShiftedRules, AppendedRules,
 * BaseRanks): `checkPath`, `check` and `rules` from the rank's allowed, line and rule text.
 */
export abstract class RankedView implements CompiledRules {
  abstract readonly agent: string;
  abstract readonly count: number;
  /** Decisions by rank, made on the first `check`. */
  private made: (Decision | undefined)[] | undefined;
  private infos: RuleInfo[] | undefined;

  abstract decide(pathAndQuery: string): number;
  abstract decideUrl(url: string): number;
  abstract allowedAt(rank: number): boolean;
  abstract lineAt(rank: number): number;
  abstract ruleAt(rank: number): string;

  /** Without the rules it stands on: they are counted where they were compiled (see layeredOn). */
  get byteSize(): number {
    return OWN_BYTES;
  }

  /** Every rule by rank, frozen. */
  get rules(): readonly RuleInfo[] {
    if (this.infos === undefined) {
      const infos: RuleInfo[] = [];
      for (let r = 0; r < this.count; r++)
        infos.push(Object.freeze({ allowed: this.allowedAt(r), line: this.lineAt(r), rule: this.ruleAt(r) }));
      this.infos = infos;
    }
    return this.infos;
  }

  checkPath(pathAndQuery: string): Decision {
    return this.decisionAt(this.decide(pathAndQuery));
  }

  check(url: string): Decision {
    return this.decisionAt(this.decideUrl(url));
  }

  private decisionAt(rank: number): Decision {
    if (rank < 0) return IMPLICIT;
    this.made ??= new Array(this.count);
    let d = this.made[rank];
    if (d === undefined) {
      d = explicitDecision(this.allowedAt(rank), this.lineAt(rank), this.ruleAt(rank));
      this.made[rank] = d;
    }
    return d;
  }
}
