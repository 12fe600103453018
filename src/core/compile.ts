// Compiling a parsed robots.txt for one agent: which groups apply, and the CompiledRules fast path.

import type { Group } from './parse.js';
import { allowedIn, type RuleFacts } from './rule-facts.js';
import { decideIn, RuleIndex, type RuleTable } from './rule-index.js';
import { type OrderedRules, orderRules } from './rule-order.js';
import { type TinySlot, tinyHit, tinySlots, UNUSED_SLOT } from './tiny-rules.js';
import type { CompiledRules, Decision, RuleInfo } from './types.js';
import { locatePath, type PathSpan, pathFromUrl, SPAN_IN_PLACE } from './url-path.js';

/** Out-parameter for locatePath; checks run one at a time on a thread, so one object serves all. */
const span: PathSpan = { start: 0, end: 0 };

/**
 * RFC 9309 §2.2.2: the robots.txt URI itself is always allowed (the one deliberate exception). A rule
 * that would disallow it gives way to "no rule decided"; a rule that allows it is reported as usual.
 */
export const ROBOTS_TXT_PATH = '/robots.txt';

/** Estimated bytes of a set's or compiled object's own fields and headers. */
const SET_BYTES = 96;
const COMPILED_BYTES = 64;

/** The Decision when no rule decides: shared, never written. */
export const IMPLICIT: Decision = Object.freeze({
  allowed: true,
  verdict: 'allowed_implicit',
  line: 0,
  rule: '',
});

/** The Decision of a rule that decided (made once per rank by its holder, frozen). */
export function explicitDecision(allowed: boolean, line: number, rule: string): Decision {
  return Object.freeze({
    allowed,
    verdict: allowed ? 'allowed_explicit' : 'disallowed_explicit',
    line,
    rule,
  });
}

/** Compiled rules whose rank for a path span can be asked without the robots.txt exception applied. */
export type RankedRules = CompiledRules & { rankOf(s: string, start: number, end: number): number };

/**
 * `rank`, the rule that decides the path `s[start, end)`, or -1 when that rule would disallow
 * /robots.txt itself (see ROBOTS_TXT_PATH).
 */
function exemptRobotsTxt(rules: RankedRules, rank: number, s: string, start: number, end: number): number {
  if (rank < 0 || end - start !== ROBOTS_TXT_PATH.length || rules.allowedAt(rank)) return rank;
  return s.startsWith(ROBOTS_TXT_PATH, start) ? -1 : rank;
}

/** `decide` of ranked rules: the rank of the deciding rule for a path+query, or -1. */
export function decideBy(rules: RankedRules, pathAndQuery: string): number {
  return exemptRobotsTxt(
    rules,
    rules.rankOf(pathAndQuery, 0, pathAndQuery.length),
    pathAndQuery,
    0,
    pathAndQuery.length,
  );
}

/** `decideUrl` of ranked rules: the path located in place when it needs no rewriting. */
export function decideUrlBy(rules: RankedRules, url: string): number {
  if (locatePath(url, span) !== SPAN_IN_PLACE) return rules.decide(pathFromUrl(url));
  const { start, end } = span;
  return exemptRobotsTxt(rules, rules.rankOf(url, start, end), url, start, end);
}

/** The decisions of a set none was asked of yet: empty, never written (see CompiledRuleSet.decisions). */
const NO_DECISIONS: readonly (Decision | undefined)[] = Object.freeze([]);

/**
 * The groups that apply to an agent key (ASCII lower-cased product token), as RobotsMatcher decides:
 * every group naming the agent; only when none does, every group with a `*` user-agent line. A group
 * naming the agent applies even when it has no rules (then everything is allowed for the agent).
 */
export function selectGroups(
  groups: readonly Group[],
  agentKey: string,
): { specific: boolean; groups: Group[] } {
  // Most files name no agent of a crawl's few: no array is made for that search.
  let specific: Group[] | undefined;
  for (const g of groups) {
    if (!g.tokens.includes(agentKey)) continue;
    specific ??= [];
    specific.push(g);
  }
  if (specific !== undefined) return { specific: true, groups: specific };
  return { specific: false, groups: groups.filter((g) => g.global) };
}

/** Rules of one agent in decision order, in the layout that suits their number and shape. */
export class CompiledRuleSet {
  /** Allowed, line and rule text by rank. */
  readonly facts: RuleFacts;
  /** A few prefix/exact rules: tried one by one (see tiny-rules.ts). */
  readonly tiny: TinySlot[] | undefined;
  /** Any other non-empty set: the trie table. */
  readonly index: RuleIndex | undefined;
  /** Rank of the empty-pattern rule that decides when no pattern matches (the last rank), or -1. */
  readonly fallback: number;
  readonly byteSize: number;
  /**
   * Decision objects by rank, each made on first use; NO_DECISIONS until the first. The pipeline only
   * needs `decide`: an array per set sized by its rules, all holes, was ≈ 2 MiB of a worker's heap.
   */
  decisions: readonly (Decision | undefined)[] = NO_DECISIONS;
  private infos: RuleInfo[] | undefined;

  /** The rules of `groups` (those selected for an agent), in file order; `ordered` when already ordered. */
  constructor(groups: readonly Group[], ordered: OrderedRules = orderRules(groups)) {
    this.facts = ordered.facts;
    this.fallback = ordered.fallback;
    this.tiny = tinySlots(ordered);
    this.index =
      ordered.patterns.length === 0 || this.tiny !== undefined ? undefined : new RuleIndex(ordered);
    let bytes = SET_BYTES + this.facts.byteSize + 4 * this.facts.count;
    if (this.tiny !== undefined) for (const t of this.tiny) bytes += SET_BYTES + t.p.length;
    if (this.index !== undefined) bytes += this.index.byteSize;
    this.byteSize = bytes;
  }

  get ruleInfos(): readonly RuleInfo[] {
    if (this.infos === undefined) {
      const infos: RuleInfo[] = new Array(this.facts.count);
      for (let r = 0; r < infos.length; r++) infos[r] = Object.freeze(this.facts.info(r));
      this.infos = infos;
    }
    return this.infos;
  }

  decision(rank: number): Decision {
    let d = this.decisions[rank];
    if (d === undefined) {
      d = explicitDecision(this.facts.allowed(rank), this.facts.line(rank), this.facts.rule(rank));
      const made: (Decision | undefined)[] =
        this.decisions === NO_DECISIONS ? new Array(this.facts.count) : (this.decisions as Decision[]);
      made[rank] = d;
      this.decisions = made;
    }
    return d;
  }
}

/** What every layout shares: the path location, the robots.txt exception and the Decision wrapping. */
export abstract class CompiledBase implements CompiledRules {
  readonly agent: string;
  readonly count: number;
  private readonly set: CompiledRuleSet;
  private readonly facts: RuleFacts;
  /** The facts' packed array, held here: a row's `allowedAt` loads one object less. */
  private readonly packed: Int32Array;
  /** The set's decisions, shared and filled on first use: one load less per explicit outcome. */
  private decisions: readonly (Decision | undefined)[];
  /** What a path no pattern matches gets: the empty-pattern rule's rank, or -1 (see CompiledRuleSet). */
  protected readonly fallback: number;

  constructor(agent: string, set: CompiledRuleSet) {
    this.agent = agent;
    this.count = set.facts.count;
    this.set = set;
    this.facts = set.facts;
    this.packed = set.facts.packed;
    this.decisions = set.decisions;
    this.fallback = set.fallback;
  }

  get rules(): readonly RuleInfo[] {
    return this.set.ruleInfos;
  }

  get byteSize(): number {
    return COMPILED_BYTES + this.set.byteSize;
  }

  /**
   * Rank of the deciding rule for the path+query `s[start, end)` (the fallback when no pattern matches),
   * or -1; the robots.txt exception is applied by `decide` (rules layered on these ask for the rank alone).
   */
  abstract rankOf(s: string, start: number, end: number): number;

  decide(pathAndQuery: string): number {
    return decideBy(this, pathAndQuery);
  }

  decideUrl(url: string): number {
    return decideUrlBy(this, url);
  }

  allowedAt(rank: number): boolean {
    return allowedIn(this.packed, rank);
  }

  lineAt(rank: number): number {
    return this.facts.line(rank);
  }

  ruleAt(rank: number): string {
    return this.facts.rule(rank);
  }

  checkPath(pathAndQuery: string): Decision {
    const rank = this.decide(pathAndQuery);
    return rank < 0 ? IMPLICIT : (this.decisions[rank] ?? this.decisionAt(rank));
  }

  check(url: string): Decision {
    const rank = this.decideUrl(url);
    return rank < 0 ? IMPLICIT : (this.decisions[rank] ?? this.decisionAt(rank));
  }

  /** The set's decision, made now; the set's array of them is then this object's too (it may be new). */
  private decisionAt(rank: number): Decision {
    const d = this.set.decision(rank);
    this.decisions = this.set.decisions;
    return d;
  }

  static shareSet(a: CompiledBase, b: CompiledBase): boolean {
    return a.set === b.set;
  }
}

/**
 * Whether two compiled forms decide every path alike by one rule set: those of agents of one parse that
 * select the same groups. Their decisions, ranks and rule texts are then the same for every path.
 */
export function sameRuleSet(a: CompiledRules, b: CompiledRules): boolean {
  return a === b || (a instanceof CompiledBase && b instanceof CompiledBase && CompiledBase.shareSet(a, b));
}

/**
 * No pattern: nothing to locate or match. Without rules (a quarter of real hosts for a given agent) no
 * rule decides; with only an empty rule (`Disallow:`, the commonest real file) it decides every path,
 * and allows, so even /robots.txt needs no test.
 */
class NoPatterns extends CompiledBase {
  rankOf(): number {
    return this.fallback;
  }

  override decide(): number {
    return this.fallback;
  }

  override decideUrl(): number {
    return this.fallback;
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

  rankOf(s: string, start: number, end: number): number {
    const len = end - start;
    const c1 = len > 1 ? s.charCodeAt(start + 1) : -1;
    const n = this.n;
    if (tinyHit(s, start, len, c1, this.p0, this.m0)) return 0;
    if (n > 1 && tinyHit(s, start, len, c1, this.p1, this.m1)) return 1;
    if (n > 2 && tinyHit(s, start, len, c1, this.p2, this.m2)) return 2;
    if (n > 3 && tinyHit(s, start, len, c1, this.p3, this.m3)) return 3;
    return this.fallback;
  }
}

class TableRules extends CompiledBase implements RuleTable {
  // The table's parts, held here directly: one object less to load per check.
  readonly entries: number;
  readonly t: Int32Array;
  readonly pieces: readonly string[];
  readonly filters: readonly RegExp[];
  // RuleIndex.lead as fields, so that most paths no rule can match are told without reading the table.
  private readonly gated: boolean;
  private readonly g0: number;
  private readonly g1: number;
  private readonly g2: number;
  private readonly g3: number;

  constructor(agent: string, set: CompiledRuleSet, index: RuleIndex) {
    super(agent, set);
    const lead = index.lead;
    this.gated = lead !== undefined;
    this.g0 = lead?.[0] ?? -1;
    this.g1 = lead?.[1] ?? -1;
    this.g2 = lead?.[2] ?? -1;
    this.g3 = lead?.[3] ?? -1;
    this.entries = index.entries;
    this.t = index.t;
    this.pieces = index.pieces;
    this.filters = index.filters;
  }

  rankOf(s: string, start: number, end: number): number {
    if (this.gated) {
      if (end - start < 2 || s.charCodeAt(start) !== 47) return this.fallback;
      const c = s.charCodeAt(start + 1);
      if (c >= 128) return this.fallback;
      const w = c < 64 ? (c < 32 ? this.g0 : this.g1) : c < 96 ? this.g2 : this.g3;
      if (((w >>> (c & 31)) & 1) === 0) return this.fallback;
    }
    const rank = decideIn(this, s, start, end);
    return rank < 0 ? this.fallback : rank;
  }
}

export function compiledRules(agent: string, set: CompiledRuleSet): CompiledRules {
  if (set.tiny !== undefined) return new TinyRules(agent, set, set.tiny);
  if (set.index !== undefined) return new TableRules(agent, set, set.index);
  return new NoPatterns(agent, set);
}
