import { ownString } from '../../core/bytes.js';
import type { TopList } from './report-model.js';
import { decodeLatin1 } from './site-of.js';
import { AGENTS_KEPT, type Held, TopTally } from './top-tally.js';

export type RuleItem = { site: string; line: number; rule: string; status: string; agents: string[] };

/** A rule recently counted, by slot. */
interface RuleMemo {
  site: string;
  line: number;
  lineText: string;
  rule: string;
  status: string;
  held: Held<RuleItem>;
}

/** Slots of remembered rules (a power of 2). */
const RULE_MEMO = 4096;

/**
 * Violations by deciding rule (site, line, rule text; the robots_status when no rule decided), with the
 * agents each stopped. The rules of recent violations are remembered by slot, so that a rule's rows are
 * counted without building and hashing its key each time.
 */
export class RuleTally {
  private readonly tally: TopTally<RuleItem>;
  private readonly memo: (RuleMemo | undefined)[] = new Array(RULE_MEMO);

  constructor(capacity: number) {
    this.tally = new TopTally(capacity);
  }

  /** One violation of `agent` (own strings: `site`, `agent`); `siteHash` is any hash of the site. */
  add(
    site: string,
    siteHash: number,
    lineText: string,
    rule: string,
    status: string,
    agent: string,
    url: string,
    hash: number,
  ): void {
    const item = this.entry(site, siteHash, lineText, rule, status, url, hash);
    const agents = item.agents;
    if (agents.length < AGENTS_KEPT || agent < agents[agents.length - 1]!)
      keepSorted(agents, agent, AGENTS_KEPT);
  }

  private entry(
    site: string,
    siteHash: number,
    lineText: string,
    rule: string,
    status: string,
    url: string,
    hash: number,
  ): RuleItem {
    const line = Number(lineText) || 0;
    const slot = (siteHash ^ Math.imul(line + 1, 0x9e3779b1) ^ (rule.length << 7)) & (RULE_MEMO - 1);
    const tally = this.tally;
    const m = this.memo[slot];
    if (
      m !== undefined &&
      !m.held.dropped &&
      m.site === site &&
      m.line === line &&
      m.lineText === lineText &&
      m.status === status &&
      m.rule === rule
    ) {
      tally.count(m.held, url, hash);
      return m.held.item!;
    }
    const held = tally.add(`${site}\t${lineText}\t${rule}\t${status}`, url, hash);
    held.item ??= { site, line, rule: ownString(rule), status: ownString(status), agents: [] };
    this.memo[slot] = {
      site,
      line,
      lineText: ownString(lineText),
      rule: held.item.rule,
      status: held.item.status,
      held,
    };
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
  let i = list.length;
  while (i > 0 && list[i - 1]! > s) i--;
  if (i > 0 && list[i - 1] === s) return;
  list.splice(i, 0, ownString(s));
  if (list.length > limit) list.pop();
}
