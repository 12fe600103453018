// An earlier version's compiled rules read in the ranks of a later version's rules layered on them (see
// AppendedRules.baseRanks): both versions then share one rank space, so one set of verdict texts and
// rule counters serves the rows judged under either.

import { RankedView } from './rank-decisions.js';
import type { CompiledRules } from './types.js';

/** A decision of the base (a rank, or -1) in the layered set's ranks: its empty-pattern rule is the fallback. */
export function inLayeredRanks(rank: number, nb: number, fallback: number): number {
  return rank === nb ? fallback : rank;
}

/**
 * The rules an AppendedRules stands on, deciding as they do but in its ranks: their pattern ranks are
 * the same there, and their empty-pattern rule is its fallback. Rank facts are the layered set's.
 */
export class BaseRanks extends RankedView {
  readonly agent: string;
  readonly count: number;

  constructor(
    /** The earlier rules (public: a caller that holds these three decides as this object, one load less). */
    readonly base: CompiledRules,
    /** The base's pattern count: the rank of its empty-pattern rule, when it has one. */
    readonly nb: number,
    /** The layered set's fallback rank. */
    readonly fallback: number,
    private readonly layered: CompiledRules,
  ) {
    super();
    this.agent = layered.agent;
    this.count = layered.count;
  }

  decide(pathAndQuery: string): number {
    return inLayeredRanks(this.base.decide(pathAndQuery), this.nb, this.fallback);
  }

  decideUrl(url: string): number {
    return inLayeredRanks(this.base.decideUrl(url), this.nb, this.fallback);
  }

  allowedAt(rank: number): boolean {
    // A pattern rank of the base is the base's own: one call less than through the layered set.
    return rank < this.nb ? this.base.allowedAt(rank) : this.layered.allowedAt(rank);
  }

  lineAt(rank: number): number {
    return this.layered.lineAt(rank);
  }

  ruleAt(rank: number): string {
    return this.layered.ruleAt(rank);
  }
}
