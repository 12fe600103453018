import { GRACE_CLASS, V_INVALID_INPUT, VERDICTS } from '../rows/verdict-format.js';
import type { OriginEntry } from './origin-store.js';
import type { BatchStats } from './protocol.js';

const NV = VERDICTS.length;
const MAX_EXAMPLES = 5;

/** A batch's figures: verdict counts per agent, invalid rows, and the counters of origins used. */
export class RowStats {
  private readonly counts: Float64Array;
  private readonly invalid = new Map<string, number>();
  private readonly examples: [number, string][] = [];
  /** Rows written (a shard skips the rows of other shards' hosts). */
  written = 0;
  /** As of a time: disallowed rows per agent that a version in force within the grace allowed. */
  private readonly grace: Float64Array;
  private graced = false;
  private readonly everyAgent: number[];

  constructor(private readonly agents: number) {
    this.counts = new Float64Array(agents * NV);
    this.grace = new Float64Array(agents);
    this.everyAgent = Array.from({ length: agents }, (_, a) => a);
  }

  invalidRow(i: number, code: string): void {
    for (let a = 0; a < this.agents; a++) this.counts[a * NV + V_INVALID_INPUT]++;
    this.invalid.set(code, (this.invalid.get(code) ?? 0) + 1);
    if (this.examples.length < MAX_EXAMPLES) this.examples.push([i, code]);
  }

  /** One row's verdict classes, one per agent, at classes[at…]. */
  addClasses(classes: Uint8Array, at: number): void {
    for (let a = 0; a < this.agents; a++) {
      const c = classes[at + a]!;
      if (c & GRACE_CLASS) {
        this.grace[a]!++;
        this.graced = true;
        this.counts[a * NV + (c & ~GRACE_CLASS)]++;
      } else this.counts[a * NV + c]++;
    }
  }

  /**
   * Agent `a` alone, or with the later agents `same` holds for: one counter entry for agents whose
   * counts are the same (most often every agent: one decision per row serves them all).
   */
  private agentsLike(a: number, same: (b: number) => boolean): number | number[] {
    let group: number[] | null = null;
    for (let b = a + 1; b < this.agents; b++) {
      if (!same(b)) continue;
      group ??= [a];
      group.push(b);
    }
    if (group === null) return a;
    // One array for every agent: sent once per message (the structured clone keeps shared references).
    return group.length === this.agents ? this.everyAgent : group;
  }

  /** Grace rows per agent, or null when there were none. */
  graceCounts(): number[] | null {
    return this.graced ? Array.from(this.grace) : null;
  }

  /** The batch's figures, with the per-origin counters of `dirty` origins (which are reset). */
  collect(rows: number, dirty: OriginEntry[]): BatchStats {
    const verdicts: number[][] = [];
    for (let a = 0; a < this.agents; a++)
      verdicts.push(Array.from(this.counts.subarray(a * NV, (a + 1) * NV)));
    const disallowedHosts: BatchStats['disallowedHosts'] = [];
    const rules: BatchStats['rules'] = [];
    const n = this.agents;
    for (const e of dirty) {
      const counts = e.disallowed;
      for (let a = 0; a < n; a++) {
        const d = counts[a]!;
        if (d === 0) continue;
        disallowedHosts.push([this.agentsLike(a, (b) => counts[b] === d), e.key, d]);
        for (let b = a; b < n; b++) if (counts[b] === d) counts[b] = 0;
      }
      for (let a = 0; a < n; a++) {
        // Agents that decide alike share one counter: drained at the first, its hits count for each.
        const hits = e.ruleHits[a]!;
        if (hits.empty) continue;
        const agents = this.agentsLike(a, (b) => e.ruleHits[b] === hits);
        const set = e.hitRules![a]!;
        for (const [idx, c] of hits.drain())
          rules.push([agents, e.key, set.lineAt(idx), set.ruleAt(idx), c, set.allowedAt(idx)]);
      }
      e.hitRules = null;
    }
    return {
      records: rows,
      inputRecords: rows,
      blankLines: 0,
      hostMismatch: 0,
      invalid: [...this.invalid],
      verdicts,
      disallowedHosts,
      rules,
      invalidExamples: this.examples,
      workMs: 0,
      policyWaitMs: 0,
      compiles: 0,
      policies: null,
    };
  }
}
