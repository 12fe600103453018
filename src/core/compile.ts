// Compiling a parsed robots.txt for one agent: which groups apply, and the CompiledRules fast path.

import type { Group, GroupRule } from './parse.js';
import { decideIn, RuleIndex, type RuleTable } from './rule-index.js';
import { orderRules } from './rule-order.js';
import { type TinySlot, tinyHit, tinySlots, UNUSED_SLOT } from './tiny-rules.js';
import type { CompiledRules, Decision, RuleInfo } from './types.js';
import { locatePath, type PathSpan, pathFromUrl, SPAN_IN_PLACE } from './url-path.js';

/** Out-parameter for locatePath; checks run one at a time on a thread, so one object serves all. */
const span: PathSpan = { start: 0, end: 0 };

/** RFC 9309 §2.2.2: the robots.txt URI itself is always allowed (the one deliberate exception). */
export const ROBOTS_TXT_PATH = '/robots.txt';

const IMPLICIT: Decision = Object.freeze({ allowed: true, verdict: 'allowed_implicit', line: 0, rule: '' });

/**
 * The groups that apply to an agent key (ASCII lower-cased product token), as RobotsMatcher decides:
 * every group naming the agent; only when none does, every group with a `*` user-agent line. A group
 * naming the agent applies even when it has no rules (then everything is allowed for the agent).
 */
export function selectGroups(
  groups: readonly Group[],
  agentKey: string,
): { specific: boolean; groups: Group[] } {
  const specific = groups.filter((g) => g.tokens.includes(agentKey));
  if (specific.length > 0) return { specific: true, groups: specific };
  return { specific: false, groups: groups.filter((g) => g.global) };
}

export function rulesOf(groups: readonly Group[]): GroupRule[] {
  const out: GroupRule[] = [];
  for (const g of groups) for (const r of g.rules) out.push(r);
  return out;
}

function decisionOf(info: RuleInfo): Decision {
  return Object.freeze({
    allowed: info.allowed,
    verdict: info.allowed ? 'allowed_explicit' : 'disallowed_explicit',
    line: info.line,
    rule: info.rule,
  });
}

/** Rules of one agent in decision order, in the layout that suits their number and shape. */
export class CompiledRuleSet {
  readonly infos: readonly RuleInfo[];
  /** A few prefix/exact rules: tried one by one (see tiny-rules.ts). */
  readonly tiny: TinySlot[] | undefined;
  /** Any other non-empty set: the trie table. */
  readonly index: RuleIndex | undefined;
  /** Decision objects by rank, made on first use (the pipeline only needs `decide`). */
  readonly decisions: (Decision | undefined)[];

  constructor(rules: readonly GroupRule[]) {
    const ordered = orderRules(rules);
    this.infos = ordered.infos;
    this.tiny = tinySlots(ordered);
    this.index =
      ordered.patterns.length === 0 || this.tiny !== undefined ? undefined : new RuleIndex(ordered);
    this.decisions = new Array(ordered.infos.length);
  }

  decision(rank: number): Decision {
    let d = this.decisions[rank];
    if (d === undefined) {
      d = decisionOf(this.infos[rank]!);
      this.decisions[rank] = d;
    }
    return d;
  }
}

/** What every layout shares: the path location, the robots.txt exception and the Decision wrapping. */
abstract class CompiledBase implements CompiledRules {
  readonly agent: string;
  readonly rules: readonly RuleInfo[];
  private readonly set: CompiledRuleSet;
  /** The set's decisions array, shared and filled on first use: one load less per explicit outcome. */
  private readonly decisions: (Decision | undefined)[];

  constructor(agent: string, set: CompiledRuleSet) {
    this.agent = agent;
    this.rules = set.infos;
    this.set = set;
    this.decisions = set.decisions;
  }

  /** Rank of the deciding rule for the path+query `s[start, end)`, or -1. */
  protected abstract decideSpan(s: string, start: number, end: number): number;

  decide(pathAndQuery: string): number {
    if (pathAndQuery.length === ROBOTS_TXT_PATH.length && pathAndQuery === ROBOTS_TXT_PATH) return -1;
    return this.decideSpan(pathAndQuery, 0, pathAndQuery.length);
  }

  /** `decide` on a URL: matched in place when its path needs no rewriting (the usual case). */
  decideUrl(url: string): number {
    if (locatePath(url, span) !== SPAN_IN_PLACE) return this.decide(pathFromUrl(url));
    const { start, end } = span;
    if (end - start === ROBOTS_TXT_PATH.length && url.startsWith(ROBOTS_TXT_PATH, start)) return -1;
    return this.decideSpan(url, start, end);
  }

  checkPath(pathAndQuery: string): Decision {
    return this.decisionOf(this.decide(pathAndQuery));
  }

  check(url: string): Decision {
    return this.decisionOf(this.decideUrl(url));
  }

  private decisionOf(rank: number): Decision {
    if (rank < 0) return IMPLICIT;
    return this.decisions[rank] ?? this.set.decision(rank);
  }
}

/** No rule can decide (a quarter of real hosts for a given agent): nothing to locate or match. */
class NoRules extends CompiledBase {
  protected decideSpan(): number {
    return -1;
  }

  override decide(): number {
    return -1;
  }

  override decideUrl(): number {
    return -1;
  }
}

class TinyRules extends CompiledBase {
  // The slots as fields of this object: a check reads no array.
  private readonly n: number;
  private readonly p0: string;
  private readonly m0: number;
  private readonly p1: string;
  private readonly m1: number;
  private readonly p2: string;
  private readonly m2: number;
  private readonly p3: string;
  private readonly m3: number;

  constructor(agent: string, set: CompiledRuleSet, slots: readonly TinySlot[]) {
    super(agent, set);
    const [s0 = UNUSED_SLOT, s1 = UNUSED_SLOT, s2 = UNUSED_SLOT, s3 = UNUSED_SLOT] = slots;
    this.n = slots.length;
    this.p0 = s0.p;
    this.m0 = s0.m;
    this.p1 = s1.p;
    this.m1 = s1.m;
    this.p2 = s2.p;
    this.m2 = s2.m;
    this.p3 = s3.p;
    this.m3 = s3.m;
  }

  protected decideSpan(s: string, start: number, end: number): number {
    const len = end - start;
    const c1 = len > 1 ? s.charCodeAt(start + 1) : -1;
    const n = this.n;
    if (tinyHit(s, start, len, c1, this.p0, this.m0)) return 0;
    if (n > 1 && tinyHit(s, start, len, c1, this.p1, this.m1)) return 1;
    if (n > 2 && tinyHit(s, start, len, c1, this.p2, this.m2)) return 2;
    if (n > 3 && tinyHit(s, start, len, c1, this.p3, this.m3)) return 3;
    return -1;
  }
}

class TableRules extends CompiledBase implements RuleTable {
  // The table's parts, held here directly: one object less to load per check.
  readonly count: number;
  readonly t: Int32Array;
  readonly pieces: readonly string[];
  readonly filters: readonly RegExp[];

  constructor(agent: string, set: CompiledRuleSet, index: RuleIndex) {
    super(agent, set);
    this.count = index.count;
    this.t = index.t;
    this.pieces = index.pieces;
    this.filters = index.filters;
  }

  protected decideSpan(s: string, start: number, end: number): number {
    return decideIn(this, s, start, end);
  }
}

export function compiledRules(agent: string, set: CompiledRuleSet): CompiledRules {
  if (set.tiny !== undefined) return new TinyRules(agent, set, set.tiny);
  if (set.index !== undefined) return new TableRules(agent, set, set.index);
  return new NoRules(agent, set);
}
