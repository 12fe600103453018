import { detached } from './detached.js';

/**
 * The figures of a diff: rows compared, flips per agent and direction, and the sites with the most
 * flips (bounded: the summary says whether the site list is exact).
 */

export const DIRECTIONS = ['allowed_to_disallowed', 'disallowed_to_allowed', 'other'] as const;
export type Direction = (typeof DIRECTIONS)[number];

/** The direction of a change of the `allowed` cell (`true`, `false` or empty). */
export function directionOf(oldAllowed: string, newAllowed: string): Direction {
  if (oldAllowed === 'true' && newAllowed === 'false') return 'allowed_to_disallowed';
  if (oldAllowed === 'false' && newAllowed === 'true') return 'disallowed_to_allowed';
  return 'other';
}

const DIRECTION_INDEX: Record<Direction, number> = {
  allowed_to_disallowed: 0,
  disallowed_to_allowed: 1,
  other: 2,
};

type Counts = [number, number, number, number];

/** Counts per key (total, then per direction), keeping the `capacity` largest once 2×capacity are held. */
class BoundedCounts {
  private readonly counts = new Map<string, Counts>();
  /** Largest total ever dropped (0: every count is exact). */
  dropBound = 0;

  constructor(private readonly capacity: number) {}

  add(key: string, d: number): void {
    let c = this.counts.get(key);
    if (c === undefined) {
      c = [0, 0, 0, 0];
      this.counts.set(detached(key), c);
    }
    c[0]++;
    c[d + 1]!++;
    if (this.counts.size > 2 * this.capacity) this.prune();
  }

  private prune(): void {
    const sorted = [...this.counts.entries()].sort((a, b) => b[1][0] - a[1][0]);
    for (let i = this.capacity; i < sorted.length; i++) {
      const [key, c] = sorted[i]!;
      if (c[0] > this.dropBound) this.dropBound = c[0];
      this.counts.delete(key);
    }
  }

  top(k: number): [string, Counts][] {
    return [...this.counts.entries()].sort((a, b) => b[1][0] - a[1][0] || (a[0] < b[0] ? -1 : 1)).slice(0, k);
  }
}

/** How many sites the summary lists. */
export const TOP_SITES = 100;

export interface DiffSummary {
  old: string;
  new: string;
  matching: 'position' | 'key';
  key: string | null;
  compared: 'allowed' | 'verdict';
  /** The agents compared by name (the one unnamed agent of a one-agent run is ''). */
  agents: string[];
  /** Each row's own agent was compared (`--agent-column` runs); its flips count under that agent. */
  rowAgent: boolean;
  rowsOld: number;
  rowsNew: number;
  rowsCompared: number;
  rowsFlipped: number;
  flips: number;
  onlyInOld: number;
  onlyInNew: number;
  flipsByAgent: Record<string, Record<Direction, number>>;
  flipsByAgentExact: boolean;
  topSites: ({ site: string; flips: number } & Record<Direction, number>)[];
  topSitesExact: boolean;
  timing: { wallMs: number };
}

const latin1ToUtf8 = (s: string) => Buffer.from(s, 'latin1').toString('utf8');

export class FlipTally {
  rowsOld = 0;
  rowsNew = 0;
  rowsCompared = 0;
  rowsFlipped = 0;
  flips = 0;
  onlyInOld = 0;
  onlyInNew = 0;
  private readonly byAgent = new BoundedCounts(1000);
  private readonly bySite = new BoundedCounts(5000);

  /** One flip of `agent` at `site` (both as read: latin1). */
  flip(agent: string, site: string, direction: Direction): void {
    const d = DIRECTION_INDEX[direction];
    this.flips++;
    this.byAgent.add(agent, d);
    this.bySite.add(site, d);
  }

  summary(
    head: Omit<
      DiffSummary,
      keyof FlipTally | 'flipsByAgent' | 'flipsByAgentExact' | 'topSites' | 'topSitesExact' | 'timing'
    >,
    wallMs: number,
  ): DiffSummary {
    const split = (c: Counts) => ({
      allowed_to_disallowed: c[1],
      disallowed_to_allowed: c[2],
      other: c[3],
    });
    const flipsByAgent: Record<string, Record<Direction, number>> = {};
    for (const a of head.agents) flipsByAgent[a] = split([0, 0, 0, 0]);
    for (const [agent, c] of this.byAgent.top(Number.MAX_SAFE_INTEGER)) {
      flipsByAgent[latin1ToUtf8(agent)] = split(c);
    }
    return {
      ...head,
      rowsOld: this.rowsOld,
      rowsNew: this.rowsNew,
      rowsCompared: this.rowsCompared,
      rowsFlipped: this.rowsFlipped,
      flips: this.flips,
      onlyInOld: this.onlyInOld,
      onlyInNew: this.onlyInNew,
      flipsByAgent,
      flipsByAgentExact: this.byAgent.dropBound === 0,
      topSites: this.bySite
        .top(TOP_SITES)
        .map(([site, c]) => ({ site: latin1ToUtf8(site), flips: c[0], ...split(c) })),
      topSitesExact: this.bySite.dropBound === 0,
      timing: { wallMs: Math.round(wallMs) },
    };
  }
}
