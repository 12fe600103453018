import type { OriginEntry } from './origin-store.js';
import type { BatchStats } from './protocol.js';
import { GRACE_CLASS, V_INVALID_INPUT, VERDICTS } from './verdict-format.js';

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

  constructor(private readonly agents: number) {
    this.counts = new Float64Array(agents * NV);
    this.grace = new Float64Array(agents);
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

  /** Grace rows per agent, or null when there were none. */
  graceCounts(): number[] | null {
    return this.graced ? Array.from(this.grace) : null;
  }

  /** The batch's figures, with the per-origin counters of `dirty` origins (which are reset). */
  collect(rows: number, dirty: OriginEntry[]): BatchStats {
    const verdicts: number[][] = [];
    for (let a = 0; a < this.agents; a++)
      verdicts.push(Array.from(this.counts.subarray(a * NV, (a + 1) * NV)));
    const disallowedHosts: [number, string, number][] = [];
    const rules: [number, string, number, string, number][] = [];
    for (const e of dirty) {
      for (let a = 0; a < this.agents; a++) {
        if (e.disallowed[a]! > 0) disallowedHosts.push([a, e.key, e.disallowed[a]!]);
        e.disallowed[a] = 0;
        const hits = e.ruleHits[a]!;
        if (hits.empty) continue;
        const set = e.hitRules![a]!;
        for (const [idx, c] of hits.drain()) rules.push([a, e.key, set.lineAt(idx), set.ruleAt(idx), c]);
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
