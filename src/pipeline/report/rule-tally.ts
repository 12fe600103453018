import { ownString } from '../../core/bytes.js';
import type { TopList } from './report-model.js';
import { decodeLatin1 } from './site-of.js';
import type { SiteState } from './site-table.js';
import { AGENTS_KEPT, type ExampleSource, type Held, TopTally } from './top-tally.js';

export type RuleItem = { site: string; line: number; rule: string; status: string; agents: string[] };

/** Slots of remembered rules (a power of 2): bounded, so memos never keep many dropped entries alive. */
const RULE_MEMO = 32768;

/** What the rule tally reads of a row: its fields by index, compared in place. */
export interface RuleFields {
  get(i: number): string;
  empty(i: number): boolean;
  fingerprint(i: number, j: number, k: number, a: number, b: number, out: Int32Array): void;
}

/**
 * Violations by deciding rule (site, line, rule text; the robots_status when no rule decided), with the
 * agents each stopped. The rules of recent violations are remembered by fingerprint, so that a rule's rows
 * are counted without building and hashing its key each time.
 */
export class RuleTally {
  private readonly tally: TopTally<RuleItem>;
  /**
   * Entries of recent rules by slot, with the 64-bit fingerprint of their key (site, line, rule, status):
   * a row's rule is found by its fingerprint, with no text compared (two keys share one with odds of about
   * 2^-64 a lookup).
   */
  private readonly memoA = new Int32Array(RULE_MEMO);
  private readonly memoB = new Int32Array(RULE_MEMO);
  private readonly memoHeld: (Held<RuleItem> | undefined)[] = new Array(RULE_MEMO);
  private readonly fp = new Int32Array(2);

  constructor(capacity: number) {
    this.tally = new TopTally(capacity);
  }

  /**
   * One violation of `agent` (an own string) at `site`: the row's deciding line, rule and robots_status
   * are fields `lineCol`, `ruleCol` and `statusCol` of `v` (-1: none); `hash` is the row URL's exampleHash.
   */
  add(
    site: SiteState,
    v: RuleFields,
    lineCol: number,
    ruleCol: number,
    statusCol: number,
    agent: string,
    hash: number,
    src: ExampleSource,
  ): void {
    const item = this.entry(site, v, lineCol, ruleCol, statusCol, hash, src);
    const agents = item.agents;
    if (agents.length < AGENTS_KEPT || agent < agents[agents.length - 1]!)
      keepSorted(agents, agent, AGENTS_KEPT);
  }

  private entry(
    site: SiteState,
    v: RuleFields,
    lineCol: number,
    ruleCol: number,
    statusCol: number,
    hash: number,
    src: ExampleSource,
  ): RuleItem {
    const noLine = v.empty(lineCol);
    const fp = this.fp;
    v.fingerprint(lineCol, ruleCol, noLine ? statusCol : -1, site.a, site.b, fp);
    const a = fp[0]!;
    const b = fp[1]!;
    const slot = (a ^ (b >>> 13)) & (RULE_MEMO - 1);
    if (this.memoA[slot] === a && this.memoB[slot] === b) {
      const held = this.memoHeld[slot];
      if (held !== undefined && !held.dropped) {
        this.tally.countHash(held, hash, src);
        return held.item!;
      }
    }
    const lineText = v.get(lineCol);
    const rule = v.get(ruleCol);
    const status = noLine ? v.get(statusCol) : '';
    const held = this.tally.addHash(`${site.site}\t${lineText}\t${rule}\t${status}`, hash, src);
    held.item ??= {
      site: site.site,
      line: Number(lineText) || 0,
      rule: ownString(rule),
      status: ownString(status),
      agents: [],
    };
    this.memoA[slot] = a;
    this.memoB[slot] = b;
    this.memoHeld[slot] = held;
    return held.item;
  }

  toList(show: number): TopList<RuleItem> {
    return this.tally.toList(
      show,
      (e) => ({ ...e, rule: decodeLatin1(e.rule), agents: e.agents.map(decodeLatin1) }),
      decodeLatin1,
    );
  }
}

/** Keeps `s` (copied) among the `limit` smallest strings of a sorted list without repeats. */
function keepSorted(list: string[], s: string, limit: number): void {
  const n = list.length;
  let i = n;
  while (i > 0 && list[i - 1]! > s) i--;
  if (i > 0 && list[i - 1] === s) return;
  if (i === limit) return;
  // Shifted by hand: `splice` makes an array of what it removes on every call.
  let j = n;
  if (n < limit) list.push('');
  else j = n - 1;
  for (; j > i; j--) list[j] = list[j - 1]!;
  list[i] = ownString(s);
}
