/** How a check was decided. */
export type Verdict = 'allowed_explicit' | 'allowed_implicit' | 'disallowed_explicit';

/** The answer for one URL and one agent. */
export interface Decision {
  allowed: boolean;
  verdict: Verdict;
  /** 1-based line of the deciding rule, 0 if none decided. */
  line: number;
  /** That line's rule (e.g. `Disallow: /private`), '' if none. */
  rule: string;
}

/** A rule that can decide a check: what `CompiledRules.decide` indexes into. */
export interface RuleInfo {
  allowed: boolean;
  line: number;
  rule: string;
}

/** A record other than User-agent/Allow/Disallow/Sitemap (Crawl-delay, Host, Clean-param, unknown keys …). */
export interface RobotsRecord {
  line: number;
  /** The key as written, trimmed. */
  key: string;
  value: string;
}

/** Rules compiled once for one agent: the fast path the pipeline uses for millions of checks. */
export interface CompiledRules {
  /** The product token the rules were compiled for (after dropping any `/version`). */
  readonly agent: string;
  /** Every rule that can decide, indexed by `decide`. */
  readonly rules: readonly RuleInfo[];
  /**
   * Decides a path+query (as `pathFromUrl` returns it). Returns an index into `rules`,
   * or -1 when no rule decides (allowed_implicit). Never allocates on the hot path.
   */
  decide(pathAndQuery: string): number;
  /** `decide` wrapped in a Decision. */
  checkPath(pathAndQuery: string): Decision;
  /** Accepts an absolute URL or a path. */
  check(url: string): Decision;
}

/** A parsed robots.txt. Parsing is total: it never throws on any input. */
export interface RobotsTxt {
  /** Accepts an absolute URL (http/https, any port) or a path (`/a?b`). */
  check(url: string, agent: string): Decision;
  /** Crawl-delay in seconds for the agent's group(s), or undefined. */
  crawlDelay(agent: string): number | undefined;
  /** Sitemap URLs in file order (global, whatever group they appear in). */
  readonly sitemaps: string[];
  /** Other records with their line numbers. */
  readonly records: readonly RobotsRecord[];
  /** Compiles the rules that apply to `agent`. Cache the result; compiling is not free. */
  compile(agent: string): CompiledRules;
}
