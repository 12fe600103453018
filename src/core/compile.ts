// Compiling a parsed robots.txt for one agent: which groups apply, and the CompiledRules fast path.

import type { Group, GroupRule } from './parse.js';
import { decideIn, RuleIndex, type RuleTable } from './rule-index.js';
import { orderRules } from './rule-order.js';
import type { CompiledRules, Decision, RuleInfo } from './types.js';
import { locatePath, type PathSpan, pathFromUrl, SPAN_IN_PLACE } from './url-path.js';

/** Out-parameter for locatePath; checks run one at a time on a thread, so one object serves all. */
const span: PathSpan = { start: 0, end: 0 };

/** RFC 9309 §2.2.2: the robots.txt URI itself is always allowed (the one deliberate exception). */
export const ROBOTS_TXT_PATH = '/robots.txt';

/** One table for every agent and file without a rule that can decide. */
const EMPTY_INDEX = new RuleIndex({ patterns: [], infos: [] });

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

/** Rules of one agent, matched through a RuleIndex. Shared between agents that select the same groups. */
export class CompiledRuleSet {
  readonly index: RuleIndex;
  /** Decision objects by rank, made on first use (the pipeline only needs `decide`). */
  readonly decisions: (Decision | undefined)[];

  constructor(rules: readonly GroupRule[]) {
    const ordered = orderRules(rules);
    this.index = ordered.patterns.length === 0 ? EMPTY_INDEX : new RuleIndex(ordered);
    this.decisions = new Array(this.index.infos.length);
  }

  decision(rank: number): Decision {
    let d = this.decisions[rank];
    if (d === undefined) {
      d = decisionOf(this.index.infos[rank]!);
      this.decisions[rank] = d;
    }
    return d;
  }
}

class Compiled implements CompiledRules, RuleTable {
  readonly agent: string;
  readonly rules: readonly RuleInfo[];
  // The table's parts, held here directly: one object less to load per check.
  readonly count: number;
  readonly t: Int32Array;
  readonly segments: readonly (readonly string[])[];
  private readonly set: CompiledRuleSet;
  /** The set's decisions array, shared and filled on first use: one load less per explicit outcome. */
  private readonly decisions: (Decision | undefined)[];

  constructor(agent: string, set: CompiledRuleSet) {
    const index = set.index;
    this.agent = agent;
    this.rules = index.infos;
    this.count = index.count;
    this.t = index.t;
    this.segments = index.segments;
    this.set = set;
    this.decisions = set.decisions;
  }

  decide(pathAndQuery: string): number {
    if (pathAndQuery.length === ROBOTS_TXT_PATH.length && pathAndQuery === ROBOTS_TXT_PATH) return -1;
    return decideIn(this, pathAndQuery, 0, pathAndQuery.length);
  }

  /** `decide` on a URL: matched in place when its path needs no rewriting (the usual case). */
  decideUrl(url: string): number {
    if (locatePath(url, span) !== SPAN_IN_PLACE) return this.decide(pathFromUrl(url));
    const { start, end } = span;
    if (end - start === ROBOTS_TXT_PATH.length && url.startsWith(ROBOTS_TXT_PATH, start)) return -1;
    return decideIn(this, url, start, end);
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

export function compiledRules(agent: string, set: CompiledRuleSet): CompiledRules {
  return new Compiled(agent, set);
}
