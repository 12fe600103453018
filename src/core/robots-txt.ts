// parseRobotsTxt: the public entry point, and the RobotsTxt object it returns.

import { agentKey, asciiLower, normalizeAgent } from './agent.js';
import { toBinary } from './bytes.js';
import { CompiledRuleSet, compiledRules, rulesOf, selectGroups } from './compile.js';
import { type Group, type ParsedRobots, parseBinary } from './parse.js';
import type { CompiledRules, Decision, RobotsRecord, RobotsTxt } from './types.js';

/** Compiled agents kept per RobotsTxt for `check(url, agent)`; a crawl judges a handful of agents. */
const MAX_CACHED_AGENTS = 64;

class Robots implements RobotsTxt {
  readonly sitemaps: string[];
  readonly records: readonly RobotsRecord[];
  /** Groups in file order (internal; for reports and tests). */
  readonly groups: readonly Group[];
  // Made on first compile: most parses in a pipeline compile one agent once.
  private compiledByAgent: Map<string, CompiledRules> | undefined;
  private setsBySelection: Map<string, CompiledRuleSet> | undefined;

  constructor(parsed: ParsedRobots) {
    this.sitemaps = parsed.sitemaps;
    this.records = parsed.records;
    this.groups = parsed.groups;
  }

  compile(agent: string): CompiledRules {
    const token = normalizeAgent(agent);
    const key = asciiLower(token);
    this.compiledByAgent ??= new Map();
    this.setsBySelection ??= new Map();
    const cached = this.compiledByAgent.get(key);
    if (cached !== undefined && cached.agent === token) return cached;
    const { specific, groups } = selectGroups(this.groups, key);
    // Agents that select the same groups (typically: every agent no group names) share one index.
    const selection = specific ? groups.map((g) => this.groups.indexOf(g)).join(',') : '*';
    let set = this.setsBySelection.get(selection);
    if (set === undefined) {
      set = new CompiledRuleSet(rulesOf(groups));
      this.setsBySelection.set(selection, set);
    }
    const compiled = compiledRules(token, set);
    if (this.compiledByAgent.size >= MAX_CACHED_AGENTS) this.compiledByAgent.clear();
    this.compiledByAgent.set(key, compiled);
    return compiled;
  }

  check(url: string, agent: string): Decision {
    return this.compile(agent).check(url);
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
  return new Robots(parseBinary(toBinary(body)));
}

/**
 * `parseRobotsTxt(body).compile(agent)` for each of `agents`, without materialising the rules of groups
 * none of them can select (groups of other crawlers): what a pipeline that judges a few agents needs.
 */
export function compileRobotsTxt(body: string | Uint8Array, agents: readonly string[]): CompiledRules[] {
  const robots = new Robots(parseBinary(toBinary(body), agents.map(agentKey)));
  return agents.map((a) => robots.compile(a));
}
