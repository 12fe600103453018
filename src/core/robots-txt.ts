// parseRobotsTxt: the public entry point, and the RobotsTxt object it returns.

import { agentKey, asciiLower, normalizeAgent } from './agent.js';
import { AppendedRules, ShiftedRules } from './appended-rules.js';
import { arrayOf } from './array-of.js';
import { CompiledBase, CompiledRuleSet, compiledRules, selectGroups } from './compile.js';
import { DirectRules } from './direct-rules.js';
import type { Group, ParsedRobots } from './parse.js';
import type { CompiledRules, Decision, RobotsRecord, RobotsTxt } from './types.js';
import { parseBody, VersionParses } from './version-parses.js';

/** Agents kept per RobotsTxt for `check(url, agent)`; a crawl judges a handful of agents. */
const MAX_CACHED_AGENTS = 64;

/**
 * Compiling an agent's rules costs about as much as COMPILE_WORK_BASE rule scans of direct checks, plus
 * COMPILE_WORK_PER_RULE scans per rule (on the make-crawl workload: ~10 µs + ~0.8 µs a rule, against
 * ~30 ns a rule scanned). Direct checks answer until their extra cost reaches that of compiling; then the
 * agent is compiled. That is the rent-or-buy rule: at most about twice the cost of the better choice.
 */
const COMPILE_WORK_BASE = 300;
const COMPILE_WORK_PER_RULE = 25;

/** One agent of a RobotsTxt: its product token, its rules for direct checks, then its compiled form. */
interface AgentState {
  readonly token: string;
  direct: DirectRules | undefined;
  compiled: CompiledRules | undefined;
}

class Robots implements RobotsTxt {
  readonly sitemaps: string[];
  readonly records: readonly RobotsRecord[];
  /** Groups in file order (internal; for reports and tests). */
  readonly groups: readonly Group[];
  // Most parses check or compile one agent: the first agent and the first compiled selection are held
  // in fields, and maps are made only for more (a map per parsed file would be most of its heap).
  private firstKey: string | undefined;
  private firstState: AgentState | undefined;
  private agents: Map<string, AgentState> | undefined;
  private firstSelection: string | undefined;
  private firstSet: CompiledRuleSet | undefined;
  private setsBySelection: Map<string, CompiledRuleSet> | undefined;
  /** The agent string of the last check and its state: checks in a row mostly name one agent. */
  private lastAgent: string | undefined;
  private lastState: AgentState | undefined;
  /** The last agent's compiled rules once compiled: one load less per check. */
  private lastCompiled: CompiledRules | undefined;

  constructor(parsed: ParsedRobots) {
    this.sitemaps = parsed.sitemaps;
    this.records = parsed.records;
    this.groups = parsed.groups;
  }

  private stateOf(agent: string): AgentState {
    if (agent === this.lastAgent) return this.lastState!;
    const token = normalizeAgent(agent);
    const key = asciiLower(token);
    let state: AgentState | undefined;
    if (this.agents === undefined) {
      if (this.firstState === undefined || (key === this.firstKey && this.firstState.token !== token)) {
        state = { token, direct: undefined, compiled: undefined };
        this.firstKey = key;
        this.firstState = state;
      } else if (key === this.firstKey) {
        state = this.firstState;
      } else {
        this.agents = new Map([[this.firstKey!, this.firstState]]);
      }
    }
    if (this.agents !== undefined) {
      state = this.agents.get(key);
      if (state === undefined || state.token !== token) {
        state = { token, direct: undefined, compiled: undefined };
        if (this.agents.size >= MAX_CACHED_AGENTS) this.agents.clear();
        this.agents.set(key, state);
      }
    }
    this.lastAgent = agent;
    this.lastState = state!;
    this.lastCompiled = state!.compiled;
    return state!;
  }

  private compileState(state: AgentState): CompiledRules {
    const { specific, groups } = selectGroups(this.groups, asciiLower(state.token));
    // Agents that select the same groups (typically: every agent no group names) share one index.
    const selection = specific ? groups.map((g) => this.groups.indexOf(g)).join(',') : '*';
    let set = selection === this.firstSelection ? this.firstSet : this.setsBySelection?.get(selection);
    if (set === undefined) {
      set = new CompiledRuleSet(groups);
      if (this.firstSelection === undefined) {
        this.firstSelection = selection;
        this.firstSet = set;
      } else {
        this.setsBySelection ??= new Map();
        this.setsBySelection.set(selection, set);
      }
    }
    const compiled = compiledRules(state.token, set);
    state.compiled = compiled;
    state.direct = undefined;
    if (state === this.lastState) this.lastCompiled = compiled;
    return compiled;
  }

  compile(agent: string): CompiledRules {
    const state = this.stateOf(agent);
    return state.compiled ?? this.compileState(state);
  }

  check(url: string, agent: string): Decision {
    if (agent === this.lastAgent && this.lastCompiled !== undefined) return this.lastCompiled.check(url);
    const state = this.stateOf(agent);
    if (state.compiled !== undefined) return state.compiled.check(url);
    let direct = state.direct;
    if (direct === undefined) {
      direct = new DirectRules(selectGroups(this.groups, asciiLower(state.token)).groups);
      state.direct = direct;
    }
    if (direct.work < COMPILE_WORK_BASE + COMPILE_WORK_PER_RULE * direct.size) return direct.check(url);
    return this.compileState(state).check(url);
  }

  crawlDelay(agent: string): number | undefined {
    const { groups } = selectGroups(this.groups, agentKey(agent));
    for (const g of groups) if (g.crawlDelay !== undefined) return g.crawlDelay;
    return undefined;
  }
}

/**
 * Parses a robots.txt body (bytes, or a string standing for its UTF-8 bytes) exactly as Google's
 * reference parser does. Total: never throws, linear in the input's length.
 */
export function parseRobotsTxt(body: string | Uint8Array): RobotsTxt {
  return new Robots(parseBody(body));
}

/**
 * Whether two parses decide alike for every agent, by the same lines: the same groups in order (user-agent
 * tokens and `*`, Crawl-delay, each rule's kind and value on the same line), whatever else differs
 * (comments, sitemaps, other records). False for a RobotsTxt not made by parseRobotsTxt.
 */
export function sameGroups(a: RobotsTxt, b: RobotsTxt): boolean {
  if (!(a instanceof Robots && b instanceof Robots)) return false;
  if (a.groups.length !== b.groups.length) return false;
  for (let i = 0; i < a.groups.length; i++) {
    const x = a.groups[i]!;
    const y = b.groups[i]!;
    if (x.global !== y.global || x.crawlDelay !== y.crawlDelay) return false;
    if (x.tokens.length !== y.tokens.length || x.tokens.some((t, k) => t !== y.tokens[k])) return false;
    const shift = x.ruleShiftTo(y);
    if (shift !== null && shift !== 0) return false;
  }
  return true;
}

/**
 * `parseRobotsTxt(body).compile(agent)` for each of `agents`, without materialising the rules of groups
 * none of them can select (groups of other crawlers): what a pipeline that judges a few agents needs.
 */
export function compileRobotsTxt(body: string | Uint8Array, agents: readonly string[]): CompiledRules[] {
  const robots = new Robots(
    parseBody(
      body,
      arrayOf(agents.length, (a) => agentKey(agents[a]!)),
    ),
  );
  return arrayOf(agents.length, (a) => robots.compile(agents[a]!));
}

/** Earlier versions a version is compared with to share their rules: the latest this many. */
const MAX_BASE_VERSIONS = 8;

/**
 * `compileRobotsTxt` for each of several versions of one origin's robots.txt (oldest first), where an
 * agent's rules in a version whose selected groups are those of an earlier version's, rule for rule (on
 * lines moved alike by lines added or removed above them: a comment, a sitemap, another crawler's group),
 * plus any groups appended after them (a `*` group added at the end), are the earlier version's compiled
 * rules, shared, with only the appended groups compiled (ShiftedRules, AppendedRules): versions of a file
 * mostly differ that way. Each version is compared with the latest MAX_BASE_VERSIONS before it. `known[i]`, when given, is version
 * i's rules already compiled by this function or compileRobotsTxt, returned as they are.
 */
export function compileVersions(
  bodies: readonly (string | Uint8Array)[],
  agents: readonly string[],
  known: readonly (CompiledRules[] | undefined)[] = [],
): CompiledRules[][] {
  const keys = arrayOf(agents.length, (a) => agentKey(agents[a]!));
  // Parsed on first need, and let go once no later version can build on them (a long history stays flat).
  const parses = new VersionParses(bodies, keys);
  const selected: ((Group[] | undefined)[] | undefined)[] = [];
  const parse = (i: number) => parses.get(i, Math.max(0, i - MAX_BASE_VERSIONS));
  const selection = (i: number, a: number) => {
    let of = selected[i];
    if (of === undefined) {
      of = new Array<Group[] | undefined>(keys.length);
      selected[i] = of;
    }
    of[a] ??= selectGroups(parse(i).groups, keys[a]!).groups;
    return of[a];
  };
  const indexes = (i: number, groups: readonly Group[]) =>
    groups.map((g) => parse(i).groups.indexOf(g)).join();
  const out: CompiledRules[][] = [];
  for (let i = 0; i < bodies.length; i++) {
    const first = Math.max(0, i - MAX_BASE_VERSIONS);
    if (first > 0) {
      parses.forget(first - 1);
      selected[first - 1] = undefined;
    }
    const have = known[i];
    if (have !== undefined) {
      out.push(have);
      continue;
    }
    const robots = new Robots(parse(i));
    // Agents selecting the same groups in both versions share one object, as compile() shares a set
    // (with one agent there is none to share with: no map per version).
    const layered = agents.length > 1 ? new Map<string, CompiledRules>() : null;
    out.push(
      arrayOf(agents.length, (a) => {
        const agent = agents[a]!;
        const groups = selection(i, a);
        for (let j = i - 1; j >= first; j--) {
          const base = out[j]![a]!;
          if (!(base instanceof CompiledBase || base instanceof ShiftedRules)) continue;
          const baseGroups = selection(j, a);
          // With one agent there is no other to share with: no key to build.
          const key = agents.length > 1 ? `${j}:${indexes(j, baseGroups)}:${indexes(i, groups)}` : '';
          const made = layered?.get(key);
          if (made !== undefined) return made;
          const on = AppendedRules.on(base, baseGroups, groups);
          if (on === undefined) continue;
          layered?.set(key, on);
          return on;
        }
        return robots.compile(agent);
      }),
    );
  }
  return out;
}
