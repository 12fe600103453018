import { ownString } from '../../core/bytes.js';

/** Verdict flips per site and agent, in bounded memory (the changes section's figures). */

export interface FlipCounts {
  /** Allowed under the previous version, disallowed in the data. */
  allowedToDisallowed: number;
  disallowedToAllowed: number;
}

export interface FlipRule {
  /** `new`: the data's deciding rule (the row is now disallowed); `old`: the previous version's. */
  version: 'new' | 'old';
  line: number;
  rule: string;
}

export interface FlipEntry extends FlipCounts {
  site: string;
  agent: string;
  /** Up to 3 URLs that flipped, the smallest in byte order (so merged reports equal the whole). */
  examples: string[];
  /** The rule of the smallest example URL; null when no rule decided (an unreachable or missing file). */
  rule: FlipRule | null;
}

interface FlipState extends FlipEntry {
  total: number;
}

/** Keeps the `max` smallest URLs, sorted (UTF-16 order is byte order for the BMP; URLs are mostly ASCII). */
export function addExample(examples: string[], url: string, max = 3): void {
  if (examples.includes(url)) return;
  if (examples.length >= max && url >= examples[examples.length - 1]!) return;
  examples.push(ownString(url));
  examples.sort();
  if (examples.length > max) examples.length = max;
}

function flipTotal(f: FlipCounts): number {
  return f.allowedToDisallowed + f.disallowedToAllowed;
}

/** Most flips first, ties by site then agent. */
export function compareFlips(a: FlipEntry, b: FlipEntry): number {
  return (
    flipTotal(b) - flipTotal(a) ||
    (a.site < b.site ? -1 : a.site > b.site ? 1 : 0) ||
    (a.agent < b.agent ? -1 : a.agent > b.agent ? 1 : 0)
  );
}

export class FlipTally {
  private readonly entries = new Map<string, FlipState>();
  private readonly byAgent = new Map<string, FlipCounts>();
  /** False once a (site, agent) entry was dropped: its flips still count per agent. */
  exact = true;

  /** Entries kept: between `keep` and twice that. */
  constructor(private readonly keep: number) {}

  /** One row that flipped; `ruleOf` is asked only when the row becomes its entry's first example. */
  add(site: string, agent: string, url: string, ruleOf: () => FlipRule | null, toDisallowed: boolean): void {
    let counts = this.byAgent.get(agent);
    if (counts === undefined) {
      counts = { allowedToDisallowed: 0, disallowedToAllowed: 0 };
      this.byAgent.set(ownString(agent), counts);
    }
    const key = `${site}\n${agent}`;
    let f = this.entries.get(key);
    if (f === undefined) {
      f = {
        site: ownString(site),
        agent: ownString(agent),
        allowedToDisallowed: 0,
        disallowedToAllowed: 0,
        total: 0,
        examples: [],
        rule: null,
      };
      this.entries.set(key, f);
    }
    if (toDisallowed) {
      counts.allowedToDisallowed++;
      f.allowedToDisallowed++;
    } else {
      counts.disallowedToAllowed++;
      f.disallowedToAllowed++;
    }
    f.total++;
    const smallest = f.examples[0];
    addExample(f.examples, url);
    if (f.examples[0] !== smallest || f.total === 1) f.rule = ruleOf();
    // After counting, so that the row counts in its entry if the entry is kept.
    if (this.entries.size > 2 * this.keep) this.prune();
  }

  /** Keeps the `keep` entries with most flips (on a tie the older); a dropped entry seen again restarts. */
  private prune(): void {
    this.exact = false;
    const sorted = [...this.entries.entries()].sort((a, b) => b[1].total - a[1].total);
    for (let i = this.keep; i < sorted.length; i++) this.entries.delete(sorted[i]![0]);
  }

  /** Flips by agent, agents sorted. */
  agents(): Record<string, FlipCounts> {
    const out: Record<string, FlipCounts> = {};
    for (const agent of [...this.byAgent.keys()].sort()) out[agent] = { ...this.byAgent.get(agent)! };
    return out;
  }

  top(limit: number): FlipEntry[] {
    return [...this.entries.values()]
      .sort(compareFlips)
      .slice(0, limit)
      .map(({ total: _total, ...f }) => ({ ...f, examples: [...f.examples] }));
  }
}
